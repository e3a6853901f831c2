// A small ZIP reader for wheels (PEP 427 wheels are ZIP archives): the central directory, then one
// entry at a time streamed through inflate with its CRC-32 checked. Stored and deflated entries,
// ZIP64 sizes and offsets; no encryption (wheels never use it).
import { closeSync, createReadStream, fstatSync, openSync, readSync } from 'node:fs';
import { open } from 'node:fs/promises';
import { createInflateRaw } from 'node:zlib';
import { ExpectedError } from '../../../shared/api/errors';

export interface ZipEntry {
  name: string;
  method: number;
  compressedSize: number;
  size: number;
  crc32: number;
  localHeaderOffset: number;
}

const EOCD_SIG = 0x06054b50;
const ZIP64_LOCATOR_SIG = 0x07064b50;
const ZIP64_EOCD_SIG = 0x06064b50;
const CENTRAL_SIG = 0x02014b50;
const LOCAL_SIG = 0x04034b50;

function readAt(fd: number, offset: number, length: number): Buffer {
  const buf = Buffer.alloc(length);
  let got = 0;
  while (got < length) {
    const n = readSync(fd, buf, got, length - got, offset + got);
    if (n === 0) break;
    got += n;
  }
  return buf.subarray(0, got);
}

function corrupt(path: string, why: string): ExpectedError {
  return new ExpectedError('ARCHIVE_CORRUPT', `${path} is not a readable wheel (zip): ${why}. Delete it and pull again.`);
}

/** The archive's entries, from its central directory. */
export function listZipEntries(path: string): ZipEntry[] {
  const fd = openSync(path, 'r');
  try {
    const size = fstatSync(fd).size;
    const tailLength = Math.min(size, 22 + 0xffff);
    const tail = readAt(fd, size - tailLength, tailLength);
    let eocd = -1;
    for (let i = tail.length - 22; i >= 0; i--) {
      if (tail.readUInt32LE(i) === EOCD_SIG) {
        eocd = i;
        break;
      }
    }
    if (eocd < 0) throw corrupt(path, 'no end-of-central-directory record');
    let count = tail.readUInt16LE(eocd + 10);
    let cdSize = tail.readUInt32LE(eocd + 12);
    let cdOffset = tail.readUInt32LE(eocd + 16);
    if (cdOffset === 0xffffffff || count === 0xffff) {
      const locator = eocd - 20;
      if (locator < 0 || tail.readUInt32LE(locator) !== ZIP64_LOCATOR_SIG) throw corrupt(path, 'ZIP64 locator missing');
      const z64 = readAt(fd, Number(tail.readBigUInt64LE(locator + 8)), 56);
      if (z64.readUInt32LE(0) !== ZIP64_EOCD_SIG) throw corrupt(path, 'ZIP64 end record missing');
      count = Number(z64.readBigUInt64LE(32));
      cdSize = Number(z64.readBigUInt64LE(40));
      cdOffset = Number(z64.readBigUInt64LE(48));
    }
    const cd = readAt(fd, cdOffset, cdSize);
    const entries: ZipEntry[] = [];
    let p = 0;
    for (let i = 0; i < count; i++) {
      if (p + 46 > cd.length || cd.readUInt32LE(p) !== CENTRAL_SIG) throw corrupt(path, `central directory entry ${i} is damaged`);
      const method = cd.readUInt16LE(p + 10);
      const crc32 = cd.readUInt32LE(p + 16);
      let compressedSize = cd.readUInt32LE(p + 20);
      let uncompressed = cd.readUInt32LE(p + 24);
      const nameLength = cd.readUInt16LE(p + 28);
      const extraLength = cd.readUInt16LE(p + 30);
      const commentLength = cd.readUInt16LE(p + 32);
      let localHeaderOffset = cd.readUInt32LE(p + 42);
      const name = cd.toString('utf8', p + 46, p + 46 + nameLength);
      // ZIP64 extended information: present values replace the 0xffffffff placeholders, in order.
      let e = p + 46 + nameLength;
      const extraEnd = e + extraLength;
      while (e + 4 <= extraEnd) {
        const id = cd.readUInt16LE(e);
        const len = cd.readUInt16LE(e + 2);
        if (id === 0x0001) {
          let q = e + 4;
          if (uncompressed === 0xffffffff) {
            uncompressed = Number(cd.readBigUInt64LE(q));
            q += 8;
          }
          if (compressedSize === 0xffffffff) {
            compressedSize = Number(cd.readBigUInt64LE(q));
            q += 8;
          }
          if (localHeaderOffset === 0xffffffff) localHeaderOffset = Number(cd.readBigUInt64LE(q));
        }
        e += 4 + len;
      }
      entries.push({ name, method, compressedSize, size: uncompressed, crc32, localHeaderOffset });
      p = extraEnd + commentLength;
    }
    return entries;
  } finally {
    closeSync(fd);
  }
}

