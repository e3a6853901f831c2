// Small, total helpers for reading untrusted JSON: none of them throws, all of them are linear.
import { isObj, type Obj } from './obj';
import { outOfRangeNumbers } from './number-range';
import { redactSecrets } from './secrets';

export { isObj, type Obj } from './obj';

/** Records deeper than this are rejected: later stages (hashing, canonical JSON) recurse. */
export const MAX_DEPTH = 200;

export function str(v: unknown): string | undefined {
  return typeof v === 'string' ? v : undefined;
}

/** A non-empty string after trimming (ids recorded with stray spaces, e.g. `" call_1"`). */
export function idOf(v: unknown): string | undefined {
  if (typeof v === 'number' && Number.isFinite(v)) return String(v);
  if (typeof v !== 'string') return undefined;
  const t = v.trim();
  return t ? t : undefined;
}

export function arr(v: unknown): unknown[] {
  return Array.isArray(v) ? v : [];
}

/** Nesting depth, iteratively (a hostile record must not overflow the stack here). Stops counting past `limit`. */
export function depthOf(value: unknown, limit = MAX_DEPTH): number {
  let max = 0;
  const stack: Array<[unknown, number]> = [[value, 1]];
  while (stack.length) {
    const [v, d] = stack.pop()!;
    if (typeof v !== 'object' || v === null) continue;
    if (d > max) max = d;
    if (max > limit) return max;
    if (Array.isArray(v)) for (const x of v) stack.push([x, d + 1]);
    else for (const k in v as Obj) stack.push([(v as Obj)[k], d + 1]);
  }
  return max;
}

/** Parse a JSON string, or undefined; a result nested deeper than MAX_DEPTH counts as unparseable. */
export function tryJson(text: string): { ok: true; value: unknown } | { ok: false } {
  try {
    const value: unknown = JSON.parse(text);
    if (depthOf(value) > MAX_DEPTH) return { ok: false };
    return { ok: true, value };
  } catch {
    return { ok: false };
  }
}

/** Call arguments as the trace model keeps them: parsed when they are JSON, else the raw string. */
export function argumentsOf(v: unknown): unknown {
  if (typeof v !== 'string') return v;
  const t = v.trim();
  if (t.startsWith('{') || t.startsWith('[')) {
    // Arguments holding a number a parse would change (an integer beyond 2^53) stay the text the model wrote.
    if (outOfRangeNumbers(t).length > 0) return v;
    const parsed = tryJson(t);
    if (parsed.ok) return parsed.value;
  }
  return v;
}

/** Any value as text: strings as they are, everything else as compact JSON. */
export function asText(v: unknown): string {
  if (typeof v === 'string') return v;
  if (v === undefined || v === null) return '';
  try {
    return JSON.stringify(v) ?? '';
  } catch {
    // eslint-disable-next-line @typescript-eslint/no-base-to-string -- the last resort for what JSON.stringify refuses (a BigInt, a cycle).
    return String(v);
  }
}

/** Text of a content field: a string, or an array of parts (`{type:"text", text}` and friends). */
export function contentText(v: unknown): string {
  if (typeof v === 'string') return v;
  if (v === undefined || v === null) return '';
  if (Array.isArray(v)) {
    const parts: string[] = [];
    for (const p of v) {
      const t = partText(p);
      if (t !== undefined) parts.push(t);
    }
    return parts.join('\n');
  }
  if (isObj(v)) return partText(v) ?? asText(v);
  return asText(v);
}

const BINARY_PARTS = new Set(['image', 'image_url', 'input_image', 'document', 'file', 'input_file', 'audio', 'input_audio', 'blob', 'uri']);

function partText(p: unknown): string | undefined {
  if (typeof p === 'string') return p;
  if (!isObj(p)) return p === null || p === undefined ? undefined : asText(p);
  for (const key of ['text', 'content', 'output_text', 'input_text', 'refusal', 'value']) {
    const v = p[key];
    if (typeof v === 'string') return v;
    if (key === 'content' && Array.isArray(v)) return contentText(v);
  }
  const type = str(p.type);
  // Images, documents, audio: binary payloads; a marker keeps the position of the part without the bytes.
  if (type && BINARY_PARTS.has(type)) return `[${type}]`;
  return asText(p);
}

/** A short quote of user data for an error message (never a whole payload). */
export function quote(v: unknown, max = 60): string {
  const s = typeof v === 'string' ? v : asText(v);
  return JSON.stringify(redactSecrets(s.length > max ? s.slice(0, max) + '…' : s));
}

export function typeName(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'array';
  return typeof v;
}

/** Types that hold a call in any of the content-block dialects this reader knows of. */
export const CALL_LIKE = /^(tool_call|tool_calls|tool_use|function_call|function|server_tool_use|mcp_tool_use)$/;

/** The first content part whose type names a call, when the content is a list of parts. */
export function callLikeBlock(content: unknown): { index: number; type: string } | undefined {
  if (!Array.isArray(content)) return undefined;
  for (let i = 0; i < content.length; i++) {
    const b: unknown = content[i];
    if (isObj(b) && typeof b.type === 'string' && CALL_LIKE.test(b.type)) return { index: i, type: b.type };
  }
  return undefined;
}
