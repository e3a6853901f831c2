// Dense request embeddings for task routing (paper D.1 embeds requests with a frozen sentence encoder):
// a GGUF's own embeddings through node-llama-cpp's embedding context — by default the serving model
// itself, a decoder LLM, not a sentence encoder — L2-normalised so the router's cosine k-means applies.
import { createEmbeddings, embedTexts } from '../llama/embed';
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
    const longestTokens = Math.max(1, ...texts.map((t) => model.tokenize(t).length));
    const context = await createEmbeddings(model, { longestTokens, ...(options.threads !== undefined ? { threads: options.threads } : {}) });
    try {
      const { vectors } = await embedTexts(model, context, texts, options);
      return { vectors, dimensions: vectors[0]?.length ?? 0, seconds: (performance.now() - started) / 1000 };
    } finally {
      await context.dispose();
    }
  } finally {
    await model.dispose();
  }
}