const CRC_TABLE = (() => {
  const t = new Int32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    t[n] = c;
  }
  return t;
})();

export function crc32Update(crc: number, data: Uint8Array): number {
  let c = ~crc;
  for (let i = 0; i < data.length; i++) c = CRC_TABLE[(c ^ data[i]!) & 0xff]! ^ (c >>> 8);
  return ~c >>> 0;
}

/** Small entries (METADATA, SHA256SUMS) as a Buffer. */
export async function readZipEntry(path: string, entry: ZipEntry): Promise<Buffer> {
  const parts: Buffer[] = [];
  await streamZipEntry(path, entry, (chunk) => void parts.push(Buffer.from(chunk)));
  return Buffer.concat(parts);
}

/**
 * Streams one entry's uncompressed bytes to `onData` (awaited: back-pressure), checking its size
 * and CRC-32. A damaged entry throws ARCHIVE_CORRUPT after the data seen so far.
 */
export async function streamZipEntry(path: string, entry: ZipEntry, onData: (chunk: Buffer) => void | Promise<void>, signal?: AbortSignal): Promise<void> {
  const fd = openSync(path, 'r');
  let dataStart: number;
  try {
    const local = readAt(fd, entry.localHeaderOffset, 30);
    if (local.length < 30 || local.readUInt32LE(0) !== LOCAL_SIG) throw corrupt(path, `local header of ${entry.name} is damaged`);
    dataStart = entry.localHeaderOffset + 30 + local.readUInt16LE(26) + local.readUInt16LE(28);
  } finally {
    closeSync(fd);
  }
  if (entry.method !== 0 && entry.method !== 8)
    throw corrupt(path, `${entry.name} uses compression method ${entry.method} (only stored and deflate are supported)`);
  if (entry.compressedSize === 0) {
    if (entry.size !== 0) throw corrupt(path, `${entry.name} is empty but should hold ${entry.size} bytes`);
    return;
  }
  const raw = createReadStream(path, { start: dataStart, end: dataStart + entry.compressedSize - 1, highWaterMark: 1 << 20, signal });
  const source: AsyncIterable<Buffer> = entry.method === 8 ? raw.pipe(createInflateRaw()) : raw;
  let crc = 0;
  let total = 0;
  try {
    for await (const chunk of source) {
      signal?.throwIfAborted();
      crc = crc32Update(crc, chunk);
      total += chunk.length;
      await onData(chunk);
    }
  } catch (e) {
    if (signal?.aborted) throw signal.reason;
    if (e instanceof ExpectedError) throw e;
    throw corrupt(path, `${entry.name}: ${(e as Error).message}`);
  } finally {
    raw.destroy();
  }
  if (total !== entry.size) throw corrupt(path, `${entry.name} unpacked to ${total} bytes, the archive says ${entry.size}`);
  if (crc !== entry.crc32) throw corrupt(path, `${entry.name} fails its CRC-32 check`);
}

/** Writes one entry of the archive at `path` to the file `out` (created or truncated), streamed. */
export async function writeZipEntry(path: string, entry: ZipEntry, out: string, signal?: AbortSignal): Promise<void> {
  const file = await open(out, 'w');
  try {
    let pos = 0;
    await streamZipEntry(
      path,
      entry,
      async (data) => {
        await file.write(data, 0, data.length, pos);
        pos += data.length;
      },
      signal,
    );
  } finally {
    await file.close();
  }
}
