// One benchmark request, rebuilt from (seed, family, index) alone: its hidden scene, request text,
// resolved chain and gold answer.
import { FAMILIES } from './families/index';
import type { ChainStep, FamilyName } from './family';
import { formatNumber } from './format';
import { rngFor } from '../lots/rng';
import { generateScene, type Scene } from './scene';
import { executeMenu, type ToolLine } from './executor';
import { gradeAnswer, numberSpans } from './grade';
import { MAX_REGISTRY, registryNames } from './registry';
import { composeInstance, DEFAULT_VARIANT, type BenchVariant, type LastStep } from './variant';

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
  /** How the request is served (variant.ts); faithful unless the project says otherwise. */
  variant: BenchVariant;
  /** Composition requests: the step the model must do on what the chain printed. */
  lastStep?: LastStep;
}

/** Draws of a composition request's constant before giving up (none has come near in tests). */
const COMPOSITION_ATTEMPTS = 64;

/** Composition instances check hundreds of tool lines; re-execution asks for the same one per tool. */
const composed = new Map<string, BenchInstance>();
const COMPOSED_CACHE = 4096;

export function instantiate(seed: string, family: FamilyName, index: number, variant: BenchVariant = DEFAULT_VARIANT): BenchInstance {
  if (variant !== 'composition') return draw(seed, family, index, variant);
  const key = JSON.stringify([seed, family, index]);
  let instance = composed.get(key);
  if (!instance) {
    if (composed.size >= COMPOSED_CACHE) composed.clear();
    composed.set(key, (instance = draw(seed, family, index, variant)));
  }
  // A fresh copy, so a caller that changes its instance changes no one else's.
  return structuredClone(instance);
}

function draw(seed: string, family: FamilyName, index: number, variant: BenchVariant): BenchInstance {
  const scene = generateScene(rngFor(seed, 'scene', family, index));
  const made = FAMILIES[family].instantiate(scene, rngFor(seed, 'request', family, index));
  const base = { seed, family, index, scene, variant };
  if (variant !== 'composition') return { ...base, request: made.request, goldValue: made.goldValue, gold: formatNumber(made.goldValue), chain: made.chain };
  // The constant is drawn again until no line of the largest registry (so of any menu) states a
  // number the grader would accept as the answer.
  const everyTool = registryNames(seed, MAX_REGISTRY);
  for (let attempt = 0; attempt < COMPOSITION_ATTEMPTS; attempt++) {
    const composed = composeInstance(family, made, scene, rngFor(seed, 'composition', family, index, attempt));
    const instance: BenchInstance = { ...base, ...composed, gold: formatNumber(composed.goldValue) };
    if (lineStating(executeMenu(instance, everyTool), instance.gold) === undefined) return instance;
  }
  throw new RangeError(`${family} #${index} (seed ${seed}): no composition constant keeps the answer out of every tool line`);
}

/** The first tool line with a number the grader would accept for `gold` (copying it would pass). */
export function lineStating(lines: readonly ToolLine[], gold: string): ToolLine | undefined {
  return lines.find((line) => numberSpans(line.output).some((span) => gradeAnswer(span, gold).correct));
}

/** Trace id of a request: family and index, e.g. `fx_settle-0007`. */
export function benchTraceId(family: FamilyName, index: number): string {
  return `${family}-${String(index).padStart(4, '0')}`;
}
