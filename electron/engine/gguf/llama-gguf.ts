// Assemble a llama-architecture GGUF (metadata + F32 tensors) from a shape and a weight source.
// What llama.cpp needs of a llama-arch file: general.architecture, llama.{context_length,
// embedding_length, block_count, feed_forward_length, attention.head_count(_kv),
// attention.layer_norm_rms_epsilon, rope.dimension_count}, a tokenizer (here gpt2-BPE with a (usually empty)
// merge list and the "default" pre-tokenizer), and per block attn_norm, attn_q/k/v/output, ffn_norm,
// ffn_gate/up/down; token_embd and output_norm globally. With no `output.weight` the unembedding is
// tied to token_embd.
import { gguf, type GgufFile, type GgufTensor, type GgufValue } from './writer';
import type { Vocabulary } from './vocabulary';

export interface LlamaShape {
  name: string;
  vocabulary: Vocabulary;
  embedding: number;
  layers: number;
  heads: number;
  headsKv: number;
  feedForward: number;
  contextLength: number;
  rmsEpsilon?: number;
  ropeFreqBase?: number;
  /** A Jinja chat template (tokenizer.chat_template); absent: the model has none. */
  chatTemplate?: string;
  addBos?: boolean;
  /** Write a separate output.weight (untied unembedding). */
  untiedOutput?: boolean;
}

/** Weight source: returns the values of a tensor, row-major over `dims` in ggml order (dims[0] fastest). */
export type WeightSource = (name: string, dims: readonly number[]) => Float32Array;

export function llamaGguf(shape: LlamaShape, weights: WeightSource): GgufFile {
  const { vocabulary: vocab, embedding: d, feedForward: ff } = shape;
  if (d % shape.heads !== 0) throw new Error(`embedding ${d} is not divisible by ${shape.heads} heads`);
  const headDim = d / shape.heads;
  const kv = headDim * shape.headsKv;
  const V = vocab.tokens.length;
  const metadata: Array<[string, GgufValue]> = [
    ['general.architecture', gguf.str('llama')],
    ['general.name', gguf.str(shape.name)],
    ['general.file_type', gguf.u32(0)], // all F32
    ['general.alignment', gguf.u32(32)],
    ['llama.context_length', gguf.u32(shape.contextLength)],
    ['llama.embedding_length', gguf.u32(d)],
    ['llama.block_count', gguf.u32(shape.layers)],
    ['llama.feed_forward_length', gguf.u32(ff)],
    ['llama.attention.head_count', gguf.u32(shape.heads)],
    ['llama.attention.head_count_kv', gguf.u32(shape.headsKv)],
    ['llama.attention.layer_norm_rms_epsilon', gguf.f32(shape.rmsEpsilon ?? 1e-5)],
    ['llama.rope.dimension_count', gguf.u32(headDim)],
    ['llama.rope.freq_base', gguf.f32(shape.ropeFreqBase ?? 10000)],
    ['llama.vocab_size', gguf.u32(V)],
    ['tokenizer.ggml.model', gguf.str('gpt2')],
    ['tokenizer.ggml.pre', gguf.str('default')],
    ['tokenizer.ggml.tokens', gguf.strings(vocab.tokens)],
    ['tokenizer.ggml.token_type', gguf.i32s(vocab.types)],
    ['tokenizer.ggml.merges', gguf.strings(vocab.merges)],
    ['tokenizer.ggml.bos_token_id', gguf.u32(vocab.bos)],
    ['tokenizer.ggml.eos_token_id', gguf.u32(vocab.eos)],
    ['tokenizer.ggml.add_bos_token', gguf.bool(shape.addBos ?? true)],
    ['tokenizer.ggml.add_eos_token', gguf.bool(false)],
  ];
  if (shape.chatTemplate !== undefined) metadata.push(['tokenizer.chat_template', gguf.str(shape.chatTemplate)]);

  const tensors: GgufTensor[] = [];
  const add = (name: string, dims: number[]): void => {
    tensors.push({ name, dims, data: weights(name, dims) });
  };
  add('token_embd.weight', [d, V]);
  for (let l = 0; l < shape.layers; l++) {
    add(`blk.${l}.attn_norm.weight`, [d]);
    add(`blk.${l}.attn_q.weight`, [d, d]);
    add(`blk.${l}.attn_k.weight`, [d, kv]);
    add(`blk.${l}.attn_v.weight`, [d, kv]);
    add(`blk.${l}.attn_output.weight`, [d, d]);
    add(`blk.${l}.ffn_norm.weight`, [d]);
    add(`blk.${l}.ffn_gate.weight`, [d, ff]);
    add(`blk.${l}.ffn_up.weight`, [d, ff]);
    add(`blk.${l}.ffn_down.weight`, [ff, d]);
  }
  add('output_norm.weight', [d]);
  if (shape.untiedOutput) add('output.weight', [d, V]);
  return { metadata, tensors };
}
