// One chat message of any span convention → a conversation item. Covers OpenAI fields (tool_calls,
// tool_call_id), Anthropic blocks (tool_use / tool_result) and OTel GenAI parts (tool_call /
// tool_call_response with `response` or `result`), since span exporters copy whichever the SDK used.
import type { ConvItem, NCall, NResult } from '../conversation';
import { argumentsOf, arr, asText, contentText, idOf, isObj, str, tryJson } from '../values';

export function messageItem(m: unknown, defaultRole = 'user'): ConvItem | null {
  if (typeof m === 'string') return defaultRole === 'assistant' ? { role: 'assistant', text: m, calls: [] } : { role: 'user', text: m };
  if (!isObj(m)) return null;
  const role = (str(m.role) ?? defaultRole).toLowerCase();
  const texts: string[] = [];
  const calls: NCall[] = [];
  const results: NResult[] = [];
  readContent(m.parts ?? m.content, texts, calls, results);
  for (const tc of arr(m.tool_calls)) {
    if (!isObj(tc)) continue;
    const fn = isObj(tc.function) ? tc.function : tc;
    const name = str(fn.name)?.trim();
    if (name) calls.push({ id: idOf(tc.id), name, arguments: argumentsOf(fn.arguments) });
  }
  if (isObj(m.function_call)) {
    const name = str(m.function_call.name)?.trim();
    if (name) calls.push({ name, arguments: argumentsOf(m.function_call.arguments) });
  }
  const text = texts.join('\n');
  switch (role) {
    case 'system':
    case 'developer':
      return { role: 'system', text };
    case 'assistant':
    case 'model':
    case 'ai':
      return { role: 'assistant', text, calls, results: results.length ? results : undefined };
    case 'tool':
    case 'function':
    case 'ipython': {
      if (results.length) return { role: 'tool', results };
      const callId = idOf(m.tool_call_id ?? m.id);
      const name = str(m.name);
      return { role: 'tool', results: [{ callId, name, content: text, pairing: callId ? 'id' : name ? 'name-order' : 'position' }] };
    }
    default: {
      // A user message naming a tool_call_id carries a tool result (Anthropic's tool_result, as OpenInference flattens it).
      const callId = idOf(m.tool_call_id);
      if (callId && results.length === 0) return { role: 'user', text: '', results: [{ callId, content: text, pairing: 'id' }] };
      return { role: 'user', text, results: results.length ? results : undefined };
    }
  }
}

function readContent(content: unknown, texts: string[], calls: NCall[], results: NResult[]): void {
  let c = content;
  // Some exporters store block arrays as a JSON string.
  if (typeof c === 'string') {
    const t = c.trimStart();
    if (t.startsWith('[{')) {
      const parsed = tryJson(t);
      if (parsed.ok && Array.isArray(parsed.value) && parsed.value.every((b) => isObj(b) && typeof b.type === 'string')) c = parsed.value;
    }
  }
  if (!Array.isArray(c)) {
    const t = contentText(c);
    if (t) texts.push(t);
    return;
  }
  for (const part of c) {
    if (!isObj(part)) {
      if (typeof part === 'string') texts.push(part);
      continue;
    }
    const type = str(part.type) ?? '';
    if (type === 'tool_call' || type === 'tool_use' || type === 'function_call') {
      const name = str(part.name)?.trim();
      if (name) calls.push({ id: idOf(part.id ?? part.call_id), name, arguments: argumentsOf(part.arguments ?? part.input) });
    } else if (type === 'tool_call_response' || type === 'tool_result' || type === 'function_call_output') {
      const response = 'response' in part ? part.response : 'result' in part ? part.result : 'output' in part ? part.output : part.content;
      const isError = part.is_error === true ? true : undefined;
      const callId = idOf(part.id ?? part.tool_use_id ?? part.call_id);
      const text = typeof response === 'string' ? response : Array.isArray(response) ? contentText(response) : asText(response);
      results.push({ callId, content: text, isError, pairing: callId ? 'id' : 'position' });
    } else if (type === 'reasoning' || type === 'thinking' || type === 'redacted_thinking') {
      continue;
    } else {
      const t = contentText([part]);
      if (t) texts.push(t);
    }
  }
}

/** A value that may be a message list given as JSON text. */
export function messagesValue(v: unknown): unknown[] | undefined {
  if (Array.isArray(v)) return v as unknown[];
  if (typeof v === 'string') {
    const t = v.trimStart();
    if (!t.startsWith('[')) return undefined;
    const parsed = tryJson(t);
    return parsed.ok && Array.isArray(parsed.value) ? parsed.value : undefined;
  }
  return undefined;
}

export function itemsOf(list: unknown[], defaultRole = 'user'): ConvItem[] {
  const out: ConvItem[] = [];
  for (const m of list) {
    const item = messageItem(m, defaultRole);
    if (item) out.push(item);
  }
  return out;
}
