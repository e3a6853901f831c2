// Reading a model file before loading it: existence, GGUF header, architecture, size, and whether it
// fits this machine (GgufInsights' estimate). Errors name the file and what to do.
import { statSync } from 'node:fs';
import { basename, resolve } from 'node:path';
import { GgufFileType, GgufInsights, readGgufFileInfo, type GgufFileInfo, type Llama } from 'node-llama-cpp';
import type { ModelFit, ModelInfo } from '../../../shared/api/model-types';

import { getRuntime, type GpuChoice } from './runtime';
import { ExpectedError } from '../../../shared/api/errors';

/** Check the path names a readable file; returns its absolute path and size. */
export function checkModelPath(path: string): { path: string; size: number } {
  const abs = resolve(path);
  let st;
  try {
    st = statSync(abs);
  } catch {
    throw new ExpectedError('MODEL_NOT_FOUND', `model file not found: ${abs}. Check the path, or pick a .gguf file that exists.`);
  }
  if (!st.isFile()) throw new ExpectedError('MODEL_NOT_FOUND', `${abs} is not a file; pass the path of a .gguf model file.`);
  return { path: abs, size: st.size };
}

/** Parse the GGUF header (metadata and tensor table); a file that is not GGUF is MODEL_CORRUPT. */
export async function readModelHeader(path: string): Promise<GgufFileInfo> {
  const { path: abs, size } = checkModelPath(path);
  try {
    return await readGgufFileInfo(abs, { readTensorInfo: true, logWarnings: false });
  } catch (e) {
    throw new ExpectedError(
      'MODEL_CORRUPT',
      `${abs} (${size} bytes) is not a readable GGUF model: ${(e as Error).message}. ` +
        'The file may be truncated (an interrupted download) or not a GGUF file; download it again or pick another.',
    );
  }
}

/** describeModel with the runtime of a GPU choice (what the Models view calls). */
export async function inspectModel(path: string, options: { gpu?: GpuChoice; contextSize?: number } = {}): Promise<ModelInfo> {
  checkModelPath(path);
  return describeModel(path, await getRuntime(options.gpu ?? 'auto'), { contextSize: options.contextSize });
}

/** What the Models view and `lots score` show about a model, with a fit estimate for `contextSize`. */
export async function describeModel(path: string, llama: Llama, options: { contextSize?: number } = {}): Promise<ModelInfo> {
  const { path: abs, size } = checkModelPath(path);
  const info = await readModelHeader(abs);
  const insights = await GgufInsights.from(info, llama);
  const general = info.metadata.general;
  const archMeta = info.architectureMetadata as { context_length?: number; block_count?: number };
  const tokens = (info.metadata.tokenizer as { ggml?: { tokens?: readonly string[] } } | undefined)?.ggml?.tokens;
  return {
    path: abs,
    name: typeof general?.name === 'string' && general.name ? general.name : basename(abs),
    sizeBytes: size,
    architecture: general?.architecture ?? null,
    contextLength: archMeta.context_length ?? null,
    parameters: formatCount(insights.totalParameters),
    quantization: general?.file_type !== undefined ? (GgufFileType[general.file_type] ?? null) : null,
    // Transformer blocks; GgufInsights.totalLayers also counts the output layer (an offload unit).
    layers: archMeta.block_count ?? insights.totalLayers,
    vocabularySize: tokens?.length ?? null,
    fit: await estimateFit(insights, llama, options.contextSize),
  };
}

export async function estimateFit(insights: GgufInsights, llama: Llama, contextSize?: number): Promise<ModelFit> {
  if (!insights.isSupportedByLlamaCpp) {
    return {
      fits: false,
      gpuLayers: null,
      contextSize: null,
      ramBytes: null,
      vramBytes: null,
      note: 'this architecture is not supported by the bundled llama.cpp',
    };
  }
  try {
    const r = await insights.configurationResolver.resolveAndScoreConfig({ targetContextSize: contextSize });
    const v = r.resolvedValues;
    const fits = r.compatibilityScore > 0;
    const where = llama.gpu ? `${v.gpuLayers}/${insights.totalLayers} layers on ${llama.gpu}` : 'CPU only';
    return {
      fits,
      gpuLayers: v.gpuLayers,
      contextSize: v.contextSize,
      ramBytes: v.totalRamUsage,
      vramBytes: v.totalVramUsage,
      note: fits
        ? `fits (${where}, context ${v.contextSize} tokens, ~${formatBytes(v.totalRamUsage)} RAM, ~${formatBytes(v.totalVramUsage)} VRAM)`
        : `does not fit this machine${contextSize ? ` with a ${contextSize}-token context` : ''} (needs ~${formatBytes(v.totalRamUsage)} RAM, ~${formatBytes(v.totalVramUsage)} VRAM); pick a smaller or more quantized model`,
    };
  } catch (e) {
    return { fits: null, gpuLayers: null, contextSize: null, ramBytes: null, vramBytes: null, note: `fit unknown: ${(e as Error).message}` };
  }
}

export function formatBytes(n: number): string {
  if (n < 1024) return `${n} B`;
  const units = ['KiB', 'MiB', 'GiB', 'TiB'];
  let v = n / 1024;
  let u = 0;
  while (v >= 1024 && u < units.length - 1) {
    v /= 1024;
    u++;
  }
  return `${v.toFixed(v < 10 ? 1 : 0)} ${units[u]}`;
}

function formatCount(n: number): string {
  if (n >= 1e9) return `${(n / 1e9).toFixed(1)}B`;
  if (n >= 1e6) return `${(n / 1e6).toFixed(1)}M`;
  if (n >= 1e3) return `${(n / 1e3).toFixed(1)}K`;
  return String(n);
}
