// One benchmark request, rebuilt from (seed, family, index) alone: its hidden scene, request text,
// resolved chain and gold answer.
import { FAMILIES } from './families/index';
import type { ChainStep, FamilyName } from './family';
import { formatNumber } from './format';
import { rngFor } from '../lots/rng';
import { generateScene, type Scene } from './scene';

export interface BenchInstance {
  seed: string;
  family: FamilyName;
  index: number;
  scene: Scene;
  request: string;
  goldValue: number;
  /** The gold answer as the Calculator would print it. */
  gold: string;
  chain: ChainStep[];
}

export function instantiate(seed: string, family: FamilyName, index: number): BenchInstance {
  const scene = generateScene(rngFor(seed, 'scene', family, index));
  const made = FAMILIES[family].instantiate(scene, rngFor(seed, 'request', family, index));
  return { seed, family, index, scene, request: made.request, goldValue: made.goldValue, gold: formatNumber(made.goldValue), chain: made.chain };
}

/** Trace id of a request: family and index, e.g. `fx_settle-0007`. */
export function benchTraceId(family: FamilyName, index: number): string {
  return `${family}-${String(index).padStart(4, '0')}`;
}
