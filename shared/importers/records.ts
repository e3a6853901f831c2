// From text to records: JSON Lines, or one JSON document whose top-level elements are the records.
import type { LineError } from '../trace/validate';
import { layoutDocument, type DocumentLayout } from './document';
import { parseRecordText } from './number-range';
import type { SourceRecord } from './types';
import { isObj } from './values';

export function jsonError(file: string, line: number, e: unknown): LineError {
  const reason = e instanceof Error ? e.message : String(e);
  return { file, line, message: `not valid JSON (${reason}); each line must be one complete JSON record` };
}

/**
 * JSON Lines unless the file is one JSON document: a single non-empty line, or a first line that is not
 * JSON on its own (a pretty-printed document) — and the whole text then really is one balanced value.
 */
export function documentLayoutOf(text: string, firstLine: string, nonEmptyLines: number): DocumentLayout | null {
  if (nonEmptyLines === 0) return null;
  if (nonEmptyLines > 1) {
    try {
      JSON.parse(firstLine);
      return null;
    } catch {
      // fall through: maybe pretty-printed
    }
  }
  return layoutDocument(text);
}

/**
 * The records of one JSON document: elements of a top-level array, values of an object keyed by
 * numbers (GTA's `{"0": {…}}`), otherwise the document itself. An array of chat messages is one
 * conversation, not many records. `badLines` (invalid UTF-8) reject the parts that touch them; `firstLine`
 * is the file line the text starts on.
 */
export function documentRecords(
  text: string,
  layout: DocumentLayout,
  file: string,
  badLines?: ReadonlySet<number>,
  firstLine = 1,
): { records: SourceRecord[]; errors: LineError[] } {
  const shift = firstLine - 1;
  const records: SourceRecord[] = [];
  const errors: LineError[] = [];
  const parts = layout.parts;
  const sortedBad = badLines && badLines.size > 0 ? [...badLines].sort((a, b) => a - b) : undefined;
  const keyed = layout.kind === 'object' && parts.length > 0 && parts.every((p) => p.key !== undefined && /^\d+$/.test(p.key) && text[p.start] === '{');
  const elements = layout.kind === 'array' && !(parts.length > 0 && isMessage(parsePart(text, parts[0]!)));
  if (!keyed && !elements) {
    const line = firstLine;
    if (sortedBad) return { records, errors: [utf8Error(file, sortedBad[0]!)] };
    try {
      JSON.parse(text);
      const parsed = parseRecordText(text, file, line);
      if (!parsed.ok) errors.push(parsed.error);
      else records.push({ value: parsed.value, line, size: text.length, ...(parsed.bigIntegers ? { bigIntegers: true } : {}) });
    } catch (e) {
      errors.push(jsonError(file, line, e));
    }
    return { records, errors };
  }
  for (const p of parts) {
    const slice = text.slice(p.start, p.end);
    if (sortedBad) {
      const last = p.line + countNewlines(slice);
      // Invalid bytes decode to U+FFFD: a part on a bad line is rejected only if it holds one.
      const bad = firstAtLeast(sortedBad, p.line);
      if (bad !== undefined && bad <= last && slice.includes('\uFFFD')) {
        errors.push(utf8Error(file, bad, sortedBad[0]));
        continue;
      }
    }
    try {
      JSON.parse(slice);
      // A number the parse changed (1e309 → null, 1e-400 → 0): rejected; a big integer: kept as text (number-range.ts).
      const parsed = parseRecordText(slice, file, p.line + shift);
      if (!parsed.ok) {
        errors.push(parsed.error);
        continue;
      }
      const record: SourceRecord = { value: parsed.value, line: p.line + shift, size: slice.length };
      if (parsed.bigIntegers) record.bigIntegers = true;
      if (keyed) record.key = p.key;
      records.push(record);
    } catch (e) {
      errors.push(jsonError(file, p.line + shift, e));
    }
  }
  return { records, errors };
}

/**
 * A line that is not UTF-8. The hint is given once per file, on its first such line (`firstBad`, default
 * this one); later lines point back to it. UTF-16 never gets here: the reader decodes it.
 */
export function utf8Error(file: string, line: number, firstBad = line): LineError {
  if (firstBad !== line) return { file, line, message: `the line is not valid UTF-8 (like line ${firstBad}: the file is in another encoding)` };
  return {
    file,
    line,
    message:
      'the line is not valid UTF-8: the file is in another encoding. Convert it to UTF-8 naming the encoding it was written in (e.g. `iconv -f WINDOWS-1252 -t UTF-8 in.jsonl > out.jsonl`) and import it again',
  };
}

function parsePart(text: string, p: { start: number; end: number }): unknown {
  try {
    return JSON.parse(text.slice(p.start, p.end));
  } catch {
    return undefined;
  }
}

function isMessage(v: unknown): boolean {
  return isObj(v) && (typeof v.role === 'string' || typeof v.from === 'string') && !Array.isArray(v.messages) && !Array.isArray(v.conversations);
}

function countNewlines(s: string): number {
  let n = 0;
  for (let i = s.indexOf('\n'); i >= 0; i = s.indexOf('\n', i + 1)) n++;
  return n;
}

function firstAtLeast(sorted: number[], x: number): number | undefined {
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (sorted[mid]! < x) lo = mid + 1;
    else hi = mid;
  }
  return sorted[lo];
}
