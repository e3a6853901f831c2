// Stream one trace file into native traces. JSON Lines are read line by line (memory holds a chunk, the
// current line and, for span formats, the open span groups); a file that is one JSON document (an array,
// a keyed object, an OTLP export) is read whole up to a size limit. Every rejected record comes out as
// an error event with its line; the last event is a summary.
import { isUtf8 } from 'node:buffer';
import { readFile, stat } from 'node:fs/promises';
import { layoutDocument } from '../../../shared/importers/document';
import { documentRecords, jsonError, utf8Error } from '../../../shared/importers/records';
import { parseRecordText } from '../../../shared/importers/number-range';
import { ImportSession, type ImportEvent, type ImportStats } from '../../../shared/importers/session';
import type { BfclJoin, FormatId } from '../../../shared/importers/types';
import type { Trace } from '../../../shared/trace/schema';
import type { LineError } from '../../../shared/trace/validate';
import { checkStats } from './regular-file';
import { normaliseFileBytes, readLines, type RawLine, type Utf16Encoding } from './line-reader';

export const DEFAULT_MAX_LINE_BYTES = 64 * 1024 * 1024;
export const DEFAULT_MAX_DOCUMENT_BYTES = 128 * 1024 * 1024;

export interface ReadProgress {
  bytesRead: number;
  totalBytes: number;
  records: number;
  traces: number;
  rejected: number;
  elapsedMs: number;
}

export interface ReadOptions {
  format?: FormatId | 'auto';
  taskField?: string;
  bfcl?: BfclJoin;
  /** The name errors are reported under (default: the path as given). */
  displayName?: string;
  onProgress?: (p: ReadProgress) => void;
  signal?: AbortSignal;
  maxLineBytes?: number;
  maxDocumentBytes?: number;
  spanBudgetBytes?: number;
}

export interface ReadSummary {
  file: string;
  format?: FormatId;
  reason?: string;
  mode: 'jsonl' | 'document' | 'empty';
  bytes: number;
  records: number;
  traces: number;
  rejected: number;
  pairing: ImportStats['pairing'];
  /** Traces per task label, most frequent first; '' counts traces left without a label. */
  tasks: Record<string, number>;
  unansweredTurns: number;
  callTargetTurns: number;
  /** Calls whose tool name carries a chat-template token (flagged; kept off inferred menus). */
  malformedToolCalls?: number;
  elapsedMs: number;
  /** Why nothing (more) could be imported, when that happened. */
  fatal?: string;
  /** Set when the file was UTF-16 (decoded; everything else is read as UTF-8). */
  encoding?: Utf16Encoding;
}

export type ReadEvent =
  | { kind: 'format'; format: FormatId; reason: string; detected: boolean }
  | { kind: 'trace'; trace: Trace; line: number }
  | { kind: 'error'; error: LineError }
  | { kind: 'summary'; summary: ReadSummary };

