// Edits of a JSON request body at the byte level: the OpenAI gateway forwards what the client sent, and
// when it cuts the menu it changes only the members the cut changes (`tools`, `tool_choice`,
// `parallel_tool_calls`, `metadata.lots_task`); every other byte — a seed of 9223372036854775807, a
// 1e309, invalid UTF-8 inside a string, the client's spacing — reaches the upstream as it was sent.
// JSON.parse reads the body for the gateway's decisions; these functions only find where its values lie
// (the body is known to be valid JSON by then). Linear in the body's size, without recursion. Pure.

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COLON = 0x3a;
const COMMA = 0x2c;
const LBRACE = 0x7b;
const RBRACE = 0x7d;
const LBRACKET = 0x5b;
const RBRACKET = 0x5d;

export interface Span {
  start: number;
  /** One past the last byte. */
  end: number;
}

export interface Member extends Span {
  /** The key, decoded. */
  key: string;
  /** Where its value starts (`end` is where the value ends). */
  valueStart: number;
}

function isSpace(c: number | undefined): boolean {
  return c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09;
}

function skipSpace(b: Uint8Array, i: number): number {
  while (isSpace(b[i])) i++;
  return i;
}

function broken(at: number): Error {
  return new Error(`json-splice: not valid JSON at byte ${at}`);
}

function stringEnd(b: Uint8Array, i: number): number {
  let j = i + 1;
  for (;;) {
    const c = b[j];
    if (c === undefined) throw broken(i);
    if (c === QUOTE) return j + 1;
    j += c === BACKSLASH ? 2 : 1;
  }
}

/** One past the end of the value that starts at `i`. */
export function valueEnd(b: Uint8Array, i: number): number {
  let depth = 0;
  for (;;) {
    const c = b[i];
    if (c === undefined) throw broken(i);
    if (c === QUOTE) i = stringEnd(b, i);
    else if (c === LBRACE || c === LBRACKET) {
      depth++;
      i++;
    } else if (c === RBRACE || c === RBRACKET) {
      depth--;
      i++;
    } else if (depth === 0) {
      // A number, true, false or null.
      while (i < b.length && !isSpace(b[i]) && b[i] !== COMMA && b[i] !== RBRACE && b[i] !== RBRACKET) i++;
      return i;
    } else i++;
    if (depth === 0) return i;
  }
}

const decoder = new TextDecoder();

/** The members of the object whose `{` is at `open`, and where its `}` is. */
export function objectMembers(b: Uint8Array, open: number): { members: Member[]; close: number } {
  if (b[open] !== LBRACE) throw broken(open);
  const members: Member[] = [];
  let i = skipSpace(b, open + 1);
  if (b[i] === RBRACE) return { members, close: i };
  for (;;) {
    const start = i;
    const keyEnd = stringEnd(b, i);
    const key = JSON.parse(decoder.decode(b.subarray(start, keyEnd))) as string;
    i = skipSpace(b, keyEnd);
    if (b[i] !== COLON) throw broken(i);
    const valueStart = skipSpace(b, i + 1);
    const end = valueEnd(b, valueStart);
    members.push({ key, start, valueStart, end });
    i = skipSpace(b, end);
    if (b[i] === RBRACE) return { members, close: i };
    if (b[i] !== COMMA) throw broken(i);
    i = skipSpace(b, i + 1);
  }
}

/** The elements of the array whose `[` is at `open`, and where its `]` is. */
export function arrayItems(b: Uint8Array, open: number): { items: Span[]; close: number } {
  if (b[open] !== LBRACKET) throw broken(open);
  const items: Span[] = [];
  let i = skipSpace(b, open + 1);
  if (b[i] === RBRACKET) return { items, close: i };
  for (;;) {
    const end = valueEnd(b, i);
    items.push({ start: i, end });
    i = skipSpace(b, end);
    if (b[i] === RBRACKET) return { items, close: i };
    if (b[i] !== COMMA) throw broken(i);
    i = skipSpace(b, i + 1);
  }
}

/**
 * The container from `open` to `close` (inclusive) with some of its items dropped (`null`) or replaced
 * (bytes); `undefined` keeps an item as it was. Spacing and separators are the original ones.
 */
