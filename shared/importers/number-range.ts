// Number literals a JSON parser cannot keep: `1e309` becomes Infinity (stored as null), `1e-400` becomes
// 0, and an integer beyond ±(2^53 − 1) is rounded (12345678901234567891 → 12345678901234567000).
//
// The rules (docs/trace-formats.md, "Numbers"):
// - `1e309` / `1e-400`: the record is REJECTED, reported `file:line: path: …` (the line of the literal):
//   keeping it would store another value (null, 0) silently. The message says how to keep it (quote it).
// - An integer beyond 2^53 (a Together AI `seed`, a card number in a BFCL environment snapshot) does not
//   reject its record: it is read as its source text (`protectBigIntegers` marks it, `restoreBigIntegers`
//   writes the digits back wherever the trace keeps it as text, meta or observation). Only where the value
//   itself would change what the user relies on — a call's arguments, a tool's schema — is the record
//   rejected, naming that field.
// - An integer under a key naming nanoseconds (OTLP's `startTimeUnixNano`) is a timestamp read as a
//   number anyway (to about 100 ns, far finer than any span): not reported.
import { formatIssuePath, type LineError } from '../trace/validate';

export interface OutOfRangeNumber {
  /** Where in the record: `turns[0].steps[1].args.amount` (`(record)` for a record that is a number). */
  path: string;
  /** The literal as written (cut to 40 characters). */
  literal: string;
  /** What a parser would make of it. */
  why: string;
  /** Offset of the literal in the text. */
  offset: number;
  /** Length of the whole literal in the text. */
  length: number;
  /** An integer that would be rounded (kept as its source text), or a number out of range altogether (rejected). */
  kind: 'integer' | 'range';
}

/** A literal that can be out of range has 16+ digits in a row or a 3-digit exponent (quick test first). */
const SUSPECT = /\d{16}|[eE][+-]?\d{3}/;
const NUMBER = /-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?/y;

function judge(literal: string, key: string | number | undefined): string | undefined {
  const v = Number(literal);
  if (!Number.isFinite(v))
    return `is beyond the largest number that can be stored (about 1.8e308; it would become ${v > 0 ? '' : '-'}Infinity, stored as null)`;
  const mantissa = literal.split(/[eE]/)[0]!;
  if (v === 0 && /[1-9]/.test(mantissa)) return 'is closer to 0 than the smallest number that can be stored (about 5e-324; it would become 0)';
  if (/^-?\d+$/.test(literal) && !Number.isSafeInteger(v) && !(typeof key === 'string' && /nano/i.test(key)))
    return `is an integer beyond ±9007199254740991, which cannot be stored exactly (it would become ${String(v)})`;
  return undefined;
}

/** The number literals of one JSON text (already known to parse) whose value would change when parsed. */
export function outOfRangeNumbers(text: string): OutOfRangeNumber[] {
  if (!SUSPECT.test(text)) return [];
  const found: OutOfRangeNumber[] = [];
  const path: Array<string | number> = [];
  const open: Array<'o' | 'a'> = [];
  const n = text.length;
  let i = 0;
  const ws = (): void => {
    while (i < n) {
      const c = text.charCodeAt(i);
      if (c === 32 || c === 9 || c === 10 || c === 13) i++;
      else break;
    }
  };
  const str = (): string => {
    const start = i++;
    while (i < n) {
      const c = text.charCodeAt(i);
      if (c === 92) i += 2;
      else if (c === 34) {
        i++;
        break;
      } else i++;
    }
    return JSON.parse(text.slice(start, i)) as string;
  };
  /** At a member of the innermost object: its key and the colon. */
  const key = (): void => {
    ws();
    path.push(str());
    ws();
    i++; // ':'
  };
  for (;;) {
    ws();
    if (i >= n) return found;
    const c = text[i];
    if (c === '{' || c === '[') {
      i++;
      ws();
      if (text[i] !== (c === '{' ? '}' : ']')) {
        open.push(c === '{' ? 'o' : 'a');
        if (c === '{') key();
        else path.push(0);
        continue; // the first member's value
      }
      i++; // an empty container
    } else if (c === '"') str();
    else if (c === 't' || c === 'n') i += 4;
    else if (c === 'f') i += 5;
    else {
      NUMBER.lastIndex = i;
      const m = NUMBER.exec(text);
      if (!m) return found; // not JSON after all: the parser reports it
      const why = judge(m[0], path.at(-1));
      if (why)
        found.push({
          path: formatIssuePath(path),
          literal: m[0].length > 40 ? `${m[0].slice(0, 39)}…` : m[0],
          why,
          offset: i,
          length: m[0].length,
          kind: /^-?\d+$/.test(m[0]) ? 'integer' : 'range',
        });
      i = NUMBER.lastIndex;
    }
    // After a value: close what ends here, then go on to the next member.
    for (;;) {
      if (open.length === 0) return found;
      ws();
      if (text[i] === ',') {
        i++;
        if (open.at(-1) === 'o') {
          path.pop();
          key();
        } else path.push((path.pop() as number) + 1);
        break;
      }
      if (i >= n) return found;
      i++; // '}' or ']'
      open.pop();
      path.pop();
    }
  }
}

