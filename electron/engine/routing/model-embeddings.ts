// Dense request embeddings for task routing (paper D.1 embeds requests with a frozen sentence encoder):
// a GGUF's own embeddings through node-llama-cpp's embedding context — by default the serving model
// itself, a decoder LLM, not a sentence encoder — L2-normalised so the router's cosine k-means applies.
import { ExpectedError } from '../../../shared/api/errors';
import { loadModel } from '../llama/load';
import type { GpuChoice } from '../llama/runtime';

export interface EmbedOptions {
  gpu?: GpuChoice;
  threads?: number;
  /** After each text. */
  onProgress?: (done: number, total: number) => void;
  signal?: AbortSignal;
}

export interface ModelEmbeddings {
  vectors: Float64Array[];
  /** The embedding width. */
  dimensions: number;
  seconds: number;
}

export async function embedWithModel(modelPath: string, texts: readonly string[], options: EmbedOptions = {}): Promise<ModelEmbeddings> {
  const started = performance.now();
  const { model } = await loadModel(modelPath, { gpu: options.gpu ?? 'auto', ...(options.signal ? { signal: options.signal } : {}) });
  try {
    const longest = Math.max(1, ...texts.map((t) => model.tokenize(t).length));
    const contextSize = Math.min(model.trainContextSize, Math.max(512, Math.ceil((longest + 16) / 256) * 256));
    // node-llama-cpp's embedding context defaults to 6 threads, which on a machine with fewer cores spin
    // against each other (a tiny model took 1.3 s a request on 2 cores): all math cores but one, as serving.
    const threads = options.threads ?? Math.max(1, model.llama.cpuMathCores - 1);
    const context = await model.createEmbeddingContext({ contextSize, threads });
    try {
      // Templated streams repeat request texts (the built-in benchmark: 2,683 distinct of 4,000): each is embedded once.
      const seen = new Map<string, Float64Array>();
      const vectors: Float64Array[] = [];
      for (const text of texts) {
        options.signal?.throwIfAborted();
        let v = seen.get(text);
        if (!v) {
          const { vector } = await context.getEmbeddingFor(text);
          if (vector.length === 0)
            throw new ExpectedError('INVALID_INPUT', `a request has no text to embed (request ${vectors.length + 1} of ${texts.length})`);
          seen.set(text, (v = unit(vector)));
        }
        vectors.push(v);
        options.onProgress?.(vectors.length, texts.length);
      }
      return { vectors, dimensions: vectors[0]?.length ?? 0, seconds: (performance.now() - started) / 1000 };
    } finally {
      await context.dispose();
    }
  } finally {
    await model.dispose();
  }
}

function unit(v: readonly number[]): Float64Array {
  let n = 0;
  for (const x of v) n += x * x;
  const norm = Math.sqrt(n) || 1;
  return Float64Array.from(v, (x) => x / norm);
}
