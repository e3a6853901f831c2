// A loaded GGUF's own embeddings through node-llama-cpp's embedding context, L2-normalised (task routing,
// the Dense and Tool2Vec baselines). Each distinct text is embedded once per call.
import type { LlamaEmbeddingContext, LlamaModel } from 'node-llama-cpp';
import { ExpectedError } from '../../../shared/api/errors';

export interface EmbedTextsOptions {
  onProgress?: (done: number, total: number) => void;
  signal?: AbortSignal;
}

export interface EmbeddingContextOptions {
  /** The longest text to embed, in tokens (sizes the context). */
  longestTokens: number;
  threads?: number;
}

export async function createEmbeddings(model: LlamaModel, options: EmbeddingContextOptions): Promise<LlamaEmbeddingContext> {
  const contextSize = Math.min(model.trainContextSize, Math.max(512, Math.ceil((options.longestTokens + 16) / 256) * 256));
  // node-llama-cpp's embedding context defaults to 6 threads, which on a machine with fewer cores spin
  // against each other (a tiny model took 1.3 s a request on 2 cores): all math cores but one, as serving.
  const threads = options.threads ?? Math.max(1, model.llama.cpuMathCores - 1);
  return model.createEmbeddingContext({ contextSize, threads });
}

/** Unit vectors of `texts` (in order) and the tokens read. */
export async function embedTexts(
  model: LlamaModel,
  context: LlamaEmbeddingContext,
  texts: readonly string[],
  options: EmbedTextsOptions = {},
): Promise<{ vectors: Float64Array[]; tokens: number }> {
  // Templated streams repeat request texts (the built-in benchmark: 2,683 distinct of 4,000): each is embedded once.
  const seen = new Map<string, Float64Array>();
  const vectors: Float64Array[] = [];
  let tokens = 0;
  for (const text of texts) {
    options.signal?.throwIfAborted();
    let v = seen.get(text);
    if (!v) {
      const { vector } = await context.getEmbeddingFor(text);
      if (vector.length === 0) throw new ExpectedError('INVALID_INPUT', `a text has no content to embed (text ${vectors.length + 1} of ${texts.length})`);
      tokens += model.tokenize(text).length;
      seen.set(text, (v = unit(vector)));
    }
    vectors.push(v);
    options.onProgress?.(vectors.length, texts.length);
  }
  return { vectors, tokens };
}

function unit(v: readonly number[]): Float64Array {
  let n = 0;
  for (const x of v) n += x * x;
  const norm = Math.sqrt(n) || 1;
  return Float64Array.from(v, (x) => x / norm);
}
