// Use case "fit": rank each task's tools from one scoring run of a project and propose its space. The
// CLI's `lots fit --project` calls fitProject; the API's Ranking view fits the same rows (the task rows
// of task-rows.ts, in the run choose-run.ts picks), so both rank alike.
import { selectBudget } from '../../../shared/lots/budget';
import { fitTasks, type FitOptions, type TaskFit } from '../../../shared/lots/fit';
import type { StoredScore } from '../../../shared/project/scores';
import type { SweepResult } from '../../../shared/project/sweeps';
import type { ProjectStore } from '../store';
import { chooseRun, type RunChoice } from './choose-run';
import { runRows } from './task-rows';

/** The budget a stored sweep chose: its best K, else the smallest K with the highest accuracy. */
export function sweepBudget(sweep: SweepResult): number | undefined {
  return sweep.bestK ?? selectBudget(sweep.points);
}

/** The budget of every stored sweep, by task (tasks whose sweep chose no K are left out). */
export function sweepBudgets(store: ProjectStore): Map<string, number> {
  const budgets = new Map<string, number>();
  for (const sweep of store.listSweeps()) {
    const k = sweepBudget(sweep);
    if (k !== undefined && k > 0) budgets.set(sweep.task, k);
  }
  return budgets;
}

export interface ProjectFit {
  /** The run fitted (`choice.run`), with how it was chosen among the project's runs. */
  choice: RunChoice & { run: string };
  rows: StoredScore[];
  fits: TaskFit[];
}

/** The project's rows in one run (the one asked for, else the latest), with their tasks filled in;
 * undefined when the project holds no scores. */
export function projectRunRows(store: ProjectStore, run?: string): { choice: RunChoice & { run: string }; rows: StoredScore[] } | undefined {
  const choice = chooseRun(store.listRuns(), { ...(run !== undefined ? { run } : {}), scope: `in ${store.dir}` });
  if (choice.run === undefined) return undefined;
  return { choice: { ...choice, run: choice.run }, rows: runRows(store, choice.run) };
}

/** Fit every task of one run; K of the top-K rule (without `k`) from the task's stored sweep. */
export function fitProject(store: ProjectStore, options: FitOptions & { run?: string } = {}): ProjectFit | undefined {
  const { run, ...fit } = options;
  const picked = projectRunRows(store, run);
  if (!picked) return undefined;
  return { ...picked, fits: fitTasks(picked.rows, { budgets: sweepBudgets(store), ...fit }) };
}
