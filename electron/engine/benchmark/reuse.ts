// Reuse across models (paper Appendix C.1): a task's space fitted with model A's traces, served with model
// B. For each task of a benchmark project: the space fitted with A (its latest approved version, else the
// budget sweep's LOTS space) against keep-all, both served by B on the same evaluation requests. Likelihood
// access is needed only at fitting time, so a space fitted with one model can serve another.
import type { MenuEvaluation } from '../../../shared/benchmark/sweep';
import { ExpectedError } from '../../../shared/api/errors';
import { approvedSpace } from '../read-model/approved-space';
import type { ProjectStore } from '../store/project-store';
import { menuEvaluator } from './evaluate';
import { benchRequests } from './project';
import type { BenchServer } from './server';

export interface ReuseRow {
  task: string;
  /** Where the space came from: `v<N>` (approved) or `sweep` (the LOTS space at bestK). */
  source: string;
  /** The model whose scores fitted the space (the sweep's or the approved version's run), when recorded. */
  fittedWith: string | null;
  space: string[];
  keepAll: MenuEvaluation;
  reused: MenuEvaluation;
}

export interface ReuseOptions {
  tasks?: readonly string[];
  split?: 'fit' | 'eval';
  signal?: AbortSignal;
  onProgress?: (task: string, done: number, total: number) => void;
}

export async function evaluateReuse(store: ProjectStore, server: BenchServer, options: ReuseOptions = {}): Promise<ReuseRow[]> {
  const { byTask, registry } = benchRequests(store);
  const all = registry.map((t) => t.name);
  const split = options.split ?? 'eval';
  const tasks = options.tasks?.length ? options.tasks : [...byTask.keys()];
  const rows: ReuseRow[] = [];
  for (const task of tasks) {
    const requests = byTask.get(task);
    if (!requests) throw new ExpectedError('NOT_FOUND', `task "${task}" is not in this benchmark project; its tasks are ${[...byTask.keys()].join(', ')}`);
    const approved = approvedSpace(store, task);
    const sweep = store.readSweep(task);
    const fromSweep = sweep?.bestK !== undefined ? sweep.points.find((p) => p.k === sweep.bestK)?.tools : undefined;
    const space = approved?.tools ?? fromSweep;
    if (!space) continue;
    const run = approved?.run ?? sweep?.run;
    const evaluate = menuEvaluator(server, requests, (done, total) => options.onProgress?.(task, done, total));
    const keepAll = await evaluate(all, split, options.signal);
    const reused = await evaluate(space, split, options.signal);
    rows.push({ task, source: approved ? `v${approved.version}` : 'sweep', fittedWith: run ? modelOfRun(store, run) : null, space, keepAll, reused });
  }
  if (rows.length === 0)
    throw new ExpectedError('NOT_FOUND', `${store.dir} has no fitted space to reuse: run \`lots demo\` (or sweep and approve spaces) with the first model`);
  return rows;
}

function modelOfRun(store: ProjectStore, run: string): string | null {
  const row = store.listScores(run)[0];
  return row?.modelName ?? row?.model ?? null;
}
