// The per-task view of a project every service method starts from: the task's traces, its score rows in
// one run, its menu. Rebuilt only when the store has changed (a new import or appended scores).
import { UNROUTED } from '../../../shared/lots/aggregate';
import { fitTask, type TaskFit } from '../../../shared/lots/fit';
import type { StoredScore } from '../../../shared/project/scores';
import type { ToolDef, Trace } from '../../../shared/trace/schema';
import type { ProjectStore } from '../store';
import { notFound } from './errors';

export interface TaskData {
  task: string;
  traces: Trace[];
  /** The run the rows come from; null when the task has no scores yet. */
  run: string | null;
  runs: string[];
  rows: StoredScore[];
  rowByTrace: Map<string, StoredScore>;
  /** Ranking and proposal without the bootstrap (cheap); null without scores. */
  fit: TaskFit | null;
  /** First definition of every tool on the task's menus, by name. */
  menu: Map<string, ToolDef>;
}

export function taskOfTrace(trace: Trace): string {
  return trace.task ?? UNROUTED;
}

export class ProjectIndex {
  private stamp = '';
  private byTask = new Map<string, Trace[]>();
  private runsByTask = new Map<string, string[]>();
  private cache = new Map<string, TaskData>();

  constructor(readonly store: ProjectStore) {}

  /** Re-read what other processes wrote and drop caches when anything changed. */
  sync(): void {
    this.store.refresh();
    const stamp = `${this.store.traceCount}:${this.store.listScores().length}`;
    if (stamp === this.stamp) return;
    this.stamp = stamp;
    this.cache.clear();
    this.byTask = new Map();
    for (const t of this.store.listTraces()) {
      const task = taskOfTrace(t);
      let list = this.byTask.get(task);
      if (!list) this.byTask.set(task, (list = []));
      list.push(t);
    }
    const runs = new Map<string, string[]>();
    for (const row of this.store.listScores()) {
      const task = row.task ?? UNROUTED;
      let list = runs.get(task);
      if (!list) runs.set(task, (list = []));
      const i = list.indexOf(row.run);
      if (i !== -1) list.splice(i, 1);
      list.push(row.run); // most recently appended last
    }
    this.runsByTask = runs;
  }

  get version(): string {
    return this.stamp;
  }

  tasks(): string[] {
    return [...new Set([...this.byTask.keys(), ...this.runsByTask.keys()])].sort();
  }

  runsOf(task: string): string[] {
    return this.runsByTask.get(task) ?? [];
  }

  task(task: string, run?: string): TaskData {
    this.sync();
    const key = `${task}\u0000${run ?? ''}`;
    const hit = this.cache.get(key);
    if (hit) return hit;
    const traces = this.byTask.get(task);
    const runs = this.runsOf(task);
    if (!traces && runs.length === 0) throw notFound(`task "${task}" is not in this project; pick one of: ${this.tasks().join(', ') || '(none yet: import traces first)'}`);
    if (run !== undefined && !runs.includes(run)) throw notFound(`run "${run}" has no scores for task "${task}"`);
    const chosen = run ?? runs.at(-1) ?? null;
    const rows: StoredScore[] = [];
    const rowByTrace = new Map<string, StoredScore>();
    if (chosen) {
      for (const r of this.store.listScores(chosen)) {
        if ((r.task ?? UNROUTED) !== task) continue;
        // One row per trace in a run; a re-import with other content would add a second: the later wins.
        const prev = rowByTrace.get(r.trace);
        if (prev) rows.splice(rows.indexOf(prev), 1);
        rowByTrace.set(r.trace, r);
        rows.push(r);
      }
    }
    const menu = new Map<string, ToolDef>();
    for (const t of traces ?? []) for (const def of t.tools) if (!menu.has(def.name)) menu.set(def.name, def);
    for (const r of rows) for (const name of r.exposed) if (!menu.has(name)) menu.set(name, { name });
    const fit = rows.length > 0 ? fitTask(task, rows, { bootstrap: false }) : null;
    const data: TaskData = { task, traces: traces ?? [], run: chosen, runs, rows, rowByTrace, fit, menu };
    this.cache.set(key, data);
    return data;
  }
}
