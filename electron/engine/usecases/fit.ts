// Use case "fit": rank each task's tools from one scoring run of a project and propose its space. The
// CLI's `lots fit --project` calls fitProject; the API's Ranking view fits the same rows (the task rows
// of read-model/task-rows.ts, in the run read-model/choose-run.ts picks), so both rank alike.
import { fitTasks, type FitOptions, type TaskFit } from '../../../shared/lots/fit';
import type { StoredScore } from '../../../shared/project/scores';
import type { ProjectStore } from '../store';
import type { RunChoice } from '../read-model/choose-run';
import { sweepBudgets } from '../read-model/sweep-budget';
import { projectRunRows } from '../read-model/task-rows';

export interface ProjectFit {
  /** The run fitted (`choice.run`), with how it was chosen among the project's runs. */
  choice: RunChoice & { run: string };
  rows: StoredScore[];
  fits: TaskFit[];
}

/** Fit every task of one run; K of the top-K rule (without `k`) from the task's stored sweep. */
export function fitProject(store: ProjectStore, options: FitOptions & { run?: string } = {}): ProjectFit | undefined {
  const { run, ...fit } = options;
  const picked = projectRunRows(store, run);
  if (!picked) return undefined;
  return { ...picked, fits: fitTasks(picked.rows, { budgets: sweepBudgets(store), ...fit }) };
}