export async function* readTraceFile(path: string, options: ReadOptions = {}): AsyncGenerator<ReadEvent> {
  const file = options.displayName ?? path;
  const started = Date.now();
  const stats = await stat(path);
  checkStats(stats, file);
  options.signal?.throwIfAborted();
  const total = stats.size;
  const maxDoc = options.maxDocumentBytes ?? DEFAULT_MAX_DOCUMENT_BYTES;
  const session = new ImportSession({
    file,
    format: options.format,
    taskField: options.taskField,
    bfcl: options.bfcl,
    sourcePath: path,
    spanBudgetBytes: options.spanBudgetBytes,
  });
  let bytesRead = 0;
  let lastProgress = 0;
  let mode: ReadSummary['mode'] = 'empty';
  let fatal: string | undefined;
  let format: { format: FormatId; reason: string } | undefined;
  const progress = (force = false): void => {
    if (!options.onProgress) return;
    const now = Date.now();
    if (!force && now - lastProgress < 100) return;
    lastProgress = now;
    const s = session.stats;
    options.onProgress({
      bytesRead: Math.min(bytesRead, total),
      totalBytes: total,
      records: s.records,
      traces: s.traces,
      rejected: s.rejected,
      elapsedMs: now - started,
    });
  };
  function* emit(events: ImportEvent[]): Generator<ReadEvent> {
    for (const e of events) {
      if (e.kind === 'fatal') fatal = e.message;
      else {
        if (e.kind === 'format') format = { format: e.format, reason: e.reason };
        yield e;
      }
    }
  }

  yield* emit(session.start());
  let encoding: Utf16Encoding | undefined;
  // The first line that is not UTF-8 gets the hint; the others point back to it (one hint per file).
  const utf8 = { first: undefined as number | undefined };
  const lines = readLines(path, {
    maxLineBytes: options.maxLineBytes ?? DEFAULT_MAX_LINE_BYTES,
    signal: options.signal,
    onBytes: (n) => ((bytesRead += n), progress()),
    onEncoding: (e) => (encoding = e),
  });
  try {
    // The first two non-empty lines tell JSON Lines from one JSON document.
    const head: RawLine[] = [];
    // (next(), not for-await: breaking out of for-await would close the generator.)
    let contentLines = 0;
    while (contentLines < 2) {
      const next = await lines.next();
      if (next.done) break;
      head.push(next.value);
      if (isContent(next.value)) contentLines++;
    }
    const content = head.filter(isContent);
    const first = content[0];
    const firstText = first?.bytes && isUtf8(first.bytes) ? first.bytes.toString('utf8') : undefined;
    const firstParses = firstText !== undefined && parses(firstText);
    let documentText: string | undefined;
    let documentLine = 1;
    let bad: Set<number> | undefined;
    if (first && content.length === 1 && firstParses) {
      documentText = firstText;
      documentLine = first.line;
    } else if (first && !firstParses && total <= maxDoc) {
      // Maybe a pretty-printed document: read it whole (within the limit) and see if it is one value.
      const { bytes: buffer } = normaliseFileBytes(await readFile(path, options.signal ? { signal: options.signal } : {}));
      bad = isUtf8(buffer) ? undefined : badUtf8Lines(buffer);
      const text = buffer.toString('utf8');
      documentText = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
    }
    const layout = documentText !== undefined ? layoutDocument(documentText) : null;
    if (first && documentText !== undefined && (layout || content.length === 1)) {
      mode = 'document';
      bytesRead = total;
      if (layout) {
        const { records, errors } = documentRecords(documentText, layout, file, bad, documentLine);
        for (const error of errors) yield* emit(session.reject(error));
        for (const r of records) {
          options.signal?.throwIfAborted();
          yield* emit(session.push(r));
          progress();
        }
      } else if (firstParses) yield* emit(session.push({ value: JSON.parse(documentText), line: first.line, size: documentText.length }));
      else yield* emit(session.reject(bad?.size ? utf8Error(file, first.line) : documentParseError(file, first.line, documentText)));
    } else if (first && !firstParses && total > maxDoc && !(content[1]?.bytes && parses(content[1].bytes.toString('utf8')))) {
      fatal = `${file}:${first.line}: this looks like one JSON document (its first lines are not complete JSON records) of ${(total / 1048576).toFixed(0)} MB, above the ${(maxDoc / 1048576).toFixed(0)} MB limit for whole documents; convert it to JSON Lines (one record per line), e.g. \`jq -c '.[]' file.json > file.jsonl\``;
    } else if (first) {
      mode = 'jsonl';
      documentText = undefined;
      for (const l of head) yield* emit(readLine(l, session, file, utf8));
      for await (const l of lines) {
        if (session.failed) break;
        yield* emit(readLine(l, session, file, utf8));
      }
    }
    yield* emit(session.finish());
  } finally {
    await lines.return(undefined);
  }
  progress(true);
  const s = session.stats;
  if (!fatal && s.records === 0) fatal = `${file}: the file holds no records`;
  yield {
    kind: 'summary',
    summary: {
      file,
      format: format?.format ?? session.format,
      reason: format?.reason,
      mode,
      bytes: total,
      records: s.records,
      traces: s.traces,
      rejected: s.rejected,
      pairing: { ...s.pairing },
      tasks: Object.fromEntries([...s.tasks.entries()].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))),
      unansweredTurns: s.unansweredTurns,
      callTargetTurns: s.callTargetTurns,
      malformedToolCalls: s.malformedToolCalls,
      elapsedMs: Date.now() - started,
      fatal,
      ...(encoding ? { encoding } : {}),
    },
  };
}

function isContent(l: RawLine): boolean {
  if (l.tooLong !== undefined) return true;
  const b = l.bytes!;
  for (let i = 0; i < b.length; i++) {
    const c = b[i]!;
    if (c !== 32 && c !== 9 && c !== 13) return true;
  }
  return false;
}

function parses(text: string): boolean {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}

function documentParseError(file: string, line: number, text: string): LineError {
  try {
    JSON.parse(text);
    return { file, line, message: 'not a JSON record' };
  } catch (e) {
    return jsonError(file, line, e);
  }
}

/** One JSONL line → session events. */
function readLine(l: RawLine, session: ImportSession, file: string, utf8: { first?: number }): ImportEvent[] {
  if (l.tooLong !== undefined) {
    return session.reject({
      file,
      line: l.line,
      message: `the line is ${(l.tooLong / 1048576).toFixed(1)} MB long, above the limit for one record; split the record or raise the limit`,
    });
  }
  if (!isContent(l)) return [];
  const bytes = l.bytes!;
  if (!isUtf8(bytes)) {
    utf8.first ??= l.line;
    return session.reject(utf8Error(file, l.line, utf8.first));
  }
  const text = bytes.toString('utf8');
  try {
    JSON.parse(text);
  } catch (e) {
    return session.reject(jsonError(file, l.line, e));
  }
  // A number the parse changed (1e309 → null, 1e-400 → 0): rejected; a big integer: kept as text (number-range.ts).
  const parsed = parseRecordText(text, file, l.line);
  if (!parsed.ok) return session.reject(parsed.error);
  return session.push({ value: parsed.value, line: l.line, size: bytes.length, ...(parsed.bigIntegers ? { bigIntegers: true } : {}) });
}

/** Line numbers holding bytes that are not UTF-8 (only computed when the file as a whole is not). */
function badUtf8Lines(buffer: Buffer): Set<number> {
  const bad = new Set<number>();
  let start = 0;
  let line = 1;
  while (start <= buffer.length) {
    let nl = buffer.indexOf(10, start);
    if (nl < 0) nl = buffer.length;
    if (!isUtf8(buffer.subarray(start, nl))) bad.add(line);
    start = nl + 1;
    line++;
  }
  return bad;
}
