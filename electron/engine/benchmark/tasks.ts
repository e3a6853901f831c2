// "Sweep" and "evaluate" on a benchmark project, task by task: the budget sweep (serve the fitting requests
// under the top-K space for every K and store the curve), and LOTS at the swept budget against the
// baselines. `lots sweep` and `lots evaluate` call these through usecases/sweep.ts, the Studio's sweep
// job (jobs/sweep-job.ts) runs `sweepBenchTasks` for its one task in the job worker, and `lots demo`
// (demo.ts) runs both family by family: one loop for all of them. Progress goes through callbacks,
// cancellation through the signal; what is printed is the caller's.
import type { BaselineName } from '../../../shared/selection/registry';
import type { SweepResult } from '../../../shared/project/sweeps';
import { defaultBudgetGrid, type SweepProgress } from '../../../shared/benchmark/sweep';
import { evaluateTask, sweepTask, type TaskEvaluation } from './evaluate';
import { benchRequests, chooseRun, taskRanking, type BenchRequests } from './project';
import type { BenchServer } from './server';
import type { ProjectStore } from '../store';
import { notFound } from '../../../shared/api/errors';

/** The tasks asked for, in the project's order; all of them when none is asked for. */
export function selectBenchTasks(known: readonly string[], wanted: readonly string[]): string[] {
  if (wanted.length === 0) return [...known];
  const unknown = wanted.filter((t) => !known.includes(t));
  if (unknown.length > 0) throw notFound(`no benchmark requests for task ${unknown.map((t) => `"${t}"`).join(', ')}; tasks: ${known.join(', ')}`);
  return known.filter((t) => wanted.includes(t));
}

export type TaskOutcome<T> = { task: string; result: T } | { task: string; skipped: string };

export interface SweepTasksOptions {
  tasks?: readonly string[];
  /** The scoring run to rank from (default: this model's latest re-execute run, else its latest). */
  run?: string;
  ks?: readonly number[];
  /** Without `ks`: measure K = 1…kMax at most (default: every K up to the number of ranked tools). */
  kMax?: number;
  signal?: AbortSignal;
  /** The project's benchmark requests, when the caller has read them already. */
  bench?: BenchRequests;
  /** The run chosen, before the first task. */
  onRun?: (run: string) => void;
  /** A task's stored rows that its new sweep left stale and dropped (shared/benchmark/sweep.ts staleRow). */
  onStale?: (task: string, methods: string[]) => void;
  /** A task's sweep starts, over this many budgets. */
  onTask?: (task: string, budgets: number) => void;
  /** Each budget measured (or reused: `cached`) of the task being swept. */
  onProgress?: (task: string, progress: SweepProgress) => void;
  /** A task's sweep is stored, or the task is skipped. */
  onDone?: (outcome: TaskOutcome<SweepResult>) => void;
}

/** Sweep each task's budget; a task without scored tools in the run is skipped (and says why). */
export async function sweepBenchTasks(
  store: ProjectStore,
  server: BenchServer,
  options: SweepTasksOptions = {},
): Promise<{ run: string; tasks: TaskOutcome<SweepResult>[] }> {
  const { byTask } = options.bench ?? benchRequests(store);
  const tasks = selectBenchTasks([...byTask.keys()], options.tasks ?? []);
  const run = chooseRun(store, server.modelHash, options.run);
  options.onRun?.(run);
  const scores = store.listScores(run);
  const out: TaskOutcome<SweepResult>[] = [];
  const done = (outcome: TaskOutcome<SweepResult>) => {
    out.push(outcome);
    options.onDone?.(outcome);
  };
  for (const task of tasks) {
    const ranking = taskRanking(scores, task);
    if (ranking.length === 0) {
      done({ task, skipped: `no scored tools in run ${run}` });
      continue;
    }
    const ks = options.ks && options.ks.length > 0 ? options.ks : defaultBudgetGrid(Math.min(ranking.length, options.kMax ?? ranking.length));
    options.onTask?.(task, new Set(ks).size);
    const sweep = await sweepTask(store, server, task, byTask.get(task)!, ranking, {
      run,
      ks,
      ...(options.signal ? { signal: options.signal } : {}),
      onProgress: (p) => options.onProgress?.(task, p),
      onStale: (methods) => options.onStale?.(task, methods),
    });
    done({ task, result: sweep });
  }
  return { run, tasks: out };
}

export interface EvaluateTasksOptions {
  tasks?: readonly string[];
  /** Default: DEFAULT_BASELINES (those that call no model). */
  baselines?: readonly BaselineName[];
  draws?: number;
  /** Kept across calls by a caller that evaluates task by task (default: one for this call's tasks). */
  memo?: Map<string, unknown>;
  signal?: AbortSignal;
  bench?: BenchRequests;
  onTask?: (task: string) => void;
  onDone?: (outcome: TaskOutcome<TaskEvaluation>) => void;
  /** Each method and split measured (or reused: `cached`) of the task being evaluated. */
  onProgress?: (task: string, progress: SweepProgress) => void;
}

/** Evaluate each swept task's LOTS space against the baselines (stored with the sweep); a task without a
 * budget sweep is skipped. */
export async function evaluateBenchTasks(store: ProjectStore, server: BenchServer, options: EvaluateTasksOptions = {}): Promise<TaskOutcome<TaskEvaluation>[]> {
  const { byTask, registry, seed } = options.bench ?? benchRequests(store);
  const tasks = selectBenchTasks([...byTask.keys()], options.tasks ?? []);
  const out: TaskOutcome<TaskEvaluation>[] = [];
  const done = (outcome: TaskOutcome<TaskEvaluation>) => {
    out.push(outcome);
    options.onDone?.(outcome);
  };
  // Kept across the tasks: Tool2Vec's tool vectors depend on the registry only.
  const memo = options.memo ?? new Map<string, unknown>();
  for (const task of tasks) {
    const sweep = store.readSweep(task);
    if (!sweep || sweep.bestK === undefined) {
      done({ task, skipped: 'no budget sweep yet (run `lots sweep`)' });
      continue;
    }
    options.onTask?.(task);
    const evaluation = await evaluateTask(store, server, task, byTask.get(task)!, registry, {
      seed,
      ...(options.draws !== undefined ? { draws: options.draws } : {}),
      ...(options.baselines ? { baselines: options.baselines } : {}),
      ...(options.signal ? { signal: options.signal } : {}),
      memo,
      onProgress: (p) => options.onProgress?.(task, p),
    });
    done({ task, result: evaluation });
  }
  return out;
}
