// Generate a fixture model once into a cache folder and reuse it (tests, `lots bench scoring`,
// the UI's reference model). The file name carries the options and a generator version, so a change
// to a generator never reuses a stale file; writes are atomic, so concurrent test files may race.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { evidenceCopy, randomLlama, type EvidenceCopyOptions, type RandomLlamaOptions } from './fixture-models';
import { writeGguf } from './writer';

/** Bump when a generator's output changes. */
const GENERATOR_VERSION = 4;

export type FixtureModelSpec = ({ kind: 'random' } & RandomLlamaOptions) | ({ kind: 'evidence-copy' } & EvidenceCopyOptions);

export function fixtureModelFileName(spec: FixtureModelSpec): string {
  const parts = Object.entries(spec)
    .filter(([k, v]) => k !== 'kind' && v !== undefined)
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([k, v]) => `${k}=${Array.isArray(v) ? v.join('+') : String(v)}`);
  const tag = parts.length ? `-${parts.join(',').replace(/[^A-Za-z0-9=,.-]/g, '_')}` : '';
  return `lots-${spec.kind}${tag}-g${GENERATOR_VERSION}.gguf`;
}

/** Path of the fixture model, generating it if the cache does not hold it yet. */
export function ensureFixtureModel(dir: string, spec: FixtureModelSpec): string {
  const path = join(dir, fixtureModelFileName(spec));
  if (existsSync(path)) return path;
  const { kind, ...options } = spec;
  writeGguf(path, kind === 'random' ? randomLlama(options) : evidenceCopy(options));
  return path;
}
