// Number literals a JSON parser cannot keep: `1e309` becomes Infinity (stored as null), `1e-400` becomes
// 0, and an integer beyond ±(2^53 − 1) is rounded (12345678901234567891 → 12345678901234567000).
//
// The rule: a record holding such a literal is REJECTED, reported `file:line: path: …` (the line of the
// literal), and nothing of it is stored. Keeping it would store a value other than the one in the file
// (null, 0, another integer) — a silent change — and storing the literal as a string would change its
// type just as silently. The message says how to keep the value exactly: quote it in the source.
// One exception: an integer under a key naming nanoseconds (OTLP's `startTimeUnixNano`, `time_unix_nano`)
// is a timestamp that span importers read as a number anyway (to about 100 ns, far finer than any
// span): rounding it changes nothing stored, so it is not reported.
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
      if (why) found.push({ path: formatIssuePath(path), literal: m[0].length > 40 ? `${m[0].slice(0, 39)}…` : m[0], why, offset: i });
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
