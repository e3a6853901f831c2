// Use case "which task a score row belongs to", for the CLI and the API alike: the row's own task label,
// else the task its trace has in the project now (routes by `lots route` included), else "(unrouted)".
// A run holds one row per trace: a later row for the same trace (a re-import with other content)
// replaces the earlier one.
import { UNROUTED } from '../../../shared/lots/aggregate';
import type { StoredScore } from '../../../shared/project/scores';
import type { ReadOnlyProjectStore } from '../store';
import { chooseRun, type RunChoice } from './choose-run';

/** Trace id → task (routed tasks included); from the store, without reading a trace. */
export type TraceTasks = ReadonlyMap<string, string | undefined>;

/** The task label a row carries or takes from its trace; undefined when neither has one. */
export function rowTaskLabel(row: Pick<StoredScore, 'trace' | 'task'>, traceTasks: TraceTasks): string | undefined {
  return row.task ?? traceTasks.get(row.trace);
}

/** The task a row is grouped under. */
export function rowTask(row: Pick<StoredScore, 'trace' | 'task'>, traceTasks: TraceTasks): string {
  return rowTaskLabel(row, traceTasks) ?? UNROUTED;
}

/** One run's rows in the order stored, one per trace, each with its task filled in (absent only when
 * neither the row nor its trace has one). */
export function runRows(store: ReadOnlyProjectStore, run: string, traceTasks: TraceTasks = store.traceTasks()): StoredScore[] {
  const byTrace = new Map<string, StoredScore>();
  for (const row of store.listScores(run)) {
    const task = rowTaskLabel(row, traceTasks);
    // Delete first: the later row takes the later place.
    byTrace.delete(row.trace);
    byTrace.set(row.trace, task === row.task ? row : { ...row, task });
  }
  return [...byTrace.values()];
}

/** The rows of one task in one run. */
export function taskRows(store: ReadOnlyProjectStore, run: string, task: string, traceTasks: TraceTasks = store.traceTasks()): StoredScore[] {
  return runRows(store, run, traceTasks).filter((r) => (r.task ?? UNROUTED) === task);
}

/** The project's rows in one run (the one asked for, else the latest), with their tasks filled in;
 * undefined when the project holds no scores. */
export function projectRunRows(store: ReadOnlyProjectStore, run?: string): { choice: RunChoice & { run: string }; rows: StoredScore[] } | undefined {
  const choice = chooseRun(store.listRuns(), { ...(run !== undefined ? { run } : {}), scope: `in ${store.dir}` });
  if (choice.run === undefined) return undefined;
  return { choice: { ...choice, run: choice.run }, rows: runRows(store, choice.run) };
}
