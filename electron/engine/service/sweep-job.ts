// A budget sweep, run inside its own process: serve the task's fitting requests under the top-K space
// for every K (the benchmark's executor makes this possible), store the curve, and — when asked — the
// baselines (keep-all, no tools, random, BM25) at the chosen budget on the same requests. Unlike
// `lots demo`, no space is accepted here: approval stays with the operator.
import { baselineSpaces, DEFAULT_RANDOM_DRAWS } from '../../../shared/bench/baselines';
import { compareSpaces } from '../../../shared/bench/sweep';
import { menuEvaluator, sweepTask } from '../bench/evaluate';
import { benchRequests, chooseRun, taskRanking } from '../bench/project';
import { BenchServer } from '../bench/server';
import type { GpuChoice } from '../llama/runtime';
import { ProjectStore } from '../store';
import { ExpectedError } from '../../../shared/api/errors';

export interface SweepJobSpec {
  jobId: string;
  project: string;
  task: string;
  model: string;
  run?: string;
  baselines?: boolean;
  gpu?: GpuChoice;
}

export type SweepJobEvent =
  | { type: 'progress'; done: number; total: number; message: string }
  | { type: 'finished'; status: 'done' | 'cancelled'; message: string }
  | { type: 'failed'; error: { code: string; message: string } };

export async function runSweepJob(spec: SweepJobSpec, signal: AbortSignal, emit: (e: SweepJobEvent) => void): Promise<void> {
  const store = ProjectStore.open(spec.project);
  const { byTask, registry, seed } = benchRequests(store);
  const requests = byTask.get(spec.task);
  if (!requests) throw new ExpectedError('NOT_FOUND', `no benchmark requests for task "${spec.task}": a sweep re-serves requests, which needs a benchmark project (its executor runs the tools)`);
  emit({ type: 'progress', done: 0, total: 1, message: 'loading the model' });
  const server = await BenchServer.open(spec.model, { gpu: spec.gpu, signal });
  try {
    const run = chooseRun(store, server.modelHash, spec.run);
    const ranking = taskRanking(store.listScores(run), spec.task);
    // One progress bar over both stages: the budgets, then the baselines.
    const baselineCount = spec.baselines ? 4 : 0;
    let budgets = ranking.length;
    const sweep = await sweepTask(store, server, spec.task, requests, ranking, {
      run,
      signal,
      onProgress: (p) => {
        budgets = p.total;
        emit({ type: 'progress', done: p.done, total: p.total + baselineCount, message: `${p.label}${p.cached ? ' (reused)' : ''}` });
      },
    });
    if (spec.baselines && sweep.bestK !== undefined) {
      const k = sweep.bestK;
      const spaces = baselineSpaces({ task: spec.task, registry, k, fittingRequests: requests.fit.map((t) => t.turns[0]!.request), seed, draws: DEFAULT_RANDOM_DRAWS });
      let current = sweep;
      const baselines = await compareSpaces({
        spaces,
        splits: ['fit'],
        evaluate: menuEvaluator(server, requests),
        previous: sweep.baselines,
        save: (results) => {
          current = { ...current, baselines: results };
          store.writeSweep(current);
        },
        onProgress: (p) => emit({ type: 'progress', done: budgets + p.done, total: budgets + p.total, message: `baseline ${p.label}` }),
        signal,
      });
      store.writeSweep({ ...current, baselines });
    }
    store.logActivity({ kind: 'sweep', message: `budget sweep of ${spec.task}: K = ${sweep.bestK ?? '—'} (${sweep.points.length} budgets measured)`, data: { task: spec.task, run } });
    emit({ type: 'finished', status: 'done', message: `best K = ${sweep.bestK ?? '—'} over ${sweep.points.length} budgets` });
  } finally {
    await server.close();
  }
}
