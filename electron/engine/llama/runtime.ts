// One llama.cpp runtime per process and GPU choice. node-llama-cpp picks its prebuilt binary
// (CPU, CUDA, Vulkan, Metal); we never build from source at run time.
import { getLlama, getLlamaGpuTypes, LlamaLogLevel, type Llama } from 'node-llama-cpp';
import type { GpuInfo } from '../../../shared/api/model-types';
import { ExpectedError } from '../../../shared/api/errors';

export type GpuChoice = 'auto' | 'cuda' | 'vulkan' | 'metal' | 'cpu';
export const GPU_CHOICES: readonly GpuChoice[] = ['auto', 'cuda', 'vulkan', 'metal', 'cpu'];

const runtimes = new Map<GpuChoice, Promise<Llama>>();

/** llama.cpp's recent log lines (warnings and errors), kept instead of printed: a failed load is
 * explained with them, and a CLI or UI is not flooded with native log output. */
const recentLog: string[] = [];
const LOG_LINES = 40;

export function takeRecentLlamaLog(): string[] {
  return recentLog.splice(0, recentLog.length);
}

export function getRuntime(gpu: GpuChoice = 'auto'): Promise<Llama> {
  let runtime = runtimes.get(gpu);
  if (!runtime) {
    runtime = openRuntime(gpu);
    runtimes.set(gpu, runtime);
    runtime.catch(() => runtimes.delete(gpu));
  }
  return runtime;
}

/**
 * Whether a GPU backend node-llama-cpp loaded has a device to run on. A machine with the Vulkan loader and
 * Mesa's drivers but no GPU (many Linux desktops and servers) loads the Vulkan binary with no device: every
 * layer then runs on the CPU anyway, through the prebuilt binding, without the fast read the patched CPU
 * build has (build/fast-scorer.mjs). `auto` takes the CPU there.
 */
export function gpuUsable(found: { gpu: Llama['gpu']; devices: readonly string[]; vramTotal: number }): boolean {
  return found.gpu === false || (found.devices.length > 0 && found.vramTotal > 0);
}

async function openRuntime(gpu: GpuChoice): Promise<Llama> {
  const llama = await loadRuntime(gpu);
  if (gpu !== 'auto' || llama.gpu === false) return llama;
  const devices = await llama.getGpuDeviceNames().catch(() => [] as string[]);
  const vram = await llama.getVramState().catch(() => ({ total: 0 }));
  if (gpuUsable({ gpu: llama.gpu, devices, vramTotal: vram.total })) return llama;
  await llama.dispose();
  recentLog.push(`llama.cpp's ${llama.gpu} backend found no device: running on the CPU`);
  return getRuntime('cpu');
}

async function loadRuntime(gpu: GpuChoice): Promise<Llama> {
  try {
    return await getLlama({
      gpu: gpu === 'cpu' ? false : gpu,
      build: 'never',
      logLevel: LlamaLogLevel.warn,
      logger: (_level, message) => {
        recentLog.push(message.trim());
        if (recentLog.length > LOG_LINES) recentLog.shift();
      },
      progressLogs: false,
    });
  } catch (e) {
    const supported = await getLlamaGpuTypes('supported').catch(() => []);
    throw new ExpectedError(
      'GPU_UNAVAILABLE',
      `cannot start llama.cpp with --gpu ${gpu}: ${(e as Error).message}. ` +
        `Backends available on this machine: ${['cpu', ...supported.filter(Boolean)].join(', ')}; use --gpu auto to pick one.`,
    );
  }
}

/** The llama.cpp backend of a runtime, in words ('CPU', 'CUDA', 'Vulkan', 'Metal'). */
export function backendOf(gpu: Llama['gpu']): string {
  return gpu === false ? 'CPU' : gpu === 'cuda' ? 'CUDA' : gpu === 'vulkan' ? 'Vulkan' : gpu === 'metal' ? 'Metal' : String(gpu);
}

/** The read path of a runtime (its binding has the patched calls or not), without a model: the Models view. */
export function runtimeReadPath(llama: Llama): { path: 'fast read' | 'confidence'; why: string } {
  const backend = backendOf(llama.gpu);
  // The patched binding's context class carries the two calls (LlamaContext.supportsTokenLogprob reads the same).
  const context = (llama as unknown as { _bindings?: { AddonContext?: { prototype?: Record<string, unknown> } } })._bindings?.AddonContext?.prototype;
  if (typeof context?.getTokenLogprob === 'function' && typeof context.copySequenceCells === 'function')
    return { path: 'fast read', why: `node-llama-cpp's ${backend} binding here is built from its patched sources (npm run build:fast-scorer)` };
  return {
    path: 'confidence',
    why:
      `the ${backend} binding in use is node-llama-cpp's prebuilt one, which lacks the fast read; ` +
      `\`npm run build:fast-scorer\` builds it for this machine's backend (docs/scoring-speed.md)`,
  };
}

export async function gpuInfo(gpu: GpuChoice = 'auto'): Promise<GpuInfo> {
  const llama = await getRuntime(gpu);
  const supported = (await getLlamaGpuTypes('supported')).filter((t): t is Exclude<typeof t, false> => Boolean(t));
  const vram = llama.gpu ? await llama.getVramState() : undefined;
  return {
    type: llama.gpu,
    supported: ['cpu', ...supported],
    devices: llama.gpu ? await llama.getGpuDeviceNames() : [],
    vramTotal: vram?.total ?? null,
    vramFree: vram?.free ?? null,
    scoringRead: runtimeReadPath(llama),
  };
}
