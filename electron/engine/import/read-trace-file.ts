// Stream one trace file into native traces. JSON Lines are read line by line (memory holds a chunk, the
// current line and, for span formats, the open span groups); a file that is one JSON document (an array,
// a keyed object, an OTLP export) is read whole up to a size limit. Every rejected record comes out as
// an error event with its line; the last event is a summary.
import { isUtf8 } from 'node:buffer';
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdtemp, open, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { createGunzip } from 'node:zlib';
import { layoutDocument } from '../../../shared/importers/document';
import { documentRecords, jsonError, utf8Error } from '../../../shared/importers/records';
import { parseRecordText } from '../../../shared/importers/number-range';
import { ImportSession, type ImportEvent, type ImportStats } from '../../../shared/importers/session';
import type { BfclJoin, FormatId } from '../../../shared/importers/types';
import type { Trace } from '../../../shared/trace/schema';
import type { LineError } from '../../../shared/trace/validate';
import { checkStats } from './regular-file';
import { detectUtf16, normaliseFileBytes, readLines, type RawLine, type Utf16Encoding } from './line-reader';

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
  /** The path importers read hints from (BFCL's result/<model>/…), when `path` is a decompressed copy. */
  sourcePath?: string;
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
  /** Records read into another record's trace (a Responses chain's earlier responses, a background response's later retrievals). */
  foldedRecords?: number;
  elapsedMs: number;
  /** Why nothing (more) could be imported, when that happened. */
  fatal?: string;
  /** Set when the file was UTF-16 (decoded; everything else is read as UTF-8). */
  encoding?: Utf16Encoding;
  /** Without --task-field: the field the first records seem to keep a task label in. */
  taskFieldGuess?: string;
  /** Set when the file was gzip-compressed (read decompressed; `bytes` counts the decompressed text). */
  compressed?: 'gzip';
}

export type ReadEvent =
  | { kind: 'format'; format: FormatId; reason: string; detected: boolean }
  | { kind: 'trace'; trace: Trace; line: number }
  | { kind: 'error'; error: LineError }
  | { kind: 'summary'; summary: ReadSummary };

/**
 * What the first bytes say the file is, before any line is read: gzip (read through zlib), another archive
 * or compressed format (refused in one message: decompress it first), binary data (one message, not one per
 * "line"), or text.
 */
export function containerOf(head: Buffer): { kind: 'gzip' } | { kind: 'refuse'; what: string; how: string } | { kind: 'text' } {
  if (head.length >= 2 && head[0] === 0x1f && head[1] === 0x8b) return { kind: 'gzip' };
  const starts = (...b: number[]): boolean => b.every((x, i) => head[i] === x);
  if (starts(0x50, 0x4b, 0x03, 0x04)) return { kind: 'refuse', what: 'a zip archive', how: 'unzip it and import the trace file inside' };
  if (starts(0x28, 0xb5, 0x2f, 0xfd)) return { kind: 'refuse', what: 'zstd-compressed', how: 'decompress it first (`zstd -d file.zst`)' };
  if (starts(0x42, 0x5a, 0x68)) return { kind: 'refuse', what: 'bzip2-compressed', how: 'decompress it first (`bunzip2 file.bz2`)' };
  if (starts(0xfd, 0x37, 0x7a, 0x58, 0x5a, 0x00)) return { kind: 'refuse', what: 'xz-compressed', how: 'decompress it first (`unxz file.xz`)' };
  if (detectUtf16(head)) return { kind: 'text' };
  // Text holds few control bytes besides tab, line breaks and form feed; random or binary data about one
  // in nine. (A text file with a stray NUL in one line is text: that line alone is rejected.)
  let control = 0;
  for (const b of head) if (b < 32 && b !== 9 && b !== 10 && b !== 13 && b !== 12) control++;
  if (head.length >= 64 && control > head.length * 0.05)
    return { kind: 'refuse', what: 'binary data, not text', how: 'a trace file is JSON text (JSON Lines or one JSON document); give the trace file itself' };
  return { kind: 'text' };
}

/** The summary of a file that yielded nothing (before any record was read, or refused with `fatal`). */
export function emptySummary(file: string, bytes: number, fatal?: string): ReadSummary {
  return {
    file,
    mode: 'empty',
    bytes,
    records: 0,
    traces: 0,
    rejected: 0,
    pairing: { id: 0, position: 0, 'name-order': 0 },
    tasks: {},
    unansweredTurns: 0,
    callTargetTurns: 0,
    elapsedMs: 0,
    ...(fatal !== undefined ? { fatal } : {}),
  };
}

async function readHead(path: string, n: number): Promise<Buffer> {
  const fh = await open(path, 'r');
  try {
    const buf = Buffer.alloc(n);
    const { bytesRead } = await fh.read(buf, 0, n, 0);
    return buf.subarray(0, bytesRead);
  } finally {
    await fh.close();
  }
}

export async function* readTraceFile(path: string, options: ReadOptions = {}): AsyncGenerator<ReadEvent> {
  const file = options.displayName ?? path;
  const stats = await stat(path);
  checkStats(stats, file);
  const container = containerOf(await readHead(path, 8192));
  if (container.kind === 'refuse') {
    yield { kind: 'summary', summary: emptySummary(file, stats.size, `${file}: the file is ${container.what}; ${container.how}`) };
    return;
  }
  if (container.kind === 'text') {
    yield* readPlainTraceFile(path, options);
    return;
  }
  // gzip: decompressed (streaming) into a private temp folder, read as any file, removed afterwards.
  const dir = await mkdtemp(join(tmpdir(), 'lots-gunzip-'));
  try {
    const inner = join(dir, basename(path).replace(/\.gz$/i, '') || 'trace');
    try {
      await pipeline(
        createReadStream(path),
        createGunzip(),
        createWriteStream(inner, { flags: 'wx' }),
        ...(options.signal ? [{ signal: options.signal }] : []),
      );
    } catch (e) {
      options.signal?.throwIfAborted();
      yield {
        kind: 'summary',
        summary: emptySummary(
          file,
          stats.size,
          `${file}: the file is gzip-compressed but does not decompress (${e instanceof Error ? e.message : String(e)}); check the download, or decompress it yourself (\`gunzip -t\` tells what is wrong)`,
        ),
      };
      return;
    }
    for await (const e of readPlainTraceFile(inner, { ...options, displayName: file, sourcePath: options.sourcePath ?? path })) {
      if (e.kind === 'summary') yield { kind: 'summary', summary: { ...e.summary, compressed: 'gzip' } };
      else yield e;
    }
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

async function* readPlainTraceFile(path: string, options: ReadOptions = {}): AsyncGenerator<ReadEvent> {
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
    sourcePath: options.sourcePath ?? path,
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
      ...(s.foldedRecords ? { foldedRecords: s.foldedRecords } : {}),
      ...(s.taskFieldGuess ? { taskFieldGuess: s.taskFieldGuess } : {}),
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
