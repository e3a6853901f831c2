// `--model` of the bench commands: a GGUF path, or `fixture:random` / `fixture:evidence-copy` for the
// generated test models (no download), written once to a cache folder.
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ensureFixtureModel } from '../gguf/fixture-cache';

export const FIXTURE_MODELS = ['fixture:random', 'fixture:evidence-copy'] as const;

export function resolveModelArg(model: string, cacheDir = join(tmpdir(), 'lots-fixtures')): string {
  if (model === 'fixture:random') return ensureFixtureModel(cacheDir, { kind: 'random' });
  // A soft frequency map (sharpness 0.2) keeps its scores linear in the evidence (see tests/engine/bench).
  if (model === 'fixture:evidence-copy') return ensureFixtureModel(cacheDir, { kind: 'evidence-copy', sharpness: 0.2 });
  return model;
}
