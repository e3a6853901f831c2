// Atomic file writes (temp + fsync + rename) and append-only JSONL files that tolerate a torn last line.
import { closeSync, existsSync, fstatSync, fsyncSync, ftruncateSync, mkdirSync, openSync, readFileSync, readSync, renameSync, statSync, writeSync } from 'node:fs';
import { dirname } from 'node:path';

export function writeFileAtomic(path: string, data: string): void {
  mkdirSync(dirname(path), { recursive: true });
  const tmp = `${path}.${process.pid}.${Date.now().toString(36)}.tmp`;
  const fd = openSync(tmp, 'w');
  try {
    writeSync(fd, data);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  renameSync(tmp, path);
}

export function writeJsonAtomic(path: string, value: unknown): void {
  writeFileAtomic(path, JSON.stringify(value, null, 2) + '\n');
}

export function readJsonIfExists(path: string): unknown | undefined {
  if (!existsSync(path)) return undefined;
  return JSON.parse(readFileSync(path, 'utf8'));
}

/**
 * Append complete lines to an append-only JSONL file. A torn last line (a crash mid-write left bytes
 * after the final newline) is cut off first, so the file stays a sequence of whole records.
 * Returns the number of bytes of a torn tail that was removed (0 when none).
 */
export function appendLines(path: string, lines: readonly string[]): number {
  mkdirSync(dirname(path), { recursive: true });
  const fd = openSync(path, 'a+');
  try {
    const torn = tornTailLength(fd);
    if (torn > 0) ftruncateSync(fd, fstatSize(fd) - torn);
    if (lines.length > 0) {
      writeSync(fd, lines.map((l) => l + '\n').join(''));
      fsyncSync(fd);
    }
    return torn;
  } finally {
    closeSync(fd);
  }
}

/** Bytes after the last newline (0 when the file is empty or ends with a newline). */
function tornTailLength(fd: number): number {
  let end = fstatSize(fd);
  if (end === 0) return 0;
  const chunk = Buffer.alloc(64 * 1024);
  let tail = 0;
  while (end > 0) {
    const len = Math.min(chunk.length, end);
    readSync(fd, chunk, 0, len, end - len);
    const nl = chunk.subarray(0, len).lastIndexOf(0x0a);
    if (nl !== -1) return tail + (len - nl - 1);
    tail += len;
    end -= len;
  }
  return tail;
}

function fstatSize(fd: number): number {
  return fstatSync(fd).size;
}

export interface JsonlReadResult<T> {
  records: T[];
  /** Problems found, as `line N: reason` (a torn last line is reported here and skipped). */
  warnings: string[];
  /** Bytes read up to the end of the last complete line (for incremental re-reads). */
  offset: number;
}

/** Read complete lines from `offset` on; a torn final line is ignored with a warning. */
export function readJsonlFrom<T>(path: string, offset: number, parse: (value: unknown) => T | string, firstLine = 1): JsonlReadResult<T> & { lines: number } {
  if (!existsSync(path)) return { records: [], warnings: [], offset: 0, lines: 0 };
  const size = statSync(path).size;
  if (size <= offset) return { records: [], warnings: [], offset, lines: 0 };
  const fd = openSync(path, 'r');
  let buf: Buffer;
  try {
    buf = Buffer.alloc(size - offset);
    readSync(fd, buf, 0, buf.length, offset);
  } finally {
    closeSync(fd);
  }
  const records: T[] = [];
  const warnings: string[] = [];
  const lastNl = buf.lastIndexOf(0x0a);
  const complete = lastNl === -1 ? '' : buf.subarray(0, lastNl).toString('utf8');
  let lineNo = firstLine;
  let count = 0;
  if (complete.length > 0 || lastNl === 0) {
    for (const text of complete.split('\n')) {
      count++;
      const n = lineNo++;
      if (!text.trim()) continue;
      let value: unknown;
      try {
        value = JSON.parse(text);
      } catch {
        warnings.push(`line ${n}: not valid JSON; record skipped`);
        continue;
      }
      const r = parse(value);
      if (typeof r === 'string') warnings.push(`line ${n}: ${r}; record skipped`);
      else records.push(r);
    }
  }
  if (lastNl !== buf.length - 1) {
    warnings.push(`line ${lineNo}: incomplete last line (an interrupted write); ignored`);
  }
  return { records, warnings, offset: offset + lastNl + 1, lines: count };
}
