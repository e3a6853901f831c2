// Hand-built models for tests, benchmarks and demos without a download. Generated in well under a
// second (F32, a few hundred thousand weights; the large-vocabulary variant ~40 MB).
//
// randomLlama: a 2-layer llama with seeded random weights (GQA: 4 query heads, 2 KV heads). Its
//   predictions mean nothing, but every code path of a real model runs (RoPE, GQA, SwiGLU, RMSNorm),
//   which is what the numerical checks (optimized == naive) need. `vocabularySize` pads the byte
//   vocabulary with dummy tokens (e.g. 151,936 like Qwen) to expose full-vocabulary costs.
//
// evidenceCopy: one layer whose next-token distribution follows the token frequencies of its
//   context, built by hand (d = embedding = vocabulary size V):
//   - token_embd = I (V×V, tied: no output.weight), so the residual stream of token t is e_t;
//   - attn_norm weight 1/√d: RMSNorm(e_t) = √d·e_t, times 1/√d gives back e_t exactly;
//   - attn_q = attn_k = 0: every score q·k is 0, so causal softmax attention is uniform over
//     positions 0..i, and RoPE (a rotation of zero) changes nothing;
//   - attn_v = I: the attention output at position i is the mean of e_{t_0..t_i}, i.e. the
//     frequency vector f_i of the tokens seen so far;
//   - attn_output = α·I (identity, scaled): the residual becomes e_{t_i} + α·f_i. A pure identity
//     would let the one-hot of the current token (weight 1) swamp frequencies (≤ 1 each); with α
//     large the current token weighs as n/α extra occurrences, a small bias toward repetition;
//   - ffn_* = 0: the feed-forward block adds nothing;
//   - output_norm weight g, unembedding tied to I: logits_j = g·h_j / rms(h) ≈ g·α f_ij/rms(α f_i).
//   So log p(j | context) = c·f_j − log Z: tokens that occur more often in the context are more
//   likely next. g = 0.5 keeps the map soft (p_j ≈ (1 + c·f_j)/Z with Z nearly constant): with a
//   sharp map (g ≥ 1) spaces and vowels dominate the normaliser, and through the RMS normalisation
//   every removed line moves every token's probability, blurring which evidence held the answer. Deleting an observation that contains the answer's digits lowers their frequency
//   and the answer's likelihood; deleting a line without them raises it slightly (the others'
//   share grows). That is the ground truth the scorer's end-to-end tests assert.
import { byteVocabulary, type Vocabulary } from './vocabulary';
import { llamaGguf, type LlamaShape } from './llama-gguf';
import type { GgufFile } from './writer';
import { fnv1a, mulberry32 } from '../../../shared/lots/prng';

export const CHATML_TEMPLATE =
  "{% for message in messages %}{{ '<|im_start|>' + message['role'] + '\\n' + message['content'] + '<|im_end|>' + '\\n' }}{% endfor %}" +
  "{% if add_generation_prompt %}{{ '<|im_start|>assistant\\n' }}{% endif %}";

export interface RandomLlamaOptions {
  seed?: number;
  /** Pad the byte vocabulary to this many tokens (default: bytes + specials only). */
  vocabularySize?: number;
  embedding?: number;
  layers?: number;
  contextLength?: number;
  /** Give the model a ChatML Jinja template and its <|im_start|>/<|im_end|> tokens. */
  chatml?: boolean;
  /** BPE merges in the byte encoding (e.g. "Ġ 4": a space and a digit become one token). */
  merges?: readonly string[];
}

