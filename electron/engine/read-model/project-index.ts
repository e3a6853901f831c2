// The read model (the project index): the per-task data every view and use case starts from: the task's traces, its score rows in
// one run, its menu. Rebuilt only when the store has changed (a new import or appended scores). Counts and
// menus come from what the store knows of each trace without reading it; a task's traces themselves are
// read only when a view needs them (the heatmap, an export), for the last few tasks asked for.
import { UNROUTED } from '../../../shared/lots/aggregate';
import { fitTask, type TaskFit } from '../../../shared/lots/fit';
import type { StoredScore } from '../../../shared/project/scores';
import type { ToolDef, Trace } from '../../../shared/trace/schema';
import type { ReadOnlyProjectStore } from '../store';
import { chooseRun } from './choose-run';
import { rowTask, runRows } from './task-rows';
import { notFound } from '../../../shared/api/errors';

export interface TaskData {
  task: string;
  /** The task's traces, read from the project the first time they are asked for. */
  readonly traces: Trace[];
  /** How many traces the task has, and how many are labelled correct / wrong (known without reading them). */
  requests: number;
  correct: number;
  wrong: number;
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

interface TaskTraces {
  count: number;
  correct: number;
  wrong: number;
  menu: Map<string, ToolDef>;
}

/** Tasks whose traces are kept in memory once read (the views open one task at a time). */
const LOADED_TASKS = 2;

export class ProjectIndex {
  private stamp = '';
  private tracesStamp = '';
  private routes: unknown;
  private byTask = new Map<string, TaskTraces>();
  private traceTasks = new Map<string, string | undefined>();
  private loaded = new Map<string, Trace[]>();
  private runsByTask = new Map<string, string[]>();
  private cache = new Map<string, TaskData>();

  constructor(readonly store: ReadOnlyProjectStore) {}

  /** Re-read what other processes wrote and drop caches when anything changed. */
  sync(): void {
    this.store.refresh();
    const stamp = `${this.store.traceCount}:${this.store.listScores().length}`;
    const routes = this.store.readRoutes();
    if (stamp === this.stamp && routes === this.routes) return;
    this.stamp = stamp;
    this.cache.clear();
    const tracesStamp = String(this.store.traceCount);
    if (tracesStamp !== this.tracesStamp || routes !== this.routes) {
      this.tracesStamp = tracesStamp;
      this.routes = routes;
      this.loaded.clear();
      this.byTask = new Map();
      this.traceTasks = new Map();
      for (const info of this.store.traceInfos()) {
        this.traceTasks.set(info.id, info.task);
        const task = info.task ?? UNROUTED;
        let t = this.byTask.get(task);
        if (!t) this.byTask.set(task, (t = { count: 0, correct: 0, wrong: 0, menu: new Map() }));
        t.count++;
        if (info.correct === true) t.correct++;
        else if (info.correct === false) t.wrong++;
        for (const i of info.menu) {
          const def = this.store.toolDef(i);
          if (!t.menu.has(def.name)) t.menu.set(def.name, def);
        }
      }
    }
    const runs = new Map<string, string[]>();
    for (const row of this.store.listScores()) {
      const task = rowTask(row, this.traceTasks);
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

  /** The task's data in `run` (asked for), else in `preferred` while it holds scores of the task, else
   * in the task's latest run (choose-run.ts). */
  task(task: string, run?: string, preferred?: string): TaskData {
    this.sync();
    const choice = chooseRun(this.runsOf(task), { run, preferred, scope: `for task "${task}"` });
    const chosen = choice.run ?? null;
    const key = `${task}\u0000${chosen ?? ''}`;
    const hit = this.cache.get(key);
    if (hit) return hit;
    const traces = this.byTask.get(task);
    const runs = this.runsOf(task);
    if (!traces && runs.length === 0) throw notFound(unknownTask(this.store.dir, task, this.tasks()));
    // One row per trace in a run, each under its task (task-rows.ts).
    const rows: StoredScore[] = chosen ? runRows(this.store, chosen, this.traceTasks).filter((r) => (r.task ?? UNROUTED) === task) : [];
    const rowByTrace = new Map(rows.map((r) => [r.trace, r]));
    const menu = new Map<string, ToolDef>(traces?.menu);
    for (const r of rows) for (const name of r.exposed) if (!menu.has(name)) menu.set(name, { name });
    const fit = rows.length > 0 ? fitTask(task, rows, { bootstrap: false }) : null;
    const load = (): Trace[] => this.tracesOf(task);
    const data: TaskData = {
      task,
      get traces() {
        return load();
      },
      requests: traces?.count ?? 0,
      correct: traces?.correct ?? 0,
      wrong: traces?.wrong ?? 0,
      run: chosen,
      runs,
      rows,
      rowByTrace,
      fit,
      menu,
    };
    this.cache.set(key, data);
    return data;
  }

  /** The traces of a task, read once and kept for the last LOADED_TASKS tasks asked for. */
  private tracesOf(task: string): Trace[] {
    let traces = this.loaded.get(task);
    if (traces) {
      this.loaded.delete(task); // most recently used last
    } else {
      traces = this.byTask.has(task) ? this.store.listTraces((info) => (info.task ?? UNROUTED) === task) : [];
      while (this.loaded.size >= LOADED_TASKS) this.loaded.delete(this.loaded.keys().next().value!);
    }
    this.loaded.set(task, traces);
    return traces;
  }
}

/** A task not in the project: the tasks it has, or how to get some. */
export function unknownTask(dir: string, task: string, tasks: readonly string[]): string {
  return `no task "${task}" in ${dir}; ${tasks.length > 0 ? `tasks: ${tasks.map((t) => `"${t}"`).join(', ')}` : 'the project has no tasks yet (import traces first)'}`;
}
