// A sentence-transformers BERT folder (config.json, tokenizer.json, model.safetensors, modules.json and
// its Pooling config) as a llama.cpp `bert` GGUF, written the way llama.cpp's own converter
// (convert_hf_to_gguf.py, BertModel, with gguf-py's SpecialVocab) writes one, so that node-llama-cpp's
// embedding context runs it: the same metadata keys and values, the same tensor names, F32 throughout.
//
// - Vocabulary: WordPiece as the "phantom space" list llama.cpp's WPM tokenizer expects: a control token
//   (the tokenizer's special added tokens: [PAD], [UNK], [CLS], [SEP], [MASK]) unchanged, a "##x"
//   continuation as "x", every other token with a "\u2581" word-start prefix.
// - Special tokens as SpecialVocab derives them: BOS = CLS and EOS = SEP when the tokenizer names no
//   BOS/EOS, add_bos/add_eos from the post-processor's single template ([CLS] A [SEP]).
// - Tensors: HF Linear weights are [out, in] row-major, which is ggml's ne = [in, out] with the same bytes,
//   so nothing is transposed; the pooler and position_ids are dropped as the converter drops them.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { SafetensorsFile } from './safetensors';
import { TOKEN_TYPE } from './vocabulary';
import { gguf, type GgufFile, type GgufTensor, type GgufValue } from './writer';
import { ExpectedError } from '../../../shared/api/errors';

/** llama.cpp pooling types (llama.h: LLAMA_POOLING_TYPE_*). */
export const POOLING = { mean: 1, cls: 2, last: 3 } as const;

export interface BertConversion {
  file: GgufFile;
  layers: number;
  embedding: number;
  vocabulary: number;
  pooling: keyof typeof POOLING;
  /** Whether the sentence-transformers pipeline ends in a Normalize module (we L2-normalise anyway). */
  normalized: boolean;
}

interface BertConfig {
  architectures?: string[];
  model_type?: string;
  hidden_size: number;
  num_hidden_layers: number;
  num_attention_heads: number;
  intermediate_size: number;
  max_position_embeddings: number;
  layer_norm_eps?: number;
  type_vocab_size?: number;
  hidden_act?: string;
  position_embedding_type?: string;
  vocab_size: number;
  _name_or_path?: string;
}

type TemplatePiece = { SpecialToken?: { id: string }; Sequence?: { id: string } };

interface TokenizerJson {
  model?: { type?: string; vocab?: Record<string, number> };
  added_tokens?: { id: number; content: string; special?: boolean }[];
  normalizer?: { type?: string; lowercase?: boolean; strip_accents?: boolean | null; normalizers?: TokenizerJson['normalizer'][] } | null;
  post_processor?: { type?: string; single?: TemplatePiece[]; pair?: TemplatePiece[] } | null;
}

function readJson<T>(dir: string, name: string, required: true): T;
function readJson<T>(dir: string, name: string, required: false): T | null;
function readJson<T>(dir: string, name: string, required: boolean): T | null {
  let text: string;
  try {
    text = readFileSync(join(dir, name), 'utf8');
  } catch {
    if (required) throw new ExpectedError('NO_GGUF', `${dir} has no ${name}: it is not a sentence-transformers BERT folder`);
    return null;
  }
  try {
    return JSON.parse(text) as T;
  } catch (e) {
    throw new ExpectedError('ARCHIVE_CORRUPT', `${join(dir, name)} is not JSON: ${(e as Error).message}`);
  }
}

/** The pooling the sentence-transformers pipeline applies (modules.json → its Pooling config), as the converter reads it. */
function poolingOf(dir: string): { pooling: keyof typeof POOLING; normalized: boolean } {
  const modules = readJson<{ type: string; path: string }[]>(dir, 'modules.json', false) ?? [];
  const normalized = modules.some((m) => m.type.endsWith('Normalize'));
  const pool = modules.find((m) => m.type.endsWith('Pooling'));
  if (!pool) throw new ExpectedError('NO_GGUF', `${dir}/modules.json names no Pooling module: the sentence embedding's pooling is unknown`);
  const cfg = readJson<Record<string, unknown>>(join(dir, pool.path), 'config.json', true);
  if (cfg.pooling_mode_mean_tokens) return { pooling: 'mean', normalized };
  if (cfg.pooling_mode_cls_token) return { pooling: 'cls', normalized };
  if (cfg.pooling_mode_lasttoken) return { pooling: 'last', normalized };
  throw new ExpectedError('NO_GGUF', `${dir}/${pool.path}/config.json asks for a pooling llama.cpp does not run (mean, cls and last token only)`);
}

