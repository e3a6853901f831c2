// How a trace asks to be rendered, beyond its messages. `meta.render.menu: 'inline'` shows the tool
// menu as a text list in the system message (TGB's single-step prompt) instead of the chat
// template's function-definition block; the built-in benchmark's compact prompt sets it.
// `meta.render.deferred` lists tools that were offered but not run (a three-state space's deferred tools,
// shared/benchmark/deferred.ts): they are listed after the menu, under a line that says how to ask for one.
import type { Trace } from './schema';

export function menuIsInline(trace: Trace): boolean {
  const render = trace.meta?.render as { menu?: unknown } | undefined;
  return render?.menu === 'inline';
}

export interface DeferredEntry {
  name: string;
  description?: string;
}

export interface DeferredHint {
  /** The line above the list: what a deferred tool is and how to ask for one. */
  header: string;
  tools: DeferredEntry[];
}

/** The deferred tools a trace was served with, if any. */
export function deferredHint(trace: Trace): DeferredHint | undefined {
  const render = trace.meta?.render as { deferred?: Partial<DeferredHint> } | undefined;
  const d = render?.deferred;
  if (!d || typeof d.header !== 'string' || !Array.isArray(d.tools) || d.tools.length === 0) return undefined;
  return { header: d.header, tools: d.tools };
}

function menuLines(tools: readonly DeferredEntry[]): string {
  return tools.map((t) => `- ${t.name}${t.description ? `: ${t.description}` : ''}`).join('\n');
}

/** The menu as text lines: `- Name: description`. */
export function inlineMenuText(trace: Trace): string {
  return menuLines(trace.tools);
}

/** The deferred tools as text: the header, then `- Name: description` lines ('' when there are none). */
export function deferredMenuText(trace: Trace): string {
  const d = deferredHint(trace);
  return d ? `${d.header}\n${menuLines(d.tools)}` : '';
}

/** The system message with an inline menu appended (the trace's own system text first), then the deferred
 * tools, if any. */
export function systemWithInlineMenu(trace: Trace): string {
  const menu = trace.tools.length > 0 ? `Tools:\n${inlineMenuText(trace)}` : '';
  return [trace.system ?? '', menu, deferredMenuText(trace)].filter(Boolean).join('\n\n');
}

/** The system message as a model reads it: with the inline menu where the trace asks for one, and with its
 * deferred tools either way. Undefined when there is nothing to say. */
export function renderedSystem(trace: Trace): string | undefined {
  if (menuIsInline(trace)) return systemWithInlineMenu(trace) || undefined;
  const text = [trace.system ?? '', deferredMenuText(trace)].filter(Boolean).join('\n\n');
  return text || undefined;
}
