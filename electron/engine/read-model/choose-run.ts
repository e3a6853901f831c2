// Use case "which run": the scoring run a view, an export or a fit reads. One rule for the CLI and the
// API: the run asked for (it must hold scores in scope), else a preferred run while it still holds
// scores there (an approved space's own run), else the latest run (the one appended to last).
import { notFound } from '../../../shared/api/errors';

export interface RunChoice {
  /** The chosen run; undefined when the scope holds no scores. */
  run: string | undefined;
  /** Every run in scope, most recently appended last. */
  runs: readonly string[];
  /** How it was chosen: asked for, the preferred run, or the latest by default. */
  by: 'asked' | 'preferred' | 'latest' | 'none';
}

/**
 * `runs`: the runs in scope (a task's, or the project's), most recently appended last; `scope` names it in
 * the error ("for task \"fx\"", "in /path/to/project").
 */
export function chooseRun(runs: readonly string[], options: { run?: string; preferred?: string; scope: string }): RunChoice {
  const { run, preferred, scope } = options;
  if (run !== undefined) {
    if (!runs.includes(run)) throw notFound(`no scoring run "${run}" ${scope}; runs: ${runs.map((r) => `"${r}"`).join(', ') || '(none)'}`);
    return { run, runs, by: 'asked' };
  }
  if (preferred !== undefined && runs.includes(preferred)) return { run: preferred, runs, by: 'preferred' };
  const latest = runs.at(-1);
  return { run: latest, runs, by: latest === undefined ? 'none' : 'latest' };
}
