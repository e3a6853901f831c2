// How a trace asks to be rendered, beyond its messages. `meta.render.menu: 'inline'` shows the tool
// menu as a text list in the system message (TGB's single-step prompt) instead of the chat
// template's function-definition block; the built-in benchmark's compact prompt sets it.
import type { Trace } from './schema';

export function menuIsInline(trace: Trace): boolean {
  const render = trace.meta?.render as { menu?: unknown } | undefined;
  return render?.menu === 'inline';
}

/** The menu as text lines: `- Name: description`. */
export function inlineMenuText(trace: Trace): string {
  return trace.tools.map((t) => `- ${t.name}${t.description ? `: ${t.description}` : ''}`).join('\n');
}

/** The system message with an inline menu appended (the trace's own system text first). */
export function systemWithInlineMenu(trace: Trace): string {
  const menu = trace.tools.length > 0 ? `Tools:\n${inlineMenuText(trace)}` : '';
  return [trace.system ?? '', menu].filter(Boolean).join('\n\n');
}
