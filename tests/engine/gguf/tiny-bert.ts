// A tiny random BERT written as a sentence-transformers folder (config.json, tokenizer.json,
// tokenizer_config.json, modules.json, 1_Pooling/config.json, model.safetensors), and a reference forward
// pass of it in plain TypeScript, as Hugging Face's BertModel computes it followed by mean pooling and
// L2 normalisation: the ground truth the converted GGUF's embeddings are compared with. The one place
// the reference follows llama.cpp rather than PyTorch is the GELU: llama.cpp's CPU GELU is the tanh
// approximation looked up in a half-precision table (ggml-cpu vec.h, GGML_GELU_FP16), which the
// reference reproduces so that the comparison can be tight (erf GELU differs by up to ~1e-3). Attention is
// compared in F32: the embedder loads encoders with flash attention off (with it on, a CPU rounds K and V
// to F16 and the embeddings move by ~1e-4).
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { mulberry32 } from '../../../shared/lots/prng';

export const TINY_VOCAB = [
  '[PAD]',
  '[unused0]',
  '[UNK]',
  '[CLS]',
  '[SEP]',
  '[MASK]',
  'the',
  'cat',
  'dog',
  'sat',
  'ran',
  'on',
  'a',
  'mat',
  '##s',
  '.',
  'hello',
  'world',
];
const SPECIAL = new Set(['[PAD]', '[UNK]', '[CLS]', '[SEP]', '[MASK]']);

export interface TinyBertShape {
  hidden: number;
  layers: number;
  heads: number;
  intermediate: number;
  positions: number;
  typeVocab: number;
  eps: number;
}

export const TINY_SHAPE: TinyBertShape = { hidden: 8, layers: 2, heads: 2, intermediate: 16, positions: 32, typeVocab: 2, eps: 1e-12 };

/** HF tensors by name, PyTorch shapes ([out, in] for Linear weights), row-major. */
export type Weights = Map<string, { shape: number[]; data: Float32Array }>;

export function tinyBertWeights(seed: number, s: TinyBertShape = TINY_SHAPE): Weights {
  const rand = mulberry32(seed);
  const w: Weights = new Map();
  const uniform = (name: string, shape: number[], scale: number, centre = 0) => {
    const n = shape.reduce((a, b) => a * b, 1);
    const data = new Float32Array(n);
    for (let i = 0; i < n; i++) data[i] = centre + (rand() * 2 - 1) * scale;
    w.set(name, { shape, data });
  };
  const d = s.hidden;
  // LayerNorm weights near 1 and biases near 0 but not equal to them, so that a swapped or missing
  // weight/bias changes the result.
  const norm = (prefix: string) => {
    uniform(`${prefix}.weight`, [d], 0.3, 1);
    uniform(`${prefix}.bias`, [d], 0.2);
  };
  const linear = (prefix: string, out: number, inp: number) => {
    uniform(`${prefix}.weight`, [out, inp], Math.sqrt(3 / inp));
    uniform(`${prefix}.bias`, [out], 0.2);
  };
  uniform('embeddings.word_embeddings.weight', [TINY_VOCAB.length, d], 1);
  uniform('embeddings.position_embeddings.weight', [s.positions, d], 0.5);
  uniform('embeddings.token_type_embeddings.weight', [s.typeVocab, d], 0.5);
  norm('embeddings.LayerNorm');
  for (let l = 0; l < s.layers; l++) {
    const p = `encoder.layer.${l}`;
    linear(`${p}.attention.self.query`, d, d);
    linear(`${p}.attention.self.key`, d, d);
    linear(`${p}.attention.self.value`, d, d);
    linear(`${p}.attention.output.dense`, d, d);
    norm(`${p}.attention.output.LayerNorm`);
    linear(`${p}.intermediate.dense`, s.intermediate, d);
    linear(`${p}.output.dense`, d, s.intermediate);
    norm(`${p}.output.LayerNorm`);
  }
  // Present in real checkpoints, dropped by the converter.
  linear('pooler.dense', d, d);
  return w;
}

