// Continual updates of one task's space (paper B.3, D.5): batches of the task's requests are served
// under its current space, their traces are scored, the batch means update the running scores by an
// exponential moving average, and the next space is the top-K of the running scores. Every update is
// a new space version. Serving and scoring are injected, so the loop is the same for the real model,
// the CLI and the tests.
import { aggregateOneTask } from '../lots/aggregate';
import { nextSpaceFromRunningScores, updateRunningScores } from '../lots/running';
import type { ScoreRow } from '../project/scores';
import { chooseServingMenu } from './exploration';
import { rngFor } from '../lots/rng';
import type { MenuEvaluation } from './sweep';

export interface ServeRequest<R> {
  request: R;
  menu: string[];
  explored: boolean;
}

export interface ContinualOptions<R, T> {
  task: string;
  /** The registry's tool names. */
  registry: readonly string[];
  /** The task's requests in arrival order. */
  stream: readonly R[];
  batchSize: number;
  /** The budget K of the top-K rule. */
  k: number;
  /** EMA weight α ∈ (0, 1]. */
  alpha: number;
  /** Serving cap C; absent: the registry can be served in full (explored requests then see all of it). */
  cap?: number;
  /** Exploration probability ε (default 0: nothing explored). */
  epsilon?: number;
  seed: string;
  /** Serve each request under its menu; returns what the scorer reads (traces) in the same order. */
  serve: (batch: ServeRequest<R>[], signal?: AbortSignal) => Promise<T[]>;
  score: (served: T[], signal?: AbortSignal) => Promise<ScoreRow[]>;
  /** Optional: accuracy of a space on the task's fixed evaluation requests, after each update. */
  evaluate?: (space: string[], signal?: AbortSignal) => Promise<MenuEvaluation>;
  /** Persist the new space version (e.g. ProjectStore.acceptSpace). */
  onUpdate?: (update: ContinualUpdate) => void | Promise<void>;
  signal?: AbortSignal;
}

export interface ContinualUpdate {
  /** 0-based batch number. */
  batch: number;
  served: number;
  explored: number;
  /** Mean number of tools on the menus of the batch. */
  meanMenuSize: number;
  batchMeans: Record<string, number>;
  runningScores: Record<string, number>;
  space: string[];
  evaluation?: MenuEvaluation;
}

export async function runContinualUpdates<R, T>(options: ContinualOptions<R, T>): Promise<ContinualUpdate[]> {
  if (!Number.isInteger(options.batchSize) || options.batchSize < 1)
    throw new RangeError(`the batch size must be a positive integer, got ${options.batchSize}`);
  const updates: ContinualUpdate[] = [];
  let running: Record<string, number> = {};
  let space: string[] = [];
  for (let start = 0, batch = 0; start < options.stream.length; start += options.batchSize, batch++) {
    options.signal?.throwIfAborted();
    const requests = options.stream.slice(start, start + options.batchSize);
    const plan = requests.map((request, i) => {
      const choice = chooseServingMenu({
        firstBatch: batch === 0,
        space,
        registry: options.registry,
        cap: options.cap,
        epsilon: options.epsilon ?? 0,
        rng: rngFor(options.seed, 'explore', options.task, start + i),
      });
      return { request, menu: choice.menu, explored: choice.explored };
    });
    const served = await options.serve(plan, options.signal);
    const rows = await options.score(served, options.signal);
    const batchMeans = Object.fromEntries(aggregateOneTask(options.task, rows).tools.map((t) => [t.tool, t.mean]));
    running = updateRunningScores(running, batchMeans, options.alpha);
    space = nextSpaceFromRunningScores(running, options.k);
    const update: ContinualUpdate = {
      batch,
      served: plan.length,
      explored: plan.filter((p) => p.explored).length,
      meanMenuSize: plan.reduce((a, p) => a + p.menu.length, 0) / plan.length,
      batchMeans,
      runningScores: running,
      space,
    };
    if (options.evaluate) update.evaluation = await options.evaluate(space, options.signal);
    updates.push(update);
    await options.onUpdate?.(update);
  }
  return updates;
}
