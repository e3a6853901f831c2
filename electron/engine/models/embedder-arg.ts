// `--embed` of the commands whose methods embed text (the Dense and Tool2Vec baselines of `lots evaluate`
// and `lots demo`; `lots route` adds tfidf): which model's embeddings they use.
//   minilm  the sentence encoder all-MiniLM-L6-v2 (SENTENCE_ENCODER_SOURCE, a GGUF once pulled);
//   model   the serving model's own embeddings (a decoder LLM's hidden state: what ran before the encoder);
//   auto    minilm when it is in the models folder, else model (the default; each method's note says which ran);
//   else    a GGUF file or a pulled source, taken as a sentence encoder.
import { resolveModelArg } from './model-arg';
import { findPulled, modelsDir } from './model-dir';
import { parseModelSource, SENTENCE_ENCODER_SOURCE, sourceKey } from './sources';

export const EMBEDDER_NAMES = ['auto', 'minilm', 'model'] as const;

/** What embeds: a sentence-encoder GGUF, or the serving model itself. */
export type EmbedderChoice = { kind: 'encoder'; path: string } | { kind: 'serving' };

/** The pulled sentence encoder's file, or null. */
export function pulledSentenceEncoder(): string | null {
  return findPulled(modelsDir(), sourceKey(parseModelSource(SENTENCE_ENCODER_SOURCE)))?.path ?? null;
}

/** Resolves `--embed` (default auto). `minilm` that is not pulled throws MODEL_NOT_PULLED with the command to run. */
export function resolveEmbedderArg(arg = 'auto'): EmbedderChoice {
  if (arg === 'model') return { kind: 'serving' };
  if (arg === 'auto') {
    const path = pulledSentenceEncoder();
    return path ? { kind: 'encoder', path } : { kind: 'serving' };
  }
  return { kind: 'encoder', path: resolveModelArg(arg === 'minilm' ? SENTENCE_ENCODER_SOURCE : arg) };
}
