// Atomic file writes (temp + fsync + rename) and appends of whole lines to JSONL files (a torn last line
// is cut first). Reading them: jsonl.ts.
import { randomBytes } from 'node:crypto';
import {
  closeSync,
  existsSync,
  fstatSync,
  fsyncSync,
  ftruncateSync,
  mkdirSync,
  openSync,
  readFileSync,
  readSync,
  renameSync,
  rmSync,
  writeSync,
} from 'node:fs';
import { dirname } from 'node:path';
import { ExpectedError, isFsError } from '../../../shared/api/errors';

/**
 * Write all of `data` at the file's current position: `writeSync` may write less than it was given (a
 * full disk, a signal, a network file system), so it is called until everything is written. Throws
 * (the caller commits nothing) when a write fails or writes nothing.
 */
export function writeAll(fd: number, data: string | Uint8Array): void {
  const buf = typeof data === 'string' ? Buffer.from(data, 'utf8') : data;
  for (let off = 0; off < buf.length;) {
    const n = writeSync(fd, buf, off, buf.length - off);
    if (!(n > 0)) throw new ExpectedError('EIO', `short write: ${off} of ${buf.length} bytes written, then none`);
    off += n;
  }
}

const namedWriteErrors = new WeakSet<Error>();

/**
 * A failed write (an fs error, a short write: EIO) as an expected error that keeps its fs code, names the file
 * and says nothing was committed. Anything else is a bug and is returned as it is (its stack kept).
 */
export function writeError(path: string, e: unknown): Error {
  if (!(e instanceof Error) || namedWriteErrors.has(e)) return e as Error; // said already, naming its file
  if (!isFsError(e)) return e;
  const code = e.code;
  const why =
    code === 'ENOSPC'
      ? 'no space left on the device'
      : code === 'EDQUOT'
        ? 'disk quota exceeded'
        : code === 'EROFS'
          ? 'the file system is read-only'
          : e.message;
  const error = new ExpectedError(code, `cannot write ${path}: ${why} (${code}); nothing of this write was kept`, { cause: e });
  namedWriteErrors.add(error);
  return error;
}

/** fsync a folder, so a rename into it survives a power cut (not every platform can: then skipped). */
export function fsyncDir(dir: string): void {
  let fd: number | undefined;
  try {
    fd = openSync(dir, 'r');
    fsyncSync(fd);
  } catch {
    /* Windows and some file systems cannot fsync a folder */
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

/**
 * A temp file name no other write can be using: the pid (so a dead writer's leftovers are recognised and
 * removed at open) and random bytes (two writes of one process, in the same millisecond, never share one).
 */
export function uniqueTempName(path: string): string {
  return `${path}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`;
}

/**
 * Write a whole file or nothing: to a temp file (all bytes, fsynced), then renamed over `path`. `data` is
 * the file's text, or its pieces (written in batches, so a large file never becomes one string).
 */
export function writeFileAtomic(path: string, data: string | Iterable<string>): void {
  mkdirSync(dirname(path), { recursive: true });
  const tmp = uniqueTempName(path);
  try {
    const fd = openSync(tmp, 'w');
    try {
      if (typeof data === 'string') writeAll(fd, data);
      else {
        let batch: string[] = [];
        let size = 0;
        for (const piece of data) {
          batch.push(piece);
          size += piece.length;
          if (size >= 1 << 20) {
            writeAll(fd, batch.join(''));
            batch = [];
            size = 0;
          }
        }
        writeAll(fd, batch.join(''));
      }
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    renameSync(tmp, path);
  } catch (e) {
    rmSync(tmp, { force: true });
    throw writeError(path, e);
  }
  fsyncDir(dirname(path));
}

export function writeJsonAtomic(path: string, value: unknown): void {
  writeFileAtomic(path, JSON.stringify(value, null, 2) + '\n');
}

export function readJsonIfExists(path: string): unknown {
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
      const before = fstatSize(fd);
      try {
        writeAll(fd, lines.map((l) => l + '\n').join(''));
        fsyncSync(fd);
      } catch (e) {
        // Nothing partial stays: cut what this append wrote (shrinking needs no space).
        try {
          ftruncateSync(fd, before);
        } catch {
          /* the torn tail is then cut by the next append, and skipped by readers */
        }
        throw writeError(path, e);
      }
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
