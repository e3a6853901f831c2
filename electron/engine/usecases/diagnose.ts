// Use case "diagnose": the ranking diagnostics a reviewer asks for, from a project's stored scores alone
// (no model run): chain identification (benchmark tasks, whose gold chain is known), how often the
// deployed space recurs under bootstrap refits, correct-only vs wrong-only rankings (E.5), and the space
// from fewer fitting traces (E.6). `lots diagnose` prints it.
import { FAMILIES } from '../../../shared/benchmark/families';
import { isFamilyName } from '../../../shared/benchmark/family';
import { groupRowsByTask } from '../../../shared/lots/aggregate';
import {
  chainIdentification,
  chainRoleRanks,
  correctWrongAgreement,
  spaceRecurrence,
  traceCountSensitivity,
  type ChainIdentification,
  type CountSensitivityPoint,
  type OutcomeAgreement,
  type Recurrence,
  type RoleRank,
} from '../../../shared/lots/diagnostics';
import { fitTask } from '../../../shared/lots/fit';
import type { ProjectStore } from '../store';
import { sweepBudgets } from '../read-model/sweep-budget';
import { projectRunRows } from '../read-model/task-rows';

export interface DiagnoseOptions {
  run?: string;
  tasks?: readonly string[];
  resamples?: number;
  draws?: number;
  sizes?: readonly number[];
  seed?: number;
}

export interface TaskDiagnosis {
  task: string;
  /** Scored fitting requests. */
  requests: number;
  k: number;
  /** Where K came from: the task's stored budget sweep (of this run, or of another run: `budgetRun`), or
   * every scored tool when it has none. */
  budgetSource: 'sweep' | 'other-run' | 'eligible';
  /** The scoring run the stored sweep ranked with, when it is not the diagnosed run. */
  budgetRun?: string;
  space: string[];
  ranking: string[];
  /** Only for the built-in benchmark's families. */
  chain?: ChainIdentification;
  recurrence: Recurrence;
  outcomes: OutcomeAgreement;
  counts: CountSensitivityPoint[];
}

export interface ProjectDiagnosis {
  run: string;
  tasks: TaskDiagnosis[];
  /** E.5 as the paper computes it (Figure 18): one ranking from every task's correct traces pooled, one from the wrong ones. */
  pooledOutcomes: OutcomeAgreement;
  /** Paper Table 18: the mean rank of the chains' upstream and downstream tools over the benchmark tasks (absent without one). */
  chainRanks?: { upstream: RoleRank; downstream: RoleRank };
}

export function diagnoseProject(store: ProjectStore, options: DiagnoseOptions = {}): ProjectDiagnosis | undefined {
  const picked = projectRunRows(store, options.run);
  if (!picked) return undefined;
  const budgets = sweepBudgets(store);
  const correct = new Map<string, boolean | null>();
  for (const info of store.traceInfos()) correct.set(info.id, info.correct);
  const wanted = options.tasks ? new Set(options.tasks) : undefined;
  const tasks: TaskDiagnosis[] = [];
  for (const [task, rows] of groupRowsByTask(picked.rows)) {
    if (wanted && !wanted.has(task)) continue;
    const swept = budgets.get(task);
    const sweptRun = swept !== undefined ? store.readSweep(task)?.run : undefined;
    const otherRun = sweptRun !== undefined && sweptRun !== picked.choice.run ? sweptRun : undefined;
    const first = fitTask(task, rows, swept !== undefined ? { k: swept, bootstrap: false } : { bootstrap: false });
    const k = swept ?? first.space.length;
    const ranking = first.ranking.map((r) => r.tool);
    const chain = isFamilyName(task) ? FAMILIES[task].chainTools : undefined;
    tasks.push({
      task,
      requests: rows.length,
      k,
      budgetSource: swept === undefined ? 'eligible' : otherRun !== undefined ? 'other-run' : 'sweep',
      ...(otherRun !== undefined ? { budgetRun: otherRun } : {}),
      space: first.space,
      ranking,
      ...(chain && chain.length > 0 ? { chain: chainIdentification(ranking, chain) } : {}),
      recurrence: spaceRecurrence(task, rows, k, first.space, { resamples: options.resamples, seed: options.seed }),
      outcomes: correctWrongAgreement(task, rows, correct),
      counts: traceCountSensitivity(task, rows, k, {
        sizes: options.sizes,
        draws: options.draws,
        seed: options.seed,
        ...(chain && chain.length > 0 ? { chain } : {}),
      }),
    });
  }
  tasks.sort((a, b) => (a.task < b.task ? -1 : a.task > b.task ? 1 : 0));
  const chosen = new Set(tasks.map((t) => t.task));
  const pooledRows = picked.rows.filter((r) => chosen.has(r.task ?? ''));
  const chains = tasks.flatMap((t) => (t.chain ? [t.chain] : []));
  return {
    run: picked.choice.run,
    tasks,
    pooledOutcomes: correctWrongAgreement('(pooled)', pooledRows, correct),
    ...(chains.length > 0 ? { chainRanks: chainRoleRanks(chains) } : {}),
  };
}
