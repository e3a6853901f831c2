// The benchmark as a list of traces: every family's fitting and evaluation requests, each served under
// the whole registry (lines executed), with the gold answer on the turn. Answers are left empty for
// `lots serve` to fill, or set to the gold answer (an oracle agent) for scorer tests without serving.
import { FAMILY_NAMES, type FamilyName } from './family';
import { instantiate } from './instance';
import { registryNames } from './registry';
import { buildBenchTrace, type BenchPrompt } from './trace';
import type { Trace } from '../trace/schema';
import { ExpectedError } from '../base/errors';
import { BENCH_VARIANTS, DEFAULT_VARIANT, isBenchVariant, type BenchVariant } from './variant';

export const DEFAULT_FIT = 80;
export const DEFAULT_EVAL = 320;
export const DEFAULT_REGISTRY = 15;
export const DEFAULT_SEED = '0';

export interface BenchOptions {
  seed?: string;
  families?: readonly FamilyName[];
  registry?: number;
  /** Fitting requests per family (indices 0…fit−1). */
  fit?: number;
  /** Evaluation requests per family (indices fit…fit+eval−1). */
  eval?: number;
  answers?: 'empty' | 'gold';
  /** Menu rendering of the requests (default compact, TGB's style). */
  prompt?: BenchPrompt;
  /** Benchmark variant (variant.ts; default faithful). */
  variant?: BenchVariant;
}

export interface BenchPlan {
  seed: string;
  families: FamilyName[];
  registry: number;
  fit: number;
  eval: number;
  variant: BenchVariant;
}

export function planBenchmark(options: BenchOptions = {}): BenchPlan {
  const families = options.families ? FAMILY_NAMES.filter((f) => options.families!.includes(f)) : [...FAMILY_NAMES];
  if (families.length === 0) throw new ExpectedError('INVALID_INPUT', `no families selected; choose from ${FAMILY_NAMES.join(', ')}`);
  const fit = options.fit ?? DEFAULT_FIT;
  const evalCount = options.eval ?? DEFAULT_EVAL;
  for (const [name, n] of [
    ['fit', fit],
    ['eval', evalCount],
  ] as const) {
    if (!Number.isInteger(n) || n < 0) throw new ExpectedError('INVALID_INPUT', `--${name} must be a non-negative integer, got ${n}`);
  }
  if (fit + evalCount === 0) throw new ExpectedError('INVALID_INPUT', 'a benchmark needs at least one request per family (--fit and --eval are both 0)');
  const variant = options.variant ?? DEFAULT_VARIANT;
  if (!isBenchVariant(variant))
    throw new ExpectedError('INVALID_INPUT', `unknown benchmark variant "${String(variant)}"; choose from ${BENCH_VARIANTS.join(', ')}`);
  return { seed: options.seed ?? DEFAULT_SEED, families, registry: options.registry ?? DEFAULT_REGISTRY, fit, eval: evalCount, variant };
}

export function generateBenchmark(options: BenchOptions = {}): Trace[] {
  const plan = planBenchmark(options);
  const menu = registryNames(plan.seed, plan.registry);
  const traces: Trace[] = [];
  for (const family of plan.families) {
    for (let index = 0; index < plan.fit + plan.eval; index++) {
      const instance = instantiate(plan.seed, family, index, plan.variant);
      traces.push(
        buildBenchTrace(instance, {
          menu,
          registry: plan.registry,
          split: index < plan.fit ? 'fit' : 'eval',
          answer: options.answers === 'gold' ? instance.gold : '',
          prompt: options.prompt ?? 'compact',
        }),
      );
    }
  }
  return traces;
}
