// Embeddings through node-llama-cpp's embedding context, L2-normalised (task routing, the Dense and Tool2Vec
// baselines): a loaded model's own (the serving GGUF's: a decoder LLM's hidden state), or a sentence
// encoder's (a BERT GGUF: mean pooling in llama.cpp, normalised here as sentence-transformers'
// Normalize module does). Each distinct text is embedded once per call.
import { basename } from 'node:path';
import type { LlamaEmbeddingContext, LlamaModel } from 'node-llama-cpp';
import { loadModel, type LoadedModel } from './load';
import type { GpuChoice } from './runtime';
import { ExpectedError } from '../../../shared/api/errors';

export interface EmbedTextsOptions {
  onProgress?: (done: number, total: number) => void;
  signal?: AbortSignal;
  /** Texts longer than this many tokens are cut to it (an encoder's position table ends there). */
  maxTokens?: number;
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
      const ids = model.tokenize(text);
      // The embedding context adds the model's own start and end tokens (an encoder's [CLS] and [SEP]).
      const input = options.maxTokens !== undefined && ids.length > options.maxTokens ? ids.slice(0, options.maxTokens) : text;
      const { vector } = await context.getEmbeddingFor(input);
      if (vector.length === 0) throw new ExpectedError('INVALID_INPUT', `a text has no content to embed (text ${vectors.length + 1} of ${texts.length})`);
      tokens += Math.min(ids.length, options.maxTokens ?? Infinity);
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

export interface OpenEmbedderOptions {
  gpu?: GpuChoice;
  threads?: number;
  signal?: AbortSignal;
}

/**
 * A GGUF loaded for embeddings only: a sentence encoder, or any model's own embeddings. Attention runs in
 * F32 (flash attention off), as the encoder was trained; the context grows with the longest text seen,
 * and a text longer than the model's context is cut to it (sentence-transformers truncates too).
 */
export class Embedder {
  private context: LlamaEmbeddingContext | undefined;
  private contextTokens = 0;

  private constructor(
    readonly loaded: LoadedModel,
    private readonly threads: number | undefined,
  ) {}

  static async open(path: string, options: OpenEmbedderOptions = {}): Promise<Embedder> {
    const loaded = await loadModel(path, { gpu: options.gpu ?? 'auto', flashAttention: false, ...(options.signal ? { signal: options.signal } : {}) });
    return new Embedder(loaded, options.threads);
  }

  get model(): LlamaModel {
    return this.loaded.model;
  }

  get fileName(): string {
    return basename(this.loaded.path);
  }

  /** The vector width. */
  get dimensions(): number {
    return this.model.embeddingVectorSize;
  }

  async embed(texts: readonly string[], options: EmbedTextsOptions = {}): Promise<{ vectors: Float64Array[]; tokens: number }> {
    // Room for the start and end tokens the context adds, and below the context size (node-llama-cpp refuses an input that fills it).
    const maxTokens = this.model.trainContextSize - 3;
    const longest = Math.min(maxTokens, Math.max(1, ...texts.map((t) => this.model.tokenize(t).length)));
    if (!this.context || this.contextTokens < longest) {
      await this.context?.dispose();
      this.context = await createEmbeddings(this.model, { longestTokens: longest, ...(this.threads !== undefined ? { threads: this.threads } : {}) });
      this.contextTokens = longest;
    }
    return embedTexts(this.model, this.context, texts, { ...options, maxTokens });
  }

  async close(): Promise<void> {
    await this.context?.dispose();
    this.context = undefined;
    await this.model.dispose();
  }
}
