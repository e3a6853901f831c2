// Lines of a file as raw bytes, streamed: memory holds one chunk plus the current line. A line longer
// than `maxLineBytes` is not buffered; it is reported by length so the caller can reject it.
// Line breaks are LF or CRLF, or lone CRs in a file whose first line break is one (old Mac files). A
// UTF-16 file (by its byte order mark, or the NUL every other byte of mostly-ASCII UTF-16 text) is
// decoded on the fly, so its lines come out as UTF-8 like any other file's.
import { createReadStream } from 'node:fs';

export type Utf16Encoding = 'utf-16le' | 'utf-16be';

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
  /** Called once when the file turns out to be UTF-16 (and is decoded). */
  onEncoding?: (encoding: Utf16Encoding) => void;
}

export async function* readLines(path: string, options: LineReaderOptions): AsyncGenerator<RawLine> {
  // (The signal also ends a read that waits for data, not only the loop between chunks.)
  const stream = createReadStream(path, { highWaterMark: options.highWaterMark ?? 1 << 20, ...(options.signal ? { signal: options.signal } : {}) });
  let pieces: Buffer[] = [];
  let pending = 0;
  let skipping = false;
  let line = 1;
  let breaks: 'lf' | 'cr' | undefined;
  // CR line breaks: the last chunk ended with a CR, so a LF opening this one is part of that break.
  let skipLf = false;
  try {
    for await (const chunk of decodedChunks(stream as AsyncIterable<Buffer>, options)) {
      options.signal?.throwIfAborted();
      if (breaks === undefined) {
        const last = pieces.at(-1);
        if (last !== undefined && last[last.length - 1] === 13) {
          // The first line break is a CR that ended the last chunk: this chunk tells CR from CRLF.
          breaks = chunk[0] === 10 ? 'lf' : 'cr';
          if (breaks === 'cr') {
            yield { line, bytes: trimLine(Buffer.concat(pieces), line) };
            pieces = [];
            pending = 0;
            line++;
          }
        } else breaks = lineBreaksOf(chunk);
      }
      let start = 0;
      if (skipLf) {
        skipLf = false;
        if (chunk[0] === 10) start = 1;
      }
      for (let nl = nextBreak(chunk, start, breaks); nl >= 0; nl = nextBreak(chunk, start, breaks)) {
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
        if (breaks === 'cr' && chunk[nl] === 13) {
          if (nl + 1 === chunk.length) skipLf = true;
          else if (chunk[nl + 1] === 10) start = nl + 2;
        }
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

/** LF unless the first line break of the file is a lone CR; undefined while no line break has been seen. */
function lineBreaksOf(chunk: Buffer): 'lf' | 'cr' | undefined {
  const cr = chunk.indexOf(13);
  const lf = chunk.indexOf(10);
  if (cr < 0 || (lf >= 0 && lf < cr)) return lf >= 0 ? 'lf' : undefined;
  // A CR that ends the chunk may be half of a CRLF: the next chunk decides.
  if (cr + 1 === chunk.length) return undefined;
  return chunk[cr + 1] !== 10 ? 'cr' : 'lf';
}

function nextBreak(chunk: Buffer, start: number, breaks: 'lf' | 'cr' | undefined): number {
  const lf = chunk.indexOf(10, start);
  if (breaks !== 'cr') return lf;
  const cr = chunk.indexOf(13, start);
  return cr < 0 ? lf : lf < 0 ? cr : Math.min(cr, lf);
}

/** The file's chunks, decoded to UTF-8 when the file is UTF-16. */
async function* decodedChunks(chunks: AsyncIterable<Buffer>, options: LineReaderOptions): AsyncGenerator<Buffer> {
  let decoder: TextDecoder | undefined;
  let first = true;
  for await (const chunk of chunks) {
    options.onBytes?.(chunk.length);
    if (first) {
      first = false;
      const encoding = detectUtf16(chunk);
      if (encoding) {
        decoder = new TextDecoder(encoding); // drops the byte order mark
        options.onEncoding?.(encoding);
      }
    }
    if (!decoder) yield chunk;
    else {
      const text = decoder.decode(chunk, { stream: true });
      if (text) yield Buffer.from(text, 'utf8');
    }
  }
  if (decoder) {
    const tail = decoder.decode();
    if (tail) yield Buffer.from(tail, 'utf8');
  }
}

/**
 * UTF-16 by its byte order mark, or by the pattern mostly-ASCII UTF-16 text has: a NUL in every other
 * byte. (UTF-8 JSON never holds a raw NUL.) UTF-32 is not recognised.
 */
export function detectUtf16(head: Buffer): Utf16Encoding | undefined {
  if (head.length >= 2 && head[0] === 0xff && head[1] === 0xfe) return head.length >= 4 && head[2] === 0 && head[3] === 0 ? undefined : 'utf-16le';
  if (head.length >= 2 && head[0] === 0xfe && head[1] === 0xff) return 'utf-16be';
  const n = Math.min(head.length, 1024) & ~1;
  if (n < 8) return undefined;
  let evenNul = 0;
  let oddNul = 0;
  for (let i = 0; i < n; i += 2) {
    if (head[i] === 0) evenNul++;
    if (head[i + 1] === 0) oddNul++;
  }
  const pairs = n / 2;
  if (oddNul >= pairs * 0.5 && evenNul <= pairs * 0.05) return 'utf-16le';
  if (evenNul >= pairs * 0.5 && oddNul <= pairs * 0.05) return 'utf-16be';
  return undefined;
}

/** A whole file's bytes as UTF-8 with LF line breaks (UTF-16 decoded, CR-only line breaks made LF). */
export function normaliseFileBytes(buffer: Buffer): { bytes: Buffer; encoding?: Utf16Encoding } {
  const encoding = detectUtf16(buffer);
  let bytes = encoding ? Buffer.from(new TextDecoder(encoding).decode(buffer), 'utf8') : buffer;
  const firstCr = bytes.indexOf(13);
  const firstLf = bytes.indexOf(10);
  if (firstCr >= 0 && (firstLf < 0 || firstCr < firstLf) && bytes[firstCr + 1] !== 10) {
    // A CR byte is never part of a multi-byte UTF-8 sequence: rewriting it in place is safe.
    bytes = Buffer.from(bytes);
    for (let i = bytes.indexOf(13); i >= 0; i = bytes.indexOf(13, i + 1)) if (bytes[i + 1] !== 10) bytes[i] = 10;
  }
  return encoding ? { bytes, encoding } : { bytes };
}

/** Drop a trailing `\r` and, on the first line, a UTF-8 byte order mark. */
function trimLine(b: Buffer, line: number): Buffer {
  let start = 0;
  let end = b.length;
  if (line === 1 && end >= 3 && b[0] === 0xef && b[1] === 0xbb && b[2] === 0xbf) start = 3;
  if (end > start && b[end - 1] === 13) end--;
  return start === 0 && end === b.length ? b : b.subarray(start, end);
}
