// Menu entries from the many ways formats describe a tool, normalised to ToolDef.
import type { ToolDef } from '../trace/schema';
import { isObj, str, tryJson, type Obj } from './values';

export function toolDef(name: unknown, description?: unknown, parameters?: unknown, strict?: unknown): ToolDef | undefined {
  const n = str(name)?.trim();
  if (!n) return undefined;
  const def: ToolDef = { name: n };
  const d = str(description);
  if (d !== undefined) def.description = d;
  let p = parameters;
  if (typeof p === 'string') {
    const parsed = tryJson(p);
    p = parsed.ok ? parsed.value : undefined;
  }
  if (isObj(p)) def.parameters = p;
  if (typeof strict === 'boolean') def.strict = strict;
  return def;
}

/** OpenAI chat (`{type:"function", function:{…}}`), Responses (flat), legacy `functions`, Anthropic (`input_schema`), built-ins. */
export function toolDefsOf(list: unknown): ToolDef[] {
  if (typeof list === 'string') {
    const parsed = tryJson(list);
    return parsed.ok ? toolDefsOf(parsed.value) : [];
  }
  if (!Array.isArray(list)) return [];
  const out: ToolDef[] = [];
  for (const t of list) {
    const def = anyToolDef(t);
    if (def) out.push(def);
  }
  return out;
}

export function anyToolDef(t: unknown): ToolDef | undefined {
  if (!isObj(t)) return undefined;
  const fn = isObj(t.function) ? t.function : isObj(t.custom) ? t.custom : undefined;
  if (fn) return toolDef(fn.name, fn.description, fn.parameters ?? fn.input_schema, fn.strict);
  if (t.name !== undefined) return toolDef(t.name, t.description, t.parameters ?? t.input_schema ?? t.inputSchema, t.strict);
  const type = str(t.type);
  return type ? toolDef(builtinToolName(type)) : undefined;
}

/** Built-in tools are named by their type on the menu and in the call items (`web_search_call` → `web_search`). */
export function builtinToolName(type: string): string {
  if (type.startsWith('web_search')) return 'web_search';
  if (type.startsWith('computer')) return 'computer';
  return type.replace(/_call(_output)?$/, '').replace(/_\d{8}$/, '');
}

/**
 * A tool name no API accepts: a chat-template token left in it by the serving stack (gpt-oss's
 * `ls<|channel|>commentary`), or characters outside letters, digits and `_ - . : /` (a garbled generation).
 * The model never had such a tool: the name is flagged (meta.malformedToolNames) and kept off inferred menus.
 */
export function malformedToolName(name: string): boolean {
  return /<\|[A-Za-z_]+\|>/.test(name) || /[^\w.\-:/]/.test(name);
}

export type { Obj };
