// `--model` of the commands that load a model: a GGUF path; `default` or a pulled source (pypi:…,
// hf:…, https://…), looked up in the models folder; or `fixture:random` / `fixture:evidence-copy`
// for the generated test models (no download), written once to a cache folder.
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ensureFixtureModel } from '../gguf/fixture-cache';

import { findPulled, modelsDir } from './model-dir';
import { DEFAULT_MODEL_SOURCE, parseModelSource, sourceKey } from './sources';
import { ExpectedError } from '../../../shared/api/errors';

export const FIXTURE_MODELS = ['fixture:random', 'fixture:evidence-copy'] as const;

export function resolveModelArg(model: string, cacheDir = join(tmpdir(), 'lots-fixtures')): string {
  if (model === 'fixture:random') return ensureFixtureModel(cacheDir, { kind: 'random' });
  // A soft frequency map (sharpness 0.2) keeps its scores linear in the evidence (see tests/engine/benchmark).
  if (model === 'fixture:evidence-copy') return ensureFixtureModel(cacheDir, { kind: 'evidence-copy', sharpness: 0.2 });
  const sourceText = model === 'default' ? DEFAULT_MODEL_SOURCE : model;
  const source = parseModelSource(sourceText);
  if (source.kind === 'path') return source.path;
  const dir = modelsDir();
  const pulled = findPulled(dir, sourceKey(source));
  if (pulled) return pulled.path;
  throw new ExpectedError('MODEL_NOT_PULLED', `${sourceText} is not in the models folder (${dir}) yet: run \`npx lots models pull ${sourceText}\` first`);
}

/** The default model's path if it has been pulled, else null. */
export function pulledDefaultModel(): string | null {
  return findPulled(modelsDir(), sourceKey(parseModelSource(DEFAULT_MODEL_SOURCE)))?.path ?? null;
}
