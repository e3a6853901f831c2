// The baseline spaces LOTS is compared with on the same task and budget (paper B.1 "Baselines"):
// Keep all (the registry), No tools, Random (uniform subsets of the same size K, several seeded draws,
// each reused across the task's requests) and BM25 (top-K by lexical match of the fitting requests
// against tool names, descriptions and schemas).
import type { ToolDef } from '../trace/schema';
import { bm25TaskRanking } from './bm25';
import { rngFor } from './rng';

export type BaselineName = 'keep-all' | 'no-tools' | 'random' | 'bm25';
export const BASELINE_NAMES: readonly BaselineName[] = ['keep-all', 'no-tools', 'random', 'bm25'];
export const DEFAULT_RANDOM_DRAWS = 5;

export interface BaselineSpace {
  name: BaselineName;
  k: number;
  /** One menu, or one per draw (Random). */
  menus: string[][];
}

export interface BaselineOptions {
  task: string;
  registry: readonly ToolDef[];
  /** LOTS's budget for the task; Random and BM25 use the same. */
  k: number;
  fittingRequests: readonly string[];
  seed: string;
  draws?: number;
  names?: readonly BaselineName[];
}

export function baselineSpaces(options: BaselineOptions): BaselineSpace[] {
  const names = options.names ?? BASELINE_NAMES;
  const all = options.registry.map((t) => t.name);
  const k = Math.min(options.k, all.length);
  const out: BaselineSpace[] = [];
  for (const name of names) {
    if (name === 'keep-all') out.push({ name, k: all.length, menus: [all] });
    else if (name === 'no-tools') out.push({ name, k: 0, menus: [[]] });
    else if (name === 'random') out.push({ name, k, menus: randomSpaces(options.task, all, k, options.seed, options.draws ?? DEFAULT_RANDOM_DRAWS) });
    else out.push({ name, k, menus: [bm25Space(options.registry, options.fittingRequests, k)] });
  }
  return out;
}

export function randomSpaces(task: string, registry: readonly string[], k: number, seed: string, draws: number): string[][] {
  return Array.from({ length: draws }, (_, d) => rngFor(seed, 'random-baseline', task, k, d).sample(registry, k));
}

export function bm25Space(registry: readonly ToolDef[], requests: readonly string[], k: number): string[] {
  return bm25TaskRanking(registry, requests)
    .slice(0, k)
    .map((r) => r.tool);
}

/** Mean and (population) standard deviation over draws. */
export function meanStd(values: readonly number[]): { mean: number; std: number } {
  if (values.length === 0) return { mean: 0, std: 0 };
  const mean = values.reduce((a, b) => a + b, 0) / values.length;
  const variance = values.reduce((a, v) => a + (v - mean) ** 2, 0) / values.length;
  return { mean, std: Math.sqrt(variance) };
}
