// The budget a task's stored sweep chose, read by the budget view, the export's proposal and `lots fit`
// alike: one rule, so the three agree on K.
import { selectBudget } from '../../../shared/lots/budget';
import type { SweepResult } from '../../../shared/project/sweeps';
import type { ReadOnlyProjectStore } from '../store';

/** The budget a stored sweep chose: its best K, else the smallest K with the highest accuracy. */
export function sweepBudget(sweep: SweepResult): number | undefined {
  return sweep.bestK ?? selectBudget(sweep.points);
}

/** The budget of every stored sweep, by task (tasks whose sweep chose no K are left out). */
export function sweepBudgets(store: ReadOnlyProjectStore): Map<string, number> {
  const budgets = new Map<string, number>();
  for (const sweep of store.listSweeps()) {
    const k = sweepBudget(sweep);
    if (k !== undefined && k > 0) budgets.set(sweep.task, k);
  }
  return budgets;
}
