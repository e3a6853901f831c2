// A budget sweep, run in the job worker's process: serve the task's fitting requests under the top-K space
// for every K (the benchmark's executor makes this possible), store the curve, and — when asked — LOTS
// against the baselines that call no model (DEFAULT_BASELINES: keep-all, no tools, random, BM25) at the
// chosen budget on the same requests. Both stages are the CLI's own loops: `sweepBenchTasks` (`lots sweep`)
// and `compareAtBudget` (`lots evaluate`, here on the fitting split only), so the stored sweep carries
// what `lots evaluate` stores on that split: a LOTS row with its selection cost (scoring plus the sweep's
// serving) beside the baselines' rows, each with its per-request outcomes — rows `lots evaluate` then
// reuses. Unlike `lots evaluate` and `lots demo`, no space is accepted here: approval stays with the operator.
import { staleRowsNote, type Split } from '../../../shared/benchmark/sweep';
import { compareAtBudget, comparedMethods } from '../benchmark/evaluate';
import { DEFAULT_BASELINES } from '../../../shared/selection/registry';
import { benchRequests } from '../benchmark/project';
import { BenchServer } from '../benchmark/server';
import { sweepBenchTasks } from '../benchmark/tasks';
import { ProjectStore } from '../store';
import type { JobControl } from './control';
import { toFailure } from './failure';
import type { BaseProgress, JobEvent, SweepJobSpec } from './protocol';
import { ExpectedError } from '../../../shared/api/errors';

export type SweepJobEvent = JobEvent<BaseProgress>;

/** The job compares the methods on the requests its budgets were measured on. */
const SWEEP_JOB_SPLITS: readonly Split[] = ['fit'];

/** Cancel (the control's signal) stops after the budget or method being measured; the points and methods
 * measured so far are stored. */
export async function runSweepJob(spec: SweepJobSpec, control: JobControl, emit: (e: SweepJobEvent) => void): Promise<void> {
  const progress: BaseProgress = { done: 0, total: 0 };
  try {
    await measureSweep(
      spec,
      control.signal,
      (p) => {
        Object.assign(progress, p);
        emit({ type: 'progress', progress: { ...progress } });
      },
      (message) => emit({ type: 'finished', status: 'done', progress: { ...progress, message } }),
    );
  } catch (e) {
    if (control.signal.aborted)
      emit({ type: 'finished', status: 'cancelled', progress: { ...progress, message: 'cancelled: the budgets measured so far are kept' } });
    else emit({ type: 'failed', error: toFailure(e), progress: { ...progress } });
  }
}

async function measureSweep(
  spec: SweepJobSpec,
  signal: AbortSignal,
  report: (p: Required<BaseProgress>) => void,
  finish: (message: string) => void,
): Promise<void> {
  const store = ProjectStore.open(spec.project);
  const bench = benchRequests(store);
  const { registry, seed } = bench;
  const requests = bench.byTask.get(spec.task);
  if (!requests)
    throw new ExpectedError(
      'NOT_FOUND',
      `no benchmark requests for task "${spec.task}": a sweep re-serves requests, which needs a benchmark project (its executor runs the tools)`,
    );
  report({ done: 0, total: 1, message: 'loading the model' });
  const server = await BenchServer.open(spec.model, { gpu: spec.gpu, signal });
  try {
    // One progress bar over both stages: the budgets, then the baselines.
    const baselineCount = spec.baselines ? comparedMethods(DEFAULT_BASELINES).length * SWEEP_JOB_SPLITS.length : 0;
    let budgets = 0;
    // Rows the new sweep left stale (built from another run's ranking, or measured at another K) are dropped
    // by the sweep itself; the job says which, as `lots sweep` does.
    let stale: string[] = [];
    // The same use case as `lots sweep`, for this one task.
    const swept = await sweepBenchTasks(store, server, {
      bench,
      tasks: [spec.task],
      ...(spec.run !== undefined ? { run: spec.run } : {}),
      signal,
      onStale: (_task, methods) => (stale = methods),
      onProgress: (_task, p) => {
        budgets = p.total;
        report({ done: p.done, total: p.total + baselineCount, message: `${p.label}${p.cached ? ' (reused)' : ''}` });
      },
    });
    const { run } = swept;
    const outcome = swept.tasks[0]!;
    if ('skipped' in outcome) throw new ExpectedError('NOT_FOUND', `task "${spec.task}" has ${outcome.skipped}; score its served fitting requests first`);
    const sweep = outcome.result;
    // The methods measured again here on the fitting requests (none without a budget or without baselines).
    const remeasured = spec.baselines && sweep.bestK !== undefined ? comparedMethods(DEFAULT_BASELINES) : [];
    if (remeasured.length > 0) {
      // The same comparison loop as `lots evaluate` (LOTS, then each baseline, chosen, measured and saved),
      // on the fitting requests only, and no space accepted.
      await compareAtBudget(store, server, spec.task, requests, registry, {
        seed,
        splits: SWEEP_JOB_SPLITS,
        baselines: DEFAULT_BASELINES,
        onProgress: (p) => report({ done: budgets + p.done, total: budgets + p.total, message: `compare ${p.label}` }),
        signal,
      });
    }
    const dropped = stale.length > 0 ? `; ${staleRowsNote(stale, remeasured)}` : '';
    store.logActivity({
      kind: 'sweep',
      message: `budget sweep of ${spec.task}: K = ${sweep.bestK ?? '—'} (${sweep.points.length} budgets measured)${dropped}`,
      data: { task: spec.task, run, ...(stale.length > 0 ? { dropped: stale } : {}) },
    });
    finish(`best K = ${sweep.bestK ?? '—'} over ${sweep.points.length} budgets${dropped}`);
  } finally {
    await server.close();
  }
}
