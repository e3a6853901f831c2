// Byte-level vocabularies for hand-built models, in the GPT-2 byte encoding llama.cpp's BPE
// tokenizer expects (`tokenizer.ggml.model = "gpt2"`). With no merges, every byte of the input is
// one token and token id b is byte b, which makes the fixtures' token sequences easy to read.

/** llama.cpp token types (llama.h: LLAMA_TOKEN_TYPE_*). */
export const TOKEN_TYPE = { normal: 1, control: 3, userDefined: 4 } as const;

export interface Vocabulary {
  tokens: string[];
  merges: string[];
  types: number[];
  /** Ids of the special (control) tokens by text. */
  special: Record<string, number>;
  bos: number;
  eos: number;
}

export interface VocabularyOptions {
  /** Control tokens after the 256 bytes; the first is BOS, the last is EOS (default `<|bos|>`, `<|endoftext|>`). */
  specials?: readonly string[];
  /** Text of the EOS token when it is not the last special (e.g. `<|im_end|>` for ChatML). */
  eos?: string;
  /** Pad with never-produced dummy tokens up to this size (exposes full-vocabulary costs). */
  size?: number;
  /** BPE merges ("Ġ 4": space + "4"); each adds its merged token after the specials. */
  merges?: readonly string[];
}

export function byteVocabulary(options: VocabularyOptions = {}): Vocabulary {
  const specials = options.specials ?? ['<|bos|>', '<|endoftext|>'];
  const byteText = gpt2ByteEncoder();
  const tokens: string[] = byteText.slice();
  const types: number[] = tokens.map(() => TOKEN_TYPE.normal);
  const special: Record<string, number> = {};
  for (const s of specials) {
    special[s] = tokens.length;
    tokens.push(s);
    types.push(TOKEN_TYPE.control);
  }
  for (const merge of options.merges ?? []) {
    const parts = merge.split(' ');
    if (parts.length !== 2) throw new Error(`a merge is two tokens separated by one space, got "${merge}"`);
    tokens.push(parts.join(''));
    types.push(TOKEN_TYPE.normal);
  }
  const size = options.size ?? tokens.length;
  if (size < tokens.length) throw new Error(`vocabulary size ${size} is smaller than the ${tokens.length} byte and special tokens`);
  // Dummy tokens are plain ASCII that no merge can build, so the tokenizer never emits them,
  // but every forward pass still computes (and every softmax still normalises over) their logits.
  for (let i = tokens.length; i < size; i++) {
    tokens.push(`dummy#${i}`);
    types.push(TOKEN_TYPE.normal);
  }
  const eosText = options.eos ?? specials[specials.length - 1]!;
  if (special[eosText] === undefined) throw new Error(`EOS token ${eosText} is not among the specials`);
  return { tokens, merges: [...(options.merges ?? [])], types, special, bos: special[specials[0]!]!, eos: special[eosText] };
}

/** GPT-2's bytes_to_unicode: printable bytes map to themselves, the rest to U+0100 onwards. */
function gpt2ByteEncoder(): string[] {
  const printable: number[] = [];
  for (let b = 0x21; b <= 0x7e; b++) printable.push(b);
  for (let b = 0xa1; b <= 0xac; b++) printable.push(b);
  for (let b = 0xae; b <= 0xff; b++) printable.push(b);
  const set = new Set(printable);
  const out: string[] = new Array<string>(256);
  let n = 0;
  for (let b = 0; b < 256; b++) out[b] = String.fromCodePoint(set.has(b) ? b : 256 + n++);
  return out;
}
