// Reading the project's JSONL files (traces, scores, activity) line by line, in chunks of a fixed size:
// memory holds one chunk plus the line being read, whatever the size of the file (a traces file can be
// far longer than the longest string V8 can make). Lines end with LF; a CR before it is dropped. Bytes
// after the last LF are a torn last line (a write cut short): reported, never read as a record, and not
// counted in the returned offset, so a later read picks the line up once it is complete.
import { closeSync, fstatSync, openSync, readSync } from 'node:fs';
import { ExpectedError, isFsError } from '../../../shared/api/errors';

export interface JsonlScanOptions {
  /** Bytes read at a time (tests make it tiny so lines span chunks). */
  chunkBytes?: number;
  /** Number of the first line read (for messages of an incremental read). */
  firstLine?: number;
  /** A line longer than this is skipped with a warning instead of read (it could not become one string). */
  maxLineBytes?: number;
}

export interface JsonlLine {
  /** The line's text, without its line break. */
  text: string;
  /** 1-based line number. */
  line: number;
  /** Byte offset of the line's first byte in the file. */
  start: number;
  /** Length in bytes of the line, without its line break. */
  bytes: number;
}

export interface JsonlScanResult {
  /** Offset just after the last complete line (where the next incremental read starts). */
  offset: number;
  /** Complete lines read (empty ones included). */
  lines: number;
  /** Problems found, as `line N: reason`. */
  warnings: string[];
}

const DEFAULT_CHUNK_BYTES = 1 << 20;
/** Well under V8's longest string (~512 MB of one-byte text, less for text that needs two bytes a char). */
const DEFAULT_MAX_LINE_BYTES = 128 << 20;

/**
 * Calls `onLine` for every complete line from `offset` on (empty lines too: the caller skips them); a
 * string it returns is a warning about that line. A missing file reads as empty.
 */
export function scanJsonl(path: string, offset: number, onLine: (line: JsonlLine) => string | void, options: JsonlScanOptions = {}): JsonlScanResult {
  const chunkBytes = Math.max(1, options.chunkBytes ?? DEFAULT_CHUNK_BYTES);
  const maxLineBytes = options.maxLineBytes ?? DEFAULT_MAX_LINE_BYTES;
  const warnings: string[] = [];
  let fd: number;
  try {
    fd = openSync(path, 'r');
  } catch (e) {
    if (isFsError(e, 'ENOENT')) return { offset: 0, lines: 0, warnings };
    throw e;
  }
  try {
    const size = fstatSync(fd).size;
    if (size <= offset) return { offset: Math.min(offset, size), lines: 0, warnings };
    const chunk = Buffer.allocUnsafe(Math.min(chunkBytes, size - offset));
    let pos = offset; // file offset of chunk[0]
    let lineStart = offset; // file offset of the line being read
    let pieces: Buffer[] = [];
    let pending = 0; // bytes of the line being read held in `pieces` (or skipped, when too long)
    let tooLong = false;
    let line = options.firstLine ?? 1;
    let lines = 0;
    const emit = (tail: Buffer, end: number): void => {
      const length = pending + tail.length;
      if (tooLong || length > maxLineBytes) {
        warnings.push(`line ${line}: longer than ${maxLineBytes} bytes (${length}); skipped`);
      } else {
        let bytes = pieces.length ? Buffer.concat([...pieces, tail], length) : tail;
        if (bytes.length > 0 && bytes[bytes.length - 1] === 13) bytes = bytes.subarray(0, bytes.length - 1);
        const warning = onLine({ text: bytes.toString('utf8'), line, start: lineStart, bytes: bytes.length });
        if (typeof warning === 'string') warnings.push(warning);
      }
      pieces = [];
      pending = 0;
      tooLong = false;
      line++;
      lines++;
      lineStart = end + 1;
    };
    while (pos < size) {
      const n = readSync(fd, chunk, 0, Math.min(chunk.length, size - pos), pos);
      if (n <= 0) break; // the file shrank under us: what is left is read next time
      let start = 0;
      for (let nl = chunk.indexOf(10, start); nl !== -1 && nl < n; nl = chunk.indexOf(10, start)) {
        emit(chunk.subarray(start, nl), pos + nl);
        start = nl + 1;
      }
      if (start < n) {
        pending += n - start;
        if (tooLong || pending > maxLineBytes) {
          tooLong = true;
          pieces = [];
        } else pieces.push(Buffer.from(chunk.subarray(start, n)));
      }
      pos += n;
    }
    if (pending > 0) warnings.push(`line ${line}: incomplete last line (an interrupted write); ignored`);
    return { offset: lineStart, lines, warnings };
  } finally {
    closeSync(fd);
  }
}

export interface JsonlReadResult<T> {
  records: T[];
  /** Problems found, as `line N: reason` (a torn last line is reported here and skipped). */
  warnings: string[];
  /** Bytes read up to the end of the last complete line (for incremental re-reads). */
  offset: number;
  /** Complete lines read. */
  lines: number;
}

/**
 * Parse every complete line from `offset` on with `parse` (a string is the reason a record is
 * rejected); records are passed to `onRecord` as they are read and not kept.
 */
export function scanJsonlRecords<T>(
  path: string,
  offset: number,
  parse: (value: unknown) => T | string,
  onRecord: (record: T, line: JsonlLine) => void,
  options: JsonlScanOptions = {},
): JsonlScanResult {
  return scanJsonl(
    path,
    offset,
    (line) => {
      if (!line.text.trim()) return;
      let value: unknown;
      try {
        value = JSON.parse(line.text);
      } catch {
        return `line ${line.line}: not valid JSON; record skipped`;
      }
      const r = parse(value);
      if (typeof r === 'string') return `line ${line.line}: ${r}; record skipped`;
      onRecord(r, line);
    },
    options,
  );
}

/** Like scanJsonlRecords, keeping the records (for files whose records are all wanted in memory). */
export function readJsonlFrom<T>(
  path: string,
  offset: number,
  parse: (value: unknown) => T | string,
  firstLine = 1,
  options: Omit<JsonlScanOptions, 'firstLine'> = {},
): JsonlReadResult<T> {
  const records: T[] = [];
  const result = scanJsonlRecords(path, offset, parse, (r) => records.push(r), { ...options, firstLine });
  return { records, ...result };
}

/** One line of a file by its byte range (as scanJsonl reported it). */
export function readLineAt(fd: number, start: number, bytes: number): string {
  const buf = Buffer.allocUnsafe(bytes);
  for (let off = 0; off < bytes;) {
    const n = readSync(fd, buf, off, bytes - off, start + off);
    if (n <= 0) throw new ExpectedError('EIO', `the file ended at byte ${start + off}, inside a line that should end at ${start + bytes}`);
    off += n;
  }
  return buf.toString('utf8');
}