function lowercaseOf(n: TokenizerJson['normalizer']): boolean | null {
  if (!n) return null;
  if (n.type === 'Lowercase') return true;
  if (n.type === 'BertNormalizer' && typeof n.lowercase === 'boolean') return n.lowercase;
  if (n.type === 'Sequence') for (const m of n.normalizers ?? []) if (lowercaseOf(m) !== null) return lowercaseOf(m);
  return null;
}

/** Whether a separator goes between a pair's two texts, as gguf-py reads the pair template ([CLS] A [SEP] B [SEP]:
 * no extra separator, the single template's end token already closes A); null without a pair template. */
function addSep(pair: readonly TemplatePiece[], first: string | undefined, last: string | undefined, seps: (string | undefined)[]): boolean | null {
  const start = first !== undefined && pair[0]?.SpecialToken?.id === first ? 1 : 0;
  const stop = last !== undefined && pair.at(-1)?.SpecialToken?.id === last ? pair.length - 1 : pair.length;
  const inner = pair.slice(start, stop);
  if (inner.length < 3 || inner[0]?.Sequence?.id !== 'A' || inner.at(-1)?.Sequence?.id !== 'B') return null;
  const middle = inner.slice(1, -1).map((p) => p.SpecialToken?.id);
  let add = middle[0] !== undefined && seps.includes(middle[0]) && last === undefined;
  if (middle.length === 2 && middle[1] !== undefined && seps.includes(middle[1])) add = true;
  return add;
}