/** The safetensors bytes: header length, JSON header, F32 data. */
export function safetensorsBytes(weights: Weights): Buffer {
  const header: Record<string, unknown> = { __metadata__: { format: 'pt' } };
  const parts: Buffer[] = [];
  let offset = 0;
  for (const [name, t] of weights) {
    const bytes = Buffer.from(t.data.buffer, t.data.byteOffset, t.data.byteLength);
    header[name] = { dtype: 'F32', shape: t.shape, data_offsets: [offset, offset + bytes.length] };
    parts.push(bytes);
    offset += bytes.length;
  }
  // position_ids is I64 in real checkpoints; the converter must skip it.
  const ids = Buffer.alloc(8 * 4);
  for (let i = 0; i < 4; i++) ids.writeBigInt64LE(BigInt(i), 8 * i);
  header['embeddings.position_ids'] = { dtype: 'I64', shape: [1, 4], data_offsets: [offset, offset + ids.length] };
  parts.push(ids);
  const json = Buffer.from(JSON.stringify(header), 'utf8');
  const len = Buffer.alloc(8);
  len.writeBigUInt64LE(BigInt(json.length));
  return Buffer.concat([len, json, ...parts]);
}

/** The folder's files by relative path (also what a test wheel's model.zip holds). */
export function tinyBertFiles(weights: Weights, s: TinyBertShape = TINY_SHAPE): Record<string, Buffer> {
  const json = (v: unknown) => Buffer.from(JSON.stringify(v, null, 2));
  const vocab = Object.fromEntries(TINY_VOCAB.map((t, i) => [t, i]));
  return {
    'config.json': json({
      architectures: ['BertModel'],
      model_type: 'bert',
      hidden_size: s.hidden,
      num_hidden_layers: s.layers,
      num_attention_heads: s.heads,
      intermediate_size: s.intermediate,
      max_position_embeddings: s.positions,
      type_vocab_size: s.typeVocab,
      layer_norm_eps: s.eps,
      hidden_act: 'gelu',
      position_embedding_type: 'absolute',
      vocab_size: TINY_VOCAB.length,
      pad_token_id: 0,
    }),
    'tokenizer.json': json({
      version: '1.0',
      added_tokens: TINY_VOCAB.flatMap((t, id) => (SPECIAL.has(t) ? [{ id, content: t, special: true }] : [])),
      normalizer: { type: 'BertNormalizer', clean_text: true, handle_chinese_chars: true, strip_accents: null, lowercase: true },
      pre_tokenizer: { type: 'BertPreTokenizer' },
      post_processor: {
        type: 'TemplateProcessing',
        single: [{ SpecialToken: { id: '[CLS]', type_id: 0 } }, { Sequence: { id: 'A', type_id: 0 } }, { SpecialToken: { id: '[SEP]', type_id: 0 } }],
        pair: [
          { SpecialToken: { id: '[CLS]', type_id: 0 } },
          { Sequence: { id: 'A', type_id: 0 } },
          { SpecialToken: { id: '[SEP]', type_id: 0 } },
          { Sequence: { id: 'B', type_id: 1 } },
          { SpecialToken: { id: '[SEP]', type_id: 1 } },
        ],
      },
      model: { type: 'WordPiece', unk_token: '[UNK]', continuing_subword_prefix: '##', max_input_chars_per_word: 100, vocab },
    }),
    'tokenizer_config.json': json({
      do_lower_case: true,
      unk_token: '[UNK]',
      sep_token: '[SEP]',
      pad_token: '[PAD]',
      cls_token: '[CLS]',
      mask_token: '[MASK]',
    }),
    'modules.json': json([
      { idx: 0, name: '0', path: '', type: 'sentence_transformers.models.Transformer' },
      { idx: 1, name: '1', path: '1_Pooling', type: 'sentence_transformers.models.Pooling' },
      { idx: 2, name: '2', path: '2_Normalize', type: 'sentence_transformers.models.Normalize' },
    ]),
    '1_Pooling/config.json': json({ word_embedding_dimension: s.hidden, pooling_mode_cls_token: false, pooling_mode_mean_tokens: true }),
    'model.safetensors': safetensorsBytes(weights),
  };
}

export function writeTinyBert(dir: string, files: Record<string, Buffer>): void {
  for (const [path, data] of Object.entries(files)) {
    mkdirSync(join(dir, path, '..'), { recursive: true });
    writeFileSync(join(dir, path), data);
  }
}

/** IEEE half precision, round to nearest even (what F16C's conversion does). */
export function f16round(x: number): number {
  if (!Number.isFinite(x) || x === 0) return x;
  const a = Math.abs(x);
  if (a >= 65520) return Math.sign(x) * Infinity;
  let e = Math.max(-14, Math.floor(Math.log2(a)));
  if (2 ** e > a && e > -14) e--;
  const ulp = 2 ** (e - 10);
  const q = a / ulp;
  const fl = Math.floor(q);
  const frac = q - fl;
  const n = frac > 0.5 ? fl + 1 : frac < 0.5 ? fl : fl % 2 === 0 ? fl : fl + 1;
  return Math.sign(x) * n * ulp;
}

