// The models folder: pulled GGUF files, each with a manifest beside it (`<file>.source.json`) that
// says where it came from, its sha256 and size. Listing reads headers only, never weights.
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { readGgufFileInfo, resolveChatWrapper, type GgufFileInfo } from 'node-llama-cpp';
import type { PulledModel } from '../../../shared/api/model-types';
import { writeJsonAtomic } from '../store/atomic';
import { processAlive } from '../store/lock';
import { defaultConfigDir } from '../user-data/config-dir';
import { scoringWrapperSettings, thinkingState } from '../scoring/chat-template';

export interface ModelManifest {
  v: 1;
  source: string;
  file: string;
  sha256: string;
  sizeBytes: number;
  pulledAt: string;
  /** The packages (name==version) a pypi: source was assembled from, in assembly order. */
  packages?: string[];
  /** How the file was made from what the packages carry, when it was converted here (a sentence encoder). */
  converted?: string;
}

/** A GGUF in the models folder, as the Models view and `lots models list` show it. */
export type ListedModel = PulledModel;

export function modelsDir(): string {
  return process.env.LOTS_MODELS_DIR || join(defaultConfigDir(), 'models');
}

export function manifestPath(dir: string, file: string): string {
  return join(dir, `${file}.source.json`);
}

export function writeManifest(dir: string, manifest: ModelManifest): void {
  writeJsonAtomic(manifestPath(dir, manifest.file), manifest);
}

export function readManifests(dir: string): ModelManifest[] {
  if (!existsSync(dir)) return [];
  const out: ModelManifest[] = [];
  for (const name of readdirSync(dir)) {
    if (!name.endsWith('.gguf.source.json')) continue;
    try {
      const m = JSON.parse(readFileSync(join(dir, name), 'utf8')) as ModelManifest;
      if (m && m.v === 1 && typeof m.source === 'string' && typeof m.file === 'string') out.push(m);
    } catch {
      // a damaged manifest only loses the "source" column; the model is still listed
    }
  }
  return out;
}

/** A pulled model whose file is still there, whole (its size matches the manifest). */
export function findPulled(dir: string, key: string): { path: string; manifest: ModelManifest } | null {
  for (const m of readManifests(dir)) {
    if (m.source !== key) continue;
    const path = join(dir, m.file);
    try {
      if (statSync(path).size === m.sizeBytes) return { path, manifest: m };
    } catch {
      // pulled once, deleted since
    }
  }
  return null;
}

/** Leftovers of pulls that died (their process is gone): staging folders and partial files. */
export function cleanStalePulls(dir: string): void {
  if (!existsSync(dir)) return;
  for (const name of readdirSync(dir)) {
    const m = /^\.pull-.*-(\d+)$/.exec(name) ?? /\.partial-(\d+)$/.exec(name);
    if (!m) continue;
    const pid = Number(m[1]);
    if (pid !== process.pid && processAlive(pid)) continue;
    rmSync(join(dir, name), { recursive: true, force: true });
  }
}

export function ensureModelsDir(dir: string): void {
  mkdirSync(dir, { recursive: true });
}

/** llama.cpp's pooling types (llama.h: LLAMA_POOLING_TYPE_*); a GGUF that declares one is an embedding model. */
const POOLING_NAMES: Record<number, NonNullable<ListedModel['embedding']>['pooling']> = { 1: 'mean', 2: 'cls', 3: 'last', 4: 'rank' };

/** Every GGUF in the folder, with what its header says and where it came from. */
export async function listModels(dir: string): Promise<ListedModel[]> {
  if (!existsSync(dir)) return [];
  const manifests = new Map(readManifests(dir).map((m) => [m.file, m]));
  const out: ListedModel[] = [];
  for (const file of readdirSync(dir).sort()) {
    if (!file.endsWith('.gguf')) continue;
    const path = join(dir, file);
    const manifest = manifests.get(file) ?? null;
    const base: ListedModel = {
      path,
      file,
      sizeBytes: statSync(path).size,
      architecture: null,
      name: null,
      contextLength: null,
      chatTemplate: null,
      thinking: null,
      source: manifest?.source ?? null,
      sha256: manifest?.sha256 ?? null,
    };
    try {
      const info = await readGgufFileInfo(path, { readTensorInfo: false, logWarnings: false });
      const arch = info.architectureMetadata as { context_length?: number; embedding_length?: number; pooling_type?: number };
      base.architecture = info.metadata.general?.architecture ?? null;
      base.name = typeof info.metadata.general?.name === 'string' ? info.metadata.general.name : null;
      base.contextLength = arch.context_length ?? null;
      const rendering = chatRendering(info);
      base.chatTemplate = rendering?.wrapper ?? null;
      base.thinking = rendering?.thinking ?? null;
      const pooling = POOLING_NAMES[arch.pooling_type ?? 0];
      if (pooling && arch.embedding_length) base.embedding = { dimensions: arch.embedding_length, pooling };
    } catch {
      // not a readable GGUF: listed with its size, the rest unknown
    }
    out.push(base);
  }
  return out;
}

/** The chat wrapper node-llama-cpp picks for the model's template, with the settings scoring renders
 * with, and what it does about thinking; null for a model without a template (plain transcript). */
export function chatRendering(info: GgufFileInfo): { wrapper: string; thinking: PulledModel['thinking'] } | null {
  const template = info.metadata.tokenizer?.chat_template;
  if (typeof template !== 'string') return null;
  try {
    const wrapper = resolveChatWrapper({ fileInfo: info, warningLogs: false, customWrapperSettings: scoringWrapperSettings(template) });
    if (!wrapper) return { wrapper: 'jinja', thinking: null };
    return { wrapper: wrapper.wrapperName, thinking: thinkingState(wrapper, template) };
  } catch {
    return { wrapper: 'jinja', thinking: null };
  }
}
