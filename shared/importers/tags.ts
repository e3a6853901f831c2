// `<tool_call>…</tool_call>`-style blocks inside free text (Hermes, Qwen and most open chat templates).
// Linear: each search starts where the previous one ended. An unclosed last tag runs to the end of the text.
import { splitConcatenatedJson } from './document';
import { parsePythonLiteral } from './python-literal';
import { tryJson } from './values';

export interface Tagged {
  blocks: string[];
  /** The text outside the blocks, trimmed. */
  rest: string;
}

export function extractTagged(text: string, tag: string): Tagged {
  const open = `<${tag}>`;
  const close = `</${tag}>`;
  const blocks: string[] = [];
  const rest: string[] = [];
  let at = 0;
  for (;;) {
    const start = text.indexOf(open, at);
    if (start < 0) {
      rest.push(text.slice(at));
      break;
    }
    rest.push(text.slice(at, start));
    const end = text.indexOf(close, start + open.length);
    if (end < 0) {
      blocks.push(text.slice(start + open.length));
      break;
    }
    blocks.push(text.slice(start + open.length, end));
    at = end + close.length;
  }
  return { blocks, rest: rest.join('').trim() };
}

/** A payload as JSON, else as a Python literal (the Hermes reference parser's fallback), else undefined. */
export function parsePayload(text: string): { ok: true; value: unknown } | { ok: false } {
  const t = text.trim();
  if (!t) return { ok: false };
  const json = tryJson(t);
  if (json.ok) return json;
  const py = parsePythonLiteral(t);
  if (py.ok) return py;
  // `{…}\n{…}` written back to back.
  const parts = splitConcatenatedJson(t);
  if (parts.length > 1) {
    const values: unknown[] = [];
    for (const p of parts) {
      const v = tryJson(p);
      if (!v.ok) return { ok: false };
      values.push(v.value);
    }
    return { ok: true, value: values };
  }
  return { ok: false };
}