/** llama.cpp's CPU GELU: tanh approximation of the half-rounded input, looked up as a half. */
export function ggmlGelu(x: number): number {
  if (x <= -10) return 0;
  if (x >= 10) return x;
  const h = f16round(x);
  return f16round(0.5 * h * (1 + Math.tanh(0.7978845608028654 * h * (1 + 0.044715 * h * h))));
}

/** Options that break the reference on purpose, to show the comparison would notice a wrong mapping. */
export interface ReferenceFaults {
  /** Use the query weight transposed (what a converter that transposed Linear weights would load). */
  transposeQuery?: boolean;
}

/** The sentence embedding of token ids (with [CLS] and [SEP]): BERT, mean pooling, L2 normalisation. */
export function referenceEmbedding(weights: Weights, ids: readonly number[], s: TinyBertShape = TINY_SHAPE, faults: ReferenceFaults = {}): number[] {
  const d = s.hidden;
  const get = (name: string) => weights.get(name)!.data;
  const layerNorm = (x: number[], prefix: string): number[] => {
    const g = get(`${prefix}.weight`);
    const b = get(`${prefix}.bias`);
    const mean = x.reduce((a, v) => a + v, 0) / x.length;
    const variance = x.reduce((a, v) => a + (v - mean) ** 2, 0) / x.length;
    const inv = 1 / Math.sqrt(variance + s.eps);
    return x.map((v, i) => (v - mean) * inv * g[i]! + b[i]!);
  };
  const linear = (x: readonly number[], prefix: string, out: number, transpose = false): number[] => {
    const W = get(`${prefix}.weight`);
    const B = get(`${prefix}.bias`);
    const inp = x.length;
    const y = new Array<number>(out).fill(0);
    for (let o = 0; o < out; o++) {
      let acc = B[o]!;
      for (let i = 0; i < inp; i++) acc += (transpose ? W[i * out + o]! : W[o * inp + i]!) * x[i]!;
      y[o] = acc;
    }
    return y;
  };
  const E = get('embeddings.word_embeddings.weight');
  const P = get('embeddings.position_embeddings.weight');
  const T = get('embeddings.token_type_embeddings.weight');
  let h = ids.map((id, pos) =>
    layerNorm(
      Array.from({ length: d }, (_, j) => E[id * d + j]! + P[pos * d + j]! + T[j]!),
      'embeddings.LayerNorm',
    ),
  );
  const heads = s.heads;
  const hd = d / heads;
  for (let l = 0; l < s.layers; l++) {
    const p = `encoder.layer.${l}`;
    const q = h.map((x) => linear(x, `${p}.attention.self.query`, d, faults.transposeQuery));
    const k = h.map((x) => linear(x, `${p}.attention.self.key`, d));
    const v = h.map((x) => linear(x, `${p}.attention.self.value`, d));
    const ctx = h.map((_, i) => {
      const out = new Array<number>(d).fill(0);
      for (let head = 0; head < heads; head++) {
        const off = head * hd;
        const scores = k.map((kj) => {
          let dot = 0;
          for (let c = 0; c < hd; c++) dot += q[i]![off + c]! * kj[off + c]!;
          return dot / Math.sqrt(hd);
        });
        const max = Math.max(...scores);
        const e = scores.map((x) => Math.exp(x - max));
        const z = e.reduce((a, x) => a + x, 0);
        e.forEach((w, j) => {
          for (let c = 0; c < hd; c++) out[off + c]! += (w / z) * v[j]![off + c]!;
        });
      }
      return out;
    });
    h = h.map((x, i) => {
      const attn = linear(ctx[i]!, `${p}.attention.output.dense`, d);
      const a = layerNorm(
        x.map((xv, j) => xv + attn[j]!),
        `${p}.attention.output.LayerNorm`,
      );
      const up = linear(a, `${p}.intermediate.dense`, s.intermediate).map(ggmlGelu);
      const down = linear(up, `${p}.output.dense`, d);
      return layerNorm(
        a.map((av, j) => av + down[j]!),
        `${p}.output.LayerNorm`,
      );
    });
  }
  const pooled = Array.from({ length: d }, (_, j) => h.reduce((acc, x) => acc + x[j]!, 0) / h.length);
  const norm = Math.hypot(...pooled);
  return pooled.map((x) => x / norm);
}
