// A GGUF v3 writer: enough of the format to hand-build small llama models that llama.cpp loads
// (test fixtures, the evidence-copy reference model, benchmark models). Layout, little endian:
//   "GGUF" u32 version=3, u64 tensor count, u64 metadata count,
//   metadata: (string key, u32 value type, value)*,
//   tensor infos: (string name, u32 n_dims, u64 ne[n_dims], u32 ggml type, u64 offset)*,
//   padding to `general.alignment`, then the tensor data, each tensor aligned.
// Strings are u64 length + UTF-8 bytes. `ne[0]` is the fastest-varying dimension (a row).
import { closeSync, mkdirSync, openSync, renameSync, rmSync, writeSync } from 'node:fs';
import { dirname } from 'node:path';

const GGUF_MAGIC = 0x46554747; // "GGUF" read as a little-endian u32
const GGUF_VERSION = 3;
const ALIGNMENT = 32;

/** GGUF metadata value types (gguf.h). */
const ValueType = { U32: 4, I32: 5, F32: 6, Bool: 7, String: 8, Array: 9, U64: 10 } as const;

const GGML_TYPE_F32 = 0;

export type GgufScalar =
  | { type: 'u32'; value: number }
  | { type: 'i32'; value: number }
  | { type: 'u64'; value: number }
  | { type: 'f32'; value: number }
  | { type: 'bool'; value: boolean }
  | { type: 'string'; value: string };

export type GgufArray =
  | { type: 'array'; of: 'string'; value: readonly string[] }
  | { type: 'array'; of: 'i32' | 'u32' | 'f32'; value: readonly number[] | Float32Array | Int32Array };

export type GgufValue = GgufScalar | GgufArray;

export const gguf = {
  u32: (value: number): GgufValue => ({ type: 'u32', value }),
  i32: (value: number): GgufValue => ({ type: 'i32', value }),
  u64: (value: number): GgufValue => ({ type: 'u64', value }),
  f32: (value: number): GgufValue => ({ type: 'f32', value }),
  bool: (value: boolean): GgufValue => ({ type: 'bool', value }),
  str: (value: string): GgufValue => ({ type: 'string', value }),
  strings: (value: readonly string[]): GgufValue => ({ type: 'array', of: 'string', value }),
  i32s: (value: readonly number[] | Int32Array): GgufValue => ({ type: 'array', of: 'i32', value }),
  f32s: (value: readonly number[] | Float32Array): GgufValue => ({ type: 'array', of: 'f32', value }),
};

/** An F32 tensor; `dims` in ggml order (ne[0] first), `data.length` = product of dims. */
export interface GgufTensor {
  name: string;
  dims: readonly number[];
  data: Float32Array;
}

export interface GgufFile {
  metadata: ReadonlyArray<readonly [string, GgufValue]>;
  tensors: readonly GgufTensor[];
}

/** Write a GGUF v3 file atomically (temp file + rename), so a reader never sees half a model. */
export function writeGguf(path: string, file: GgufFile): void {
  for (const t of file.tensors) {
    const n = t.dims.reduce((a, b) => a * b, 1);
    if (n !== t.data.length) throw new Error(`tensor ${t.name}: dims ${t.dims.join('×')} hold ${n} values but data has ${t.data.length}`);
  }
  mkdirSync(dirname(path), { recursive: true });
  const tmp = `${path}.${process.pid}.${Date.now().toString(36)}.tmp`;
  const fd = openSync(tmp, 'w');
  try {
    const out = new ChunkWriter(fd);
    out.u32(GGUF_MAGIC);
    out.u32(GGUF_VERSION);
    out.u64(file.tensors.length);
    out.u64(file.metadata.length);
    for (const [key, value] of file.metadata) {
      out.string(key);
      writeValue(out, value);
    }
    let offset = 0;
    const offsets: number[] = [];
    for (const t of file.tensors) {
      offsets.push(offset);
      offset = align(offset + t.data.byteLength);
    }
    file.tensors.forEach((t, i) => {
      out.string(t.name);
      out.u32(t.dims.length);
      for (const d of t.dims) out.u64(d);
      out.u32(GGML_TYPE_F32);
      out.u64(offsets[i]!);
    });
    out.pad(align(out.position) - out.position);
    file.tensors.forEach((t) => {
      const start = out.position;
      out.bytes(new Uint8Array(t.data.buffer, t.data.byteOffset, t.data.byteLength));
      out.pad(align(out.position - start) - (out.position - start));
    });
    out.flush();
  } catch (e) {
    closeSync(fd);
    rmSync(tmp, { force: true });
    throw e;
  }
  closeSync(fd);
  renameSync(tmp, path);
}

