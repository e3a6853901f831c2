// The baseline spaces LOTS is compared with on the same task and budget (paper B.1 "Baselines"): the
// baselines of the selection-method registry (shared/selection/registry.ts) run on one task's context.
import type { ToolDef } from '../trace/schema';
import type { SelectionContext } from '../selection/method';
import { DEFAULT_BASELINES } from '../selection/registry';
import { selectSpaces } from '../selection/select';
import type { ComparedSpace } from './sweep';
import { FAMILIES } from './families';
import { isFamilyName } from './family';

export const DEFAULT_RANDOM_DRAWS = 5;

export interface BaselineOptions {
  task: string;
  registry: readonly ToolDef[];
  /** LOTS's budget for the task; Random and BM25 use the same. */
  k: number;
  /** LOTS's space at K (what the LOTS method serves). */
  space?: readonly string[];
  /** LOTS's ranking as far as the sweep measured it (the fixed-K rows keep its top K). */
  ranking?: readonly string[];
  /** Every tool the task's scores rank (the deferred tools of LOTS pinned + deferred). */
  observed?: readonly string[];
  fittingRequests: readonly string[];
  /** The evaluation requests' texts, for a per-request method that also picks their menus. */
  evalRequests?: readonly string[];
  seed: string;
  draws?: number;
  /** The methods to run (default: every baseline; `lots` may be named too). */
  names?: readonly string[];
  generate?: SelectionContext['generate'];
  serveFit?: SelectionContext['serveFit'];
  embed?: SelectionContext['embed'];
  embedder?: string;
  memo?: SelectionContext['memo'];
  signal?: AbortSignal;
}

export async function baselineSpaces(options: BaselineOptions): Promise<ComparedSpace[]> {
  const ctx: SelectionContext = {
    task: options.task,
    registry: options.registry,
    k: options.k,
    space: options.space ?? [],
    ...(options.ranking ? { ranking: options.ranking } : {}),
    ...(options.observed ? { observed: options.observed } : {}),
    ...(isFamilyName(options.task) ? { goldChain: FAMILIES[options.task].chainTools } : {}),
    requests: { fit: options.fittingRequests, eval: options.evalRequests ?? [] },
    seed: options.seed,
    draws: options.draws ?? DEFAULT_RANDOM_DRAWS,
    ...(options.generate ? { generate: options.generate } : {}),
    ...(options.serveFit ? { serveFit: options.serveFit } : {}),
    ...(options.embed ? { embed: options.embed } : {}),
    ...(options.embedder ? { embedder: options.embedder } : {}),
    ...(options.memo ? { memo: options.memo } : {}),
    ...(options.signal ? { signal: options.signal } : {}),
  };
  return selectSpaces(ctx, options.names ?? DEFAULT_BASELINES);
}

/** Mean and (population) standard deviation over draws. */
export function meanStd(values: readonly number[]): { mean: number; std: number } {
  if (values.length === 0) return { mean: 0, std: 0 };
  const mean = values.reduce((a, b) => a + b, 0) / values.length;
  const variance = values.reduce((a, v) => a + (v - mean) ** 2, 0) / values.length;
  return { mean, std: Math.sqrt(variance) };
}