export function randomLlama(options: RandomLlamaOptions = {}): GgufFile {
  const seed = options.seed ?? 1;
  const vocabulary = options.chatml
    ? byteVocabulary({ specials: ['<|bos|>', '<|im_start|>', '<|im_end|>'], eos: '<|im_end|>', size: options.vocabularySize, merges: options.merges })
    : byteVocabulary({ size: options.vocabularySize, merges: options.merges });
  const d = options.embedding ?? 64;
  const shape: LlamaShape = {
    name: `lots-random-llama-${vocabulary.tokens.length}`,
    vocabulary,
    embedding: d,
    layers: options.layers ?? 2,
    heads: 4,
    headsKv: 2,
    feedForward: 2 * d,
    contextLength: options.contextLength ?? 8192,
    chatTemplate: options.chatml ? CHATML_TEMPLATE : undefined,
  };
  let stream = 0;
  return llamaGguf(shape, (name, dims) => {
    const n = dims.reduce((a, b) => a * b, 1);
    const out = new Float32Array(n);
    if (name.endsWith('_norm.weight')) return out.fill(1);
    // Uniform with variance 1/fan_in keeps activations O(1) through the layers; the embedding is
    // larger so that logits spread (a near-uniform model would hide numerical differences).
    const fanIn = dims[0]!;
    const scale = name === 'token_embd.weight' ? 1 : Math.sqrt(3 / fanIn);
    const rand = mulberry32(hashSeed(seed, name, stream++));
    for (let i = 0; i < n; i++) out[i] = (rand() * 2 - 1) * scale;
    if (name === 'token_embd.weight') {
      // Rows of tokens other than printable ASCII and newline are shrunk (tied unembedding: their
      // logits stay near 0), so greedy continuations are readable text that round-trips through
      // the tokenizer, like a real model's frozen answers; dummy tokens still weigh in every softmax.
      for (let tok = 0; tok < dims[1]!; tok++) {
        if ((tok >= 32 && tok < 127) || tok === 10) continue;
        for (let i = tok * fanIn; i < (tok + 1) * fanIn; i++) out[i] = out[i]! * 0.05;
      }
    }
    return out;
  });
}

export interface EvidenceCopyOptions {
  /** α: weight of the attention (frequency) path against the residual one-hot. */
  attentionScale?: number;
  /** g: output RMSNorm weight, the sharpness of the frequency → probability map. */
  sharpness?: number;
  contextLength?: number;
  chatml?: boolean;
}

/** The evidence-copy reference model (see the file comment for the construction). */
export function evidenceCopy(options: EvidenceCopyOptions = {}): GgufFile {
  const vocabulary = padToMultiple(
    options.chatml ? byteVocabulary({ specials: ['<|bos|>', '<|im_start|>', '<|im_end|>'], eos: '<|im_end|>' }) : byteVocabulary(),
    8,
  );
  const d = vocabulary.tokens.length;
  const alpha = options.attentionScale ?? 4096;
  const g = options.sharpness ?? 0.5;
  const shape: LlamaShape = {
    name: 'lots-evidence-copy',
    vocabulary,
    embedding: d,
    layers: 1,
    heads: 1,
    headsKv: 1,
    feedForward: 8,
    contextLength: options.contextLength ?? 8192,
    chatTemplate: options.chatml ? CHATML_TEMPLATE : undefined,
  };
  return llamaGguf(shape, (name, dims) => {
    const n = dims.reduce((a, b) => a * b, 1);
    const out = new Float32Array(n);
    const identity = (scale: number): Float32Array => {
      for (let i = 0; i < dims[0]!; i++) out[i * dims[0]! + i] = scale;
      return out;
    };
    switch (name) {
      case 'token_embd.weight':
        return identity(1);
      case 'blk.0.attn_norm.weight':
        return out.fill(1 / Math.sqrt(d));
      case 'blk.0.attn_v.weight':
        return identity(1);
      case 'blk.0.attn_output.weight':
        return identity(alpha);
      case 'blk.0.ffn_norm.weight':
        return out.fill(1);
      case 'output_norm.weight':
        return out.fill(g);
      default:
        return out; // q, k and the feed-forward block stay zero
    }
  });
}

/** Pad with dummy tokens so d = V divides evenly (kernels like head sizes that are multiples of 8). */
function padToMultiple(v: Vocabulary, m: number): Vocabulary {
  const size = Math.ceil(v.tokens.length / m) * m;
  for (let i = v.tokens.length; i < size; i++) {
    v.tokens.push(`dummy#${i}`);
    v.types.push(1);
  }
  return v;
}

function hashSeed(seed: number, name: string, stream: number): number {
  return fnv1a(name, seed ^ 0x9e3779b9 ^ Math.imul(stream, 0x85ebca6b));
}