function writeValue(out: ChunkWriter, v: GgufValue): void {
  switch (v.type) {
    case 'u32':
      out.u32(ValueType.U32);
      return out.u32(v.value);
    case 'i32':
      out.u32(ValueType.I32);
      return out.i32(v.value);
    case 'u64':
      out.u32(ValueType.U64);
      return out.u64(v.value);
    case 'f32':
      out.u32(ValueType.F32);
      return out.f32(v.value);
    case 'bool':
      out.u32(ValueType.Bool);
      return out.u8(v.value ? 1 : 0);
    case 'string':
      out.u32(ValueType.String);
      return out.string(v.value);
    case 'array': {
      out.u32(ValueType.Array);
      if (v.of === 'string') {
        out.u32(ValueType.String);
        out.u64(v.value.length);
        for (const s of v.value) out.string(s);
        return;
      }
      out.u32(v.of === 'i32' ? ValueType.I32 : v.of === 'u32' ? ValueType.U32 : ValueType.F32);
      out.u64(v.value.length);
      for (const x of v.value) {
        if (v.of === 'i32') out.i32(x);
        else if (v.of === 'u32') out.u32(x);
        else out.f32(x);
      }
      return;
    }
  }
}

function align(n: number): number {
  return Math.ceil(n / ALIGNMENT) * ALIGNMENT;
}

/** Buffers small writes into 1 MiB chunks; large tensor payloads go straight to the file. */
class ChunkWriter {
  position = 0;
  private buf = Buffer.alloc(1 << 20);
  private used = 0;

  constructor(private readonly fd: number) {}

  private room(n: number): void {
    if (this.used + n > this.buf.length) this.flush();
  }

  u8(v: number): void {
    this.room(1);
    this.buf.writeUInt8(v, this.used);
    this.advance(1);
  }
  u32(v: number): void {
    this.room(4);
    this.buf.writeUInt32LE(v, this.used);
    this.advance(4);
  }
  i32(v: number): void {
    this.room(4);
    this.buf.writeInt32LE(v, this.used);
    this.advance(4);
  }
  f32(v: number): void {
    this.room(4);
    this.buf.writeFloatLE(v, this.used);
    this.advance(4);
  }
  u64(v: number): void {
    this.room(8);
    this.buf.writeBigUInt64LE(BigInt(v), this.used);
    this.advance(8);
  }
  string(s: string): void {
    const bytes = Buffer.from(s, 'utf8');
    this.u64(bytes.length);
    this.bytes(bytes);
  }
  bytes(b: Uint8Array): void {
    if (b.length > this.buf.length / 2) {
      this.flush();
      writeAll(this.fd, b);
      this.position += b.length;
      return;
    }
    this.room(b.length);
    this.buf.set(b, this.used);
    this.advance(b.length);
  }
  pad(n: number): void {
    if (n > 0) this.bytes(new Uint8Array(n));
  }
  flush(): void {
    if (this.used > 0) writeAll(this.fd, this.buf.subarray(0, this.used));
    this.used = 0;
  }
  private advance(n: number): void {
    this.used += n;
    this.position += n;
  }
}

function writeAll(fd: number, b: Uint8Array): void {
  let off = 0;
  while (off < b.length) off += writeSync(fd, b, off, b.length - off);
}
