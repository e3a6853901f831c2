// Clear, coded errors for the model problems users actually hit, and the model facts the UI shows.
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { describeModel, getRuntime, inspectModel, loadModel, modelFileHash } from '../../../electron/engine/llama';
import { evidenceCopyModel, oversizedModel, randomModel } from '../fixtures';

const dir = mkdtempSync(join(tmpdir(), 'lots-model-errors-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('loading a model', () => {
  it('a missing file or a folder: MODEL_NOT_FOUND naming the path', async () => {
    await expect(loadModel(join(dir, 'nope.gguf'), { gpu: 'cpu' })).rejects.toMatchObject({
      code: 'MODEL_NOT_FOUND',
      message: expect.stringContaining('nope.gguf'),
    });
    mkdirSync(join(dir, 'folder.gguf'));
    await expect(loadModel(join(dir, 'folder.gguf'), { gpu: 'cpu' })).rejects.toMatchObject({
      code: 'MODEL_NOT_FOUND',
      message: expect.stringContaining('not a file'),
    });
  });

  it('a file that is not GGUF: MODEL_CORRUPT', async () => {
    const path = join(dir, 'text.gguf');
    writeFileSync(path, 'hello, I am not a model\n'.repeat(10));
    await expect(loadModel(path, { gpu: 'cpu' })).rejects.toMatchObject({ code: 'MODEL_CORRUPT', message: expect.stringContaining('not a readable GGUF') });
  });

  it("a truncated GGUF (an interrupted download): MODEL_CORRUPT with llama.cpp's reason", async () => {
    const path = join(dir, 'truncated.gguf');
    const bytes = readFileSync(randomModel());
    writeFileSync(path, bytes.subarray(0, Math.floor(bytes.length * 0.6)));
    await expect(loadModel(path, { gpu: 'cpu' })).rejects.toMatchObject({
      code: 'MODEL_CORRUPT',
      message: expect.stringMatching(/could not load .*truncated\.gguf/),
    });
  });

  it('a model larger than this machine: MODEL_DOES_NOT_FIT before llama.cpp tries', async () => {
    const path = oversizedModel(join(dir, 'oversized.gguf'));
    await expect(loadModel(path, { gpu: 'cpu' })).rejects.toMatchObject({ code: 'MODEL_DOES_NOT_FIT', message: expect.stringContaining('does not fit') });
  });
});

describe('model facts', () => {
  it('describes a model: architecture, size, layers, vocabulary, fit', async () => {
    const info = await inspectModel(randomModel(), { gpu: 'cpu' });
    expect((await describeModel(randomModel(), await getRuntime('cpu'))).name).toBe(info.name);
    expect(info).toMatchObject({ architecture: 'llama', layers: 2, vocabularySize: 258, contextLength: 8192, quantization: 'ALL_F32' });
    expect(info.name).toBe('lots-random-llama-258');
    expect(info.fit.fits).toBe(true);
    expect(info.sizeBytes).toBeGreaterThan(100_000);
  });

  it('hashes the file content: a copy keeps its hash, another model has another', async () => {
    const copy = join(dir, 'copy.gguf');
    copyFileSync(randomModel(), copy);
    expect(await modelFileHash(copy)).toBe(await modelFileHash(randomModel()));
    expect(await modelFileHash(evidenceCopyModel())).not.toBe(await modelFileHash(randomModel()));
    expect(await modelFileHash(copy)).toMatch(/^[0-9a-f]{16}$/);
  });
});