export function spliceItems(
  b: Uint8Array,
  open: number,
  close: number,
  items: readonly Span[],
  edit: (i: number) => Uint8Array | null | undefined,
): Uint8Array[] {
  const parts: Uint8Array[] = [b.subarray(open, items.length ? items[0]!.start : close)];
  let first = true;
  items.forEach((item, i) => {
    const e = edit(i);
    if (e === null) return;
    if (!first) parts.push(b.subarray(items[i - 1]!.end, item.start));
    parts.push(e ?? b.subarray(item.start, item.end));
    first = false;
  });
  parts.push(b.subarray(items.length ? items[items.length - 1]!.end : close, close + 1));
  return parts;
}

function concat(parts: readonly Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

/** The top-level members of a JSON object body (the body must be an object). */
export function topMembers(b: Uint8Array): Member[] {
  return objectMembers(b, skipSpace(b, 0)).members;
}

/** The first top-level key that occurs more than once, if any (parsers disagree on which one counts). */
export function duplicateTopKey(b: Uint8Array): string | undefined {
  const seen = new Set<string>();
  for (const m of topMembers(b)) {
    if (seen.has(m.key)) return m.key;
    seen.add(m.key);
  }
  return undefined;
}

export interface BodyEdit {
  /** Top-level members to remove. */
  drop: ReadonlySet<string>;
  /** The indexes of the `tools` elements to keep (undefined: `tools` stays as it is). */
  keepTools?: readonly number[];
  /** Per `tools` element: replacement bytes, null to drop it, undefined to keep it; `append` is added at the end (a gateway's tool search tool). */
  editTools?: { edit: (i: number) => Uint8Array | null | undefined; append?: Uint8Array };
  /** Remove this key from `metadata` (and `metadata` itself when nothing else is left in it). */
  dropMetadataKey?: string;
}

/** The body with only `edit` applied; the bytes of everything else are the client's. */
export function editBody(b: Uint8Array, edit: BodyEdit): Uint8Array {
  const open = skipSpace(b, 0);
  const { members, close } = objectMembers(b, open);
  const parts = spliceItems(b, open, close, members, (i) => {
    const m = members[i]!;
    if (edit.drop.has(m.key)) return null;
    if (m.key === 'tools' && edit.editTools !== undefined && b[m.valueStart] === LBRACKET) {
      const { items, close: end } = arrayItems(b, m.valueStart);
      const parts = spliceItems(b, m.valueStart, end, items, edit.editTools.edit);
      const more = edit.editTools.append;
      if (more !== undefined) {
        const last = parts.pop()!;
        const empty = parts.reduce((n, x) => n + x.length, 0) === 1 + countSpace(parts);
        parts.push(empty ? more : concat([COMMA_BYTES, more]), last);
      }
      return concat([b.subarray(m.start, m.valueStart), ...parts]);
    }
    if (m.key === 'tools' && edit.keepTools !== undefined && b[m.valueStart] === LBRACKET) {
      const { items, close: end } = arrayItems(b, m.valueStart);
      const keep = new Set(edit.keepTools);
      return concat([b.subarray(m.start, m.valueStart), ...spliceItems(b, m.valueStart, end, items, (j) => (keep.has(j) ? undefined : null))]);
    }
    if (m.key === 'metadata' && edit.dropMetadataKey !== undefined && b[m.valueStart] === LBRACE) {
      const inner = objectMembers(b, m.valueStart);
      const left = inner.members.filter((x) => x.key !== edit.dropMetadataKey);
      if (left.length === inner.members.length) return undefined;
      if (left.length === 0) return null;
      return concat([
        b.subarray(m.start, m.valueStart),
        ...spliceItems(b, m.valueStart, inner.close, inner.members, (j) => (inner.members[j]!.key === edit.dropMetadataKey ? null : undefined)),
      ]);
    }
    return undefined;
  });
  return concat([b.subarray(0, open), ...parts, b.subarray(close + 1)]);
}

const COMMA_BYTES = new Uint8Array([COMMA]);

/** The spacing bytes among parts (to tell an array with no item left from one with items). */
function countSpace(parts: readonly Uint8Array[]): number {
  let n = 0;
  for (const p of parts) for (const c of p) if (isSpace(c)) n++;
  return n;
}
