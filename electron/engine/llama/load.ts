// Load a model and create contexts with errors a user can act on: missing file, corrupt GGUF, an
// architecture llama.cpp does not know, a model or context that does not fit in memory.
import { GgufInsights, InsufficientMemoryError, type Llama, type LlamaContext, type LlamaModel } from 'node-llama-cpp';
import { oneSequencePerBatch } from './batching';

import { checkModelPath, estimateFit, formatBytes, readModelHeader } from './model-file';
import { getRuntime, takeRecentLlamaLog, type GpuChoice } from './runtime';
import { ExpectedError } from '../../../shared/api/errors';

export interface LoadModelOptions {
  gpu?: GpuChoice;
  /** Layers to offload: 'auto' fits what the free VRAM allows (default). */
  gpuLayers?: 'auto' | 'max' | number;
  signal?: AbortSignal;
  onProgress?: (fraction: number) => void;
  /** Context the caller will need (checked in the fit estimate). */
  contextSize?: number;
  /** Flash attention of the model's contexts (default: llama.cpp decides). Off keeps attention in F32
   * (on a CPU, flash attention rounds K and V to F16): what a sentence encoder's embeddings use. */
  flashAttention?: boolean;
}

export interface LoadedModel {
  llama: Llama;
  model: LlamaModel;
  path: string;
}

export async function loadModel(path: string, options: LoadModelOptions = {}): Promise<LoadedModel> {
  const { path: abs, size } = checkModelPath(path);
  const header = await readModelHeader(abs);
  const llama = await getRuntime(options.gpu ?? 'auto');
  const insights = await GgufInsights.from(header, llama);
  if (!insights.isSupportedByLlamaCpp) {
    throw new ExpectedError(
      'MODEL_UNSUPPORTED',
      `${abs}: architecture "${String(header.metadata.general?.architecture)}" is not supported by this build of llama.cpp; pick another model.`,
    );
  }
  // llama.cpp does not check memory before a CPU load (it would map, then fail or swap); the
  // estimate says early and clearly when a model cannot fit this machine at all.
  const fit = await estimateFit(insights, llama, options.contextSize);
  if (fit.fits === false) throw new ExpectedError('MODEL_DOES_NOT_FIT', `${abs} (${formatBytes(size)}) ${fit.note}.`);
  takeRecentLlamaLog();
  try {
    const model = await llama.loadModel({
      modelPath: abs,
      gpuLayers: options.gpuLayers ?? 'auto',
      loadSignal: options.signal,
      onLoadProgress: options.onProgress,
      ...(options.flashAttention !== undefined ? { defaultContextFlashAttention: options.flashAttention } : {}),
    });
    return { llama, model, path: abs };
  } catch (e) {
    if (e instanceof InsufficientMemoryError) {
      throw new ExpectedError(
        'MODEL_DOES_NOT_FIT',
        `${abs} (${formatBytes(size)}) does not fit in this machine's memory: ${e.message}. Pick a smaller or more quantized model, or free memory.`,
      );
    }
    if (options.signal?.aborted) throw e;
    const why = takeRecentLlamaLog()
      .filter((l) => /error|fail|invalid|unknown|missing/i.test(l))
      .slice(-3);
    throw new ExpectedError(
      'MODEL_CORRUPT',
      `llama.cpp could not load ${abs}: ${(e as Error).message}${why.length ? ` (${why.join('; ')})` : ''}. The file may be damaged or incomplete; download it again or pick another.`,
    );
  }
}

export interface ScoringContextOptions {
  /** Tokens per sequence: at least the longest sequence to score. */
  contextSize: number;
  sequences: number;
  batchSize?: number;
  /** CPU threads; default: all math cores but one. ggml's worker threads spin while they wait, so
   * oversubscribed cores (other processes, a UI) slow a decode down by orders of magnitude. */
  threads?: number;
  /** Keep keys and values in F32 instead of F16: removes the rounding that turns tiny batch-order
   * differences into ~1e-4 log-prob noise, at twice the cache memory. */
  exactKvCache?: boolean;
}

export async function createScoringContext(model: LlamaModel, options: ScoringContextOptions): Promise<LlamaContext> {
  try {
    return await model.createContext({
      contextSize: options.contextSize,
      sequences: options.sequences,
      batchSize: options.batchSize,
      threads: options.threads ?? Math.max(1, model.llama.cpuMathCores - 1),
      // Identical numerics across runs matter more than the last few percent of speed.
      flashAttention: false,
      // Sliding-window models keep every cell: the scorer truncates the cache at the first changed
      // token and shares prefixes between sequences, and a windowed cache would have dropped the cells
      // both need (node-llama-cpp would then re-evaluate the whole sequence). The attention mask still
      // applies the window, so the numbers are those of the windowed model.
      swaFullCache: true,
      failedCreationRemedy: false,
      // One sequence a batch (llama/batching.ts): mixed batches corrupted results on this llama.cpp.
      batching: { itemPrioritizationStrategy: oneSequencePerBatch() },
      ...(options.exactKvCache ? { experimentalKvCacheKeyType: 'F32' as const, experimentalKvCacheValueType: 'F32' as const } : {}),
    });
  } catch (e) {
    if (e instanceof InsufficientMemoryError || /memory|alloc/i.test((e as Error).message)) {
      throw new ExpectedError(
        'MODEL_DOES_NOT_FIT',
        `a ${options.contextSize}-token context × ${options.sequences} sequences does not fit in memory with this model (${(e as Error).message}). ` +
          'Score fewer traces at once (--parallel) or use a smaller model.',
      );
    }
    throw e;
  }
}
