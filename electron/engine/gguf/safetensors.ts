// A small safetensors reader (the weights format of Hugging Face checkpoints), enough to convert a
// sentence encoder to GGUF (`bert-gguf.ts`). The format: an 8-byte little-endian header length N, N
// bytes of JSON ({name: {dtype, shape, data_offsets: [begin, end]}}, plus an optional "__metadata__"),
// then the raw tensor bytes, little endian, offsets relative to the end of the header. Tensors are read
// one at a time from the file, so converting never holds more than the tensor at hand and its copy.
import { closeSync, fstatSync, openSync, readSync } from 'node:fs';
import { ExpectedError } from '../../../shared/api/errors';

export interface SafetensorsEntry {
  name: string;
  dtype: string;
  /** Row-major, slowest dimension first (PyTorch order). */
  shape: number[];
  /** Byte range in the data section. */
  begin: number;
  end: number;
}

const BYTES: Record<string, number> = { F32: 4, F16: 2, BF16: 2, F64: 8, I64: 8, I32: 4, I16: 2, I8: 1, U8: 1, BOOL: 1 };
/** The longest header we accept: real ones are tens of kilobytes; a damaged length must not allocate gigabytes. */
const MAX_HEADER = 100 * 1024 * 1024;

export class SafetensorsFile {
  private constructor(
    readonly path: string,
    private readonly fd: number,
    private readonly dataStart: number,
    readonly entries: ReadonlyMap<string, SafetensorsEntry>,
  ) {}

  static open(path: string): SafetensorsFile {
    const fd = openSync(path, 'r');
    try {
      const size = fstatSync(fd).size;
      const bad = (why: string) => new ExpectedError('ARCHIVE_CORRUPT', `${path} is not a readable safetensors file: ${why}`);
      const head = readExactly(fd, 0, 8);
      if (head.length < 8) throw bad('shorter than its 8-byte header length');
      const n = Number(head.readBigUInt64LE(0));
      if (n <= 1 || n > MAX_HEADER || 8 + n > size) throw bad(`header length ${n} does not fit a ${size}-byte file`);
      let json: unknown;
      try {
        json = JSON.parse(readExactly(fd, 8, n).toString('utf8'));
      } catch (e) {
        throw bad(`its header is not JSON (${(e as Error).message})`);
      }
      if (typeof json !== 'object' || json === null || Array.isArray(json)) throw bad('its header is not a JSON object');
      const dataStart = 8 + n;
      const entries = new Map<string, SafetensorsEntry>();
      for (const [name, raw] of Object.entries(json as Record<string, unknown>)) {
        if (name === '__metadata__') continue;
        const e = raw as { dtype?: unknown; shape?: unknown; data_offsets?: unknown };
        const shape = e.shape;
        const offsets = e.data_offsets;
        if (
          typeof e.dtype !== 'string' ||
          !Array.isArray(shape) ||
          !shape.every((d) => Number.isInteger(d) && (d as number) >= 0) ||
          !Array.isArray(offsets) ||
          offsets.length !== 2 ||
          !offsets.every((o) => Number.isInteger(o) && (o as number) >= 0)
        )
          throw bad(`tensor ${name} has no dtype, shape and data_offsets`);
        const [begin, end] = offsets as [number, number];
        const width = BYTES[e.dtype];
        const count = (shape as number[]).reduce((a, b) => a * b, 1);
        if (width !== undefined && end - begin !== count * width)
          throw bad(`tensor ${name} (${e.dtype} ${(shape as number[]).join('×')}) spans ${end - begin} bytes, not ${count * width}`);
        if (end < begin || dataStart + end > size) throw bad(`tensor ${name} lies outside the file (bytes ${begin}…${end} of the data)`);
        entries.set(name, { name, dtype: e.dtype, shape: shape as number[], begin, end });
      }
      return new SafetensorsFile(path, fd, dataStart, entries);
    } catch (e) {
      closeSync(fd);
      throw e;
    }
  }

  /** The tensor's values as F32 (F32 as is; F16 and BF16 widened exactly). */
  readF32(name: string): Float32Array {
    const e = this.entries.get(name);
    if (!e) throw new ExpectedError('ARCHIVE_CORRUPT', `${this.path} has no tensor ${name}`);
    const bytes = readExactly(this.fd, this.dataStart + e.begin, e.end - e.begin);
    const n = e.shape.reduce((a, b) => a * b, 1);
    const out = new Float32Array(n);
    if (e.dtype === 'F32') {
      for (let i = 0; i < n; i++) out[i] = bytes.readFloatLE(4 * i);
    } else if (e.dtype === 'F16') {
      for (let i = 0; i < n; i++) out[i] = halfToFloat(bytes.readUInt16LE(2 * i));
    } else if (e.dtype === 'BF16') {
      const view = new DataView(new ArrayBuffer(4));
      for (let i = 0; i < n; i++) {
        view.setUint32(0, bytes.readUInt16LE(2 * i) << 16, true);
        out[i] = view.getFloat32(0, true);
      }
    } else {
      throw new ExpectedError('ARCHIVE_CORRUPT', `${this.path}: tensor ${name} is ${e.dtype}; only F32, F16 and BF16 weights can be converted`);
    }
    return out;
  }

  close(): void {
    closeSync(this.fd);
  }
}

function readExactly(fd: number, offset: number, length: number): Buffer {
  const buf = Buffer.alloc(length);
  let got = 0;
  while (got < length) {
    const n = readSync(fd, buf, got, length - got, offset + got);
    if (n === 0) break;
    got += n;
  }
  return buf.subarray(0, got);
}

function halfToFloat(h: number): number {
  const sign = h & 0x8000 ? -1 : 1;
  const exp = (h >> 10) & 0x1f;
  const frac = h & 0x3ff;
  if (exp === 0) return sign * frac * 2 ** -24;
  if (exp === 31) return frac ? NaN : sign * Infinity;
  return sign * (1 + frac / 1024) * 2 ** (exp - 15);
}
