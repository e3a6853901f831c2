// Dense request embeddings for task routing (paper D.1 embeds requests with a frozen sentence encoder):
// a GGUF's embeddings through node-llama-cpp's embedding context — a sentence encoder (`--embed minilm`:
// all-MiniLM-L6-v2, mean-pooled) or a model's own (`--embed model`: by default the serving model, a decoder
// LLM) — L2-normalised so the router's cosine k-means applies.
import { Embedder } from '../llama/embed';
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
  const embedder = await Embedder.open(modelPath, {
    gpu: options.gpu ?? 'auto',
    ...(options.threads !== undefined ? { threads: options.threads } : {}),
    ...(options.signal ? { signal: options.signal } : {}),
  });
  try {
    const { vectors } = await embedder.embed(texts, {
      ...(options.onProgress ? { onProgress: options.onProgress } : {}),
      ...(options.signal ? { signal: options.signal } : {}),
    });
    return { vectors, dimensions: vectors[0]?.length ?? embedder.dimensions, seconds: (performance.now() - started) / 1000 };
  } finally {
    await embedder.close();
  }
}
