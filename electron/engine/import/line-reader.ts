// Lines of a file as raw bytes, streamed: memory holds one chunk plus the current line. A line longer
// than `maxLineBytes` is not buffered; it is reported by length so the caller can reject it.
import { createReadStream } from 'node:fs';

export interface RawLine {
  /** 1-based line number. */
  line: number;
  /** The line without its `\n` (and `\r`); undefined when it was too long to keep. */
  bytes?: Buffer;
  /** Length in bytes of a line that was too long. */
  tooLong?: number;
}

export interface LineReaderOptions {
  maxLineBytes: number;
  signal?: AbortSignal;
  onBytes?: (n: number) => void;
  highWaterMark?: number;
}

export async function* readLines(path: string, options: LineReaderOptions): AsyncGenerator<RawLine> {
  const stream = createReadStream(path, { highWaterMark: options.highWaterMark ?? 1 << 20 });
  let pieces: Buffer[] = [];
  let pending = 0;
  let skipping = false;
  let line = 1;
  try {
    for await (const chunk of stream as AsyncIterable<Buffer>) {
      throwIfAborted(options.signal);
      options.onBytes?.(chunk.length);
      let start = 0;
      for (let nl = chunk.indexOf(10, start); nl >= 0; nl = chunk.indexOf(10, start)) {
        if (skipping || pending + (nl - start) > options.maxLineBytes) {
          yield { line, tooLong: pending + (nl - start) };
        } else {
          const part = chunk.subarray(start, nl);
          yield { line, bytes: trimLine(pieces.length ? Buffer.concat([...pieces, part]) : part, line) };
        }
        pieces = [];
        pending = 0;
        skipping = false;
        line++;
        start = nl + 1;
      }
      if (start < chunk.length) {
        const rest = chunk.subarray(start);
        pending += rest.length;
        if (skipping || pending > options.maxLineBytes) {
          skipping = true;
          pieces = [];
        } else pieces.push(Buffer.from(rest));
      }
    }
    if (skipping) yield { line, tooLong: pending };
    else if (pieces.length) yield { line, bytes: trimLine(Buffer.concat(pieces), line) };
  } finally {
    stream.destroy();
  }
}

/** Drop a trailing `\r` and, on the first line, a UTF-8 byte order mark. */
function trimLine(b: Buffer, line: number): Buffer {
  let start = 0;
  let end = b.length;
  if (line === 1 && end >= 3 && b[0] === 0xef && b[1] === 0xbb && b[2] === 0xbf) start = 3;
  if (end > start && b[end - 1] === 13) end--;
  return start === 0 && end === b.length ? b : b.subarray(start, end);
}

export function throwIfAborted(signal: AbortSignal | undefined): void {
  if (signal?.aborted) {
    const e = new Error('import cancelled') as Error & { code: string };
    e.name = 'AbortError';
    e.code = 'ABORT_ERR';
    throw e;
  }
}
