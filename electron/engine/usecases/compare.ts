// Comparing two scoring runs of the same tasks (paper Appendix C.1): one function for `lots compare` and
// the Ranking view. Each run ranks a task's tools by their mean score; the comparison says whether two
// models (or two scoring setups) order them alike, and which tools moved.
import { compareRankings, type RankingComparison } from '../../../shared/lots/compare';
import type { ProjectStore } from '../store';
import { ExpectedError } from '../../../shared/api/errors';
import type { ProjectIndex } from '../read-model/project-index';
import { approvedSpace } from '../read-model/approved-space';

export interface RunInfo {
  run: string;
  /** The model's file name where the rows recorded it. */
  model?: string;
  rows: number;
  tasks: string[];
}

export interface TaskComparison extends RankingComparison {
  task: string;
  rowsA: number;
  rowsB: number;
}

/** The project's scoring runs, with the model that produced each and the tasks it scored. */
export function listRunInfos(store: ProjectStore): RunInfo[] {
  const byRun = new Map<string, { model?: string; rows: number; tasks: Set<string> }>();
  const tasks = store.traceTasks();
  for (const r of store.listScores()) {
    let info = byRun.get(r.run);
    if (!info) byRun.set(r.run, (info = { rows: 0, tasks: new Set() }));
    info.rows++;
    if (!info.model && (r.modelName ?? r.model)) info.model = r.modelName ?? r.model;
    const task = r.task ?? tasks.get(r.trace);
    if (task) info.tasks.add(task);
  }
  return [...byRun].map(([run, i]) => ({ run, ...(i.model ? { model: i.model } : {}), rows: i.rows, tasks: [...i.tasks].sort() }));
}

export interface CompareOptions {
  runA: string;
  runB: string;
  /** One task; every task both runs scored when absent. */
  task?: string;
  /** K of the top-K overlap (default: the task's approved size, its budget sweep's K, else 5 capped by the
   * shorter ranking). */
  k?: number;
}

export function compareRuns(store: ProjectStore, index: ProjectIndex, options: CompareOptions): TaskComparison[] {
  index.sync();
  const runs = new Set(store.listRuns());
  for (const run of [options.runA, options.runB]) {
    if (!runs.has(run))
      throw new ExpectedError('NOT_FOUND', `run "${run}" is not in this project; its runs are: ${[...runs].join(', ') || '(none: score the traces first)'}`);
  }
  if (options.runA === options.runB) throw new ExpectedError('INVALID_INPUT', 'compare two different runs (the same run was given twice)');
  const tasks =
    options.task !== undefined
      ? [options.task]
      : index.tasks().filter((t) => {
          const r = index.runsOf(t);
          return r.includes(options.runA) && r.includes(options.runB);
        });
  if (tasks.length === 0) throw new ExpectedError('NOT_FOUND', `no task was scored by both runs ${options.runA} and ${options.runB}`);
  return tasks.map((task) => {
    const a = index.task(task, options.runA);
    const b = index.task(task, options.runB);
    const means = (fit: typeof a.fit) => Object.fromEntries((fit?.ranking ?? []).map((t) => [t.tool, t.mean]));
    const ma = means(a.fit);
    const mb = means(b.fit);
    const smaller = Math.max(1, Math.min(Object.keys(ma).length, Object.keys(mb).length));
    const k = options.k ?? positive(approvedSpace(store, task)?.tools.length) ?? positive(store.readSweep(task)?.bestK) ?? Math.min(5, smaller);
    return { task, rowsA: a.rows.length, rowsB: b.rows.length, ...compareRankings(ma, mb, k) };
  });
}

function positive(n: number | undefined): number | undefined {
  return n !== undefined && n > 0 ? n : undefined;
}