/** The error rejecting a record with out-of-range numbers (`line`: the record's first line in the file). */
export function outOfRangeError(file: string, line: number, text: string, found: readonly OutOfRangeNumber[]): LineError {
  const first = found[0]!;
  let at = line;
  for (let k = text.indexOf('\n'); k >= 0 && k < first.offset; k = text.indexOf('\n', k + 1)) at++;
  const more = found.length > 1 ? ` (and ${found.length - 1} more such number${found.length > 2 ? 's' : ''} in this record)` : '';
  return {
    file,
    line: at,
    message: `${first.path}: the number ${first.literal} ${first.why}${more}; the record is rejected so that no value changes silently — write the number as a string ("${first.literal}") to keep it exactly, and import again`,
  };
}

/** Marks an integer read as its source text until `restoreBigIntegers` writes its digits back. */
export const BIG_INT_MARK = '\u0000int:';
const MARKED_JSON = /"\\u0000int:(-?\d+)"/g;
const MARKED = /\u0000int:(-?\d+)/g;

/**
 * The record text with each integer beyond 2^53 turned into a marked string holding its digits, ready for
 * JSON.parse; undefined when some literal is out of range altogether (that record is rejected).
 */
export function protectBigIntegers(text: string, found: readonly OutOfRangeNumber[]): string | undefined {
  if (found.some((f) => f.kind !== 'integer')) return undefined;
  let out = '';
  let at = 0;
  for (const f of [...found].sort((a, b) => a.offset - b.offset)) {
    out += text.slice(at, f.offset) + JSON.stringify(BIG_INT_MARK + text.slice(f.offset, f.offset + f.length));
    at = f.offset + f.length;
  }
  return out + text.slice(at);
}

/**
 * Parse one record's text: `{value}` (with `bigIntegers` when integers beyond 2^53 were kept as text), or
 * the error rejecting it (a number out of range altogether). `text` must already be valid JSON.
 */
export function parseRecordText(
  text: string,
  file: string,
  line: number,
): { ok: true; value: unknown; bigIntegers: boolean } | { ok: false; error: LineError } {
  const found = outOfRangeNumbers(text);
  if (found.length === 0) return { ok: true, value: JSON.parse(text) as unknown, bigIntegers: false };
  const protectedText = protectBigIntegers(text, found);
  if (protectedText === undefined)
    return {
      ok: false,
      error: outOfRangeError(
        file,
        line,
        text,
        found.filter((f) => f.kind === 'range'),
      ),
    };
  return { ok: true, value: JSON.parse(protectedText) as unknown, bigIntegers: true };
}

/** A string with every marked integer back to its digits (inside JSON text: the bare number, as written). */
export function restoreText(s: string): string {
  if (!s.includes('int:')) return s;
  return s.replace(MARKED_JSON, '$1').replace(MARKED, '$1');
}

/**
 * The trace with every marked integer written back as its source digits; or the path of the first one in
 * a call's arguments or a tool's schema, where a number turned into text would change the call or the
 * menu the user relies on (that record is rejected, naming the field).
 */
export function restoreBigIntegers<T>(trace: T): { ok: true; value: T } | { ok: false; path: string; literal: string } {
  let problem: { path: string; literal: string } | undefined;
  const walk = (v: unknown, path: Array<string | number>, strict: boolean): unknown => {
    if (problem) return v;
    if (typeof v === 'string') {
      if (!v.includes('int:')) return v;
      const restored = restoreText(v);
      if (strict && restored !== v) {
        problem = { path: formatIssuePath(path), literal: (/\u0000int:(-?\d+)/.exec(v) ?? /int:(-?\d+)/.exec(v))?.[1] ?? '?' };
        return v;
      }
      return restored;
    }
    if (Array.isArray(v)) return v.map((x, i) => walk(x, [...path, i], strict));
    if (typeof v === 'object' && v !== null) {
      const out: Record<string, unknown> = {};
      for (const [k, x] of Object.entries(v)) {
        const inCall = path.length >= 4 && path.at(-2) === 'calls' && k === 'arguments';
        const inSchema = path.length === 2 && path[0] === 'tools' && k === 'parameters';
        out[k] = walk(x, [...path, k], strict || inCall || inSchema);
      }
      return out;
    }
    return v;
  };
  const value = walk(trace, [], false) as T;
  return problem ? { ok: false, ...problem } : { ok: true, value };
}