/** Converts the folder; reads every tensor once (F32, F16 or BF16 in, F32 out). */
export function convertBertFolder(dir: string, name?: string): BertConversion {
  const config = readJson<BertConfig>(dir, 'config.json', true);
  const isBert = config.model_type === 'bert' || (config.architectures ?? []).some((a) => a === 'BertModel' || a === 'BertForMaskedLM');
  if (!isBert)
    throw new ExpectedError(
      'NO_GGUF',
      `${dir}/config.json describes a ${config.model_type ?? 'model'} (${(config.architectures ?? []).join(', ')}), not a BERT`,
    );
  if ((config.position_embedding_type ?? 'absolute') !== 'absolute' || (config.hidden_act ?? 'gelu') !== 'gelu')
    throw new ExpectedError('NO_GGUF', `${dir}: only BERTs with absolute positions and GELU convert (llama.cpp's bert)`);
  const tokenizer = readJson<TokenizerJson>(dir, 'tokenizer.json', true);
  if (tokenizer.model?.type !== 'WordPiece' || !tokenizer.model.vocab)
    throw new ExpectedError('NO_GGUF', `${dir}/tokenizer.json is a ${tokenizer.model?.type ?? 'unknown'} tokenizer; llama.cpp's bert reads WordPiece`);
  const tokConfig = readJson<Record<string, unknown>>(dir, 'tokenizer_config.json', false) ?? {};
  const { pooling, normalized } = poolingOf(dir);

  // Tokens by id; ids the vocabulary skips become [PADn] (user-defined), as the converter pads them.
  const added = new Map((tokenizer.added_tokens ?? []).map((t) => [t.id, t]));
  const byId = new Map<number, string>();
  for (const [text, id] of Object.entries(tokenizer.model.vocab)) byId.set(id, text);
  for (const t of added.values()) byId.set(t.id, t.content);
  const size = Math.max(config.vocab_size, byId.size);
  const tokens: string[] = [];
  const types: number[] = [];
  for (let id = 0; id < size; id++) {
    const text = byId.get(id);
    const a = added.get(id);
    const type = text === undefined ? TOKEN_TYPE.userDefined : a ? (a.special ? TOKEN_TYPE.control : TOKEN_TYPE.userDefined) : TOKEN_TYPE.normal;
    const raw = text ?? `[PAD${id}]`;
    tokens.push(type === TOKEN_TYPE.control ? raw : raw.startsWith('##') ? raw.slice(2) : `\u2581${raw}`);
    types.push(type);
  }

  // Special ids as gguf-py's SpecialVocab finds them: the tokenizer_config's names looked up among the added
  // tokens; BOS/EOS default to CLS/SEP; config.json's *_token_id fill what is still missing.
  const specialName = (key: string): string | undefined => {
    const v = tokConfig[`${key}_token`];
    return typeof v === 'string'
      ? v
      : typeof v === 'object' && v !== null && typeof (v as { content?: unknown }).content === 'string'
        ? (v as { content: string }).content
        : undefined;
  };
  const names: Record<string, string | undefined> = {};
  for (const key of ['bos', 'eos', 'unk', 'sep', 'pad', 'cls', 'mask']) names[key] = specialName(key);
  names.bos ??= names.cls;
  names.eos ??= names.sep;
  const single = tokenizer.post_processor?.type === 'TemplateProcessing' ? (tokenizer.post_processor.single ?? []) : [];
  const first = single.length > 1 ? single[0]?.SpecialToken?.id : undefined;
  const last = single.length > 1 ? single.at(-1)?.SpecialToken?.id : undefined;
  const ids: Record<string, number> = {};
  for (const [key, text] of Object.entries(names)) {
    const t = text === undefined ? undefined : [...added.values()].find((x) => x.content === text);
    if (t) ids[key] = t.id;
    else if (typeof (config as unknown as Record<string, unknown>)[`${key}_token_id`] === 'number')
      ids[key] = (config as unknown as Record<string, number>)[`${key}_token_id`]!;
  }
  for (const key of ['cls', 'sep', 'unk']) {
    if (ids[key] === undefined) throw new ExpectedError('NO_GGUF', `${dir}: the tokenizer names no ${key.toUpperCase()} token; llama.cpp's bert needs one`);
  }

  const d = config.hidden_size;
  const metadata: Array<[string, GgufValue]> = [
    ['general.architecture', gguf.str('bert')],
    ['general.type', gguf.str('model')],
    ['general.name', gguf.str(name ?? config._name_or_path ?? 'bert')],
    ['general.file_type', gguf.u32(0)], // all F32
    ['general.quantization_version', gguf.u32(2)],
    ['general.alignment', gguf.u32(32)],
    ['bert.block_count', gguf.u32(config.num_hidden_layers)],
    ['bert.context_length', gguf.u32(config.max_position_embeddings)],
    ['bert.embedding_length', gguf.u32(d)],
    ['bert.feed_forward_length', gguf.u32(config.intermediate_size)],
    ['bert.attention.head_count', gguf.u32(config.num_attention_heads)],
    ['bert.attention.layer_norm_epsilon', gguf.f32(config.layer_norm_eps ?? 1e-12)],
    ['bert.attention.causal', gguf.bool(false)],
    ['bert.pooling_type', gguf.u32(POOLING[pooling])],
    ['tokenizer.ggml.token_type_count', gguf.u32(config.type_vocab_size ?? 1)],
    ['tokenizer.ggml.model', gguf.str('bert')],
    // llama.cpp's converter names the uncased BERT vocabulary's pre-tokenizer so; its WPM tokenizer reads no pre-tokenizer.
    ['tokenizer.ggml.pre', gguf.str('bert-bge')],
    ['tokenizer.ggml.tokens', gguf.strings(tokens)],
    ['tokenizer.ggml.token_type', gguf.i32s(types)],
  ];
  const KEY: Record<string, string> = {
    bos: 'bos_token_id',
    eos: 'eos_token_id',
    unk: 'unknown_token_id',
    sep: 'seperator_token_id', // sic: gguf-py's key
    pad: 'padding_token_id',
    cls: 'cls_token_id',
    mask: 'mask_token_id',
  };
  for (const key of ['bos', 'eos', 'unk', 'sep', 'pad', 'cls', 'mask']) {
    if (ids[key] !== undefined) metadata.push([`tokenizer.ggml.${KEY[key]}`, gguf.u32(ids[key])]);
  }
  if (first !== undefined) metadata.push(['tokenizer.ggml.add_bos_token', gguf.bool(first === names.bos || first === names.cls)]);
  if (last !== undefined) metadata.push(['tokenizer.ggml.add_eos_token', gguf.bool(last === names.eos)]);
  const sep = addSep(tokenizer.post_processor?.pair ?? [], first, last, [names.sep, names.eos]);
  if (sep !== null) metadata.push(['tokenizer.ggml.add_sep_token', gguf.bool(sep)]);
  const lowercase = lowercaseOf(tokenizer.normalizer);
  if (lowercase !== null) metadata.push(['tokenizer.ggml.normalizer.lowercase', gguf.bool(lowercase)]);

  const st = SafetensorsFile.open(join(dir, 'model.safetensors'));
  try {
    const prefix = st.entries.has('bert.embeddings.word_embeddings.weight') ? 'bert.' : '';
    const tensors: GgufTensor[] = [];
    const add = (to: string, from: string, dims: number[]): void => {
      const e = st.entries.get(prefix + from);
      if (!e) throw new ExpectedError('NO_GGUF', `${dir}/model.safetensors has no ${prefix + from}`);
      const want = [...dims].reverse();
      if (e.shape.length !== want.length || e.shape.some((x, i) => x !== want[i]))
        throw new ExpectedError('NO_GGUF', `${prefix + from} is ${e.shape.join('×')}, config.json implies ${want.join('×')}`);
      tensors.push({ name: to, dims, data: st.readF32(prefix + from) });
    };
    const V = config.vocab_size;
    const ff = config.intermediate_size;
    add('token_embd.weight', 'embeddings.word_embeddings.weight', [d, V]);
    add('token_types.weight', 'embeddings.token_type_embeddings.weight', [d, config.type_vocab_size ?? 1]);
    add('position_embd.weight', 'embeddings.position_embeddings.weight', [d, config.max_position_embeddings]);
    add('token_embd_norm.weight', 'embeddings.LayerNorm.weight', [d]);
    add('token_embd_norm.bias', 'embeddings.LayerNorm.bias', [d]);
    for (let l = 0; l < config.num_hidden_layers; l++) {
      const hf = `encoder.layer.${l}.`;
      const linear = (to: string, from: string, inDim: number, outDim: number) => {
        add(`blk.${l}.${to}.weight`, `${hf}${from}.weight`, [inDim, outDim]);
        add(`blk.${l}.${to}.bias`, `${hf}${from}.bias`, [outDim]);
      };
      linear('attn_q', 'attention.self.query', d, d);
      linear('attn_k', 'attention.self.key', d, d);
      linear('attn_v', 'attention.self.value', d, d);
      linear('attn_output', 'attention.output.dense', d, d);
      add(`blk.${l}.attn_output_norm.weight`, `${hf}attention.output.LayerNorm.weight`, [d]);
      add(`blk.${l}.attn_output_norm.bias`, `${hf}attention.output.LayerNorm.bias`, [d]);
      linear('ffn_up', 'intermediate.dense', d, ff);
      linear('ffn_down', 'output.dense', ff, d);
      add(`blk.${l}.layer_output_norm.weight`, `${hf}output.LayerNorm.weight`, [d]);
      add(`blk.${l}.layer_output_norm.bias`, `${hf}output.LayerNorm.bias`, [d]);
    }
    if (tensors[0]!.dims[1] !== size) throw new ExpectedError('NO_GGUF', `${dir}: the tokenizer has ${size} tokens, the embedding ${V} rows`);
    return { file: { metadata, tensors }, layers: config.num_hidden_layers, embedding: d, vocabulary: size, pooling, normalized };
  } finally {
    st.close();
  }
}
