// The ranking view: Ī_t(s) with support n, a bootstrap interval over requests, rank stability at K, and
// the faithfulness checks of the run (views/faithfulness.ts).
import { fitTask } from '../../../shared/lots/fit';
import type { FaithfulnessPoint, RankingData } from '../../../shared/api/types';
import type { TaskData } from '../read-model/project-index';

/** Bootstrap work is resamples × stored scores; keep one ranking request to about a second of CPU. */
const BOOTSTRAP_BUDGET = 60_000_000;
const MAX_RESAMPLES = 1000;
const MIN_RESAMPLES = 100;
const LEVEL = 0.95;

export function bootstrapResamples(scoredCells: number): number {
  if (scoredCells === 0) return MAX_RESAMPLES;
  return Math.max(MIN_RESAMPLES, Math.min(MAX_RESAMPLES, Math.floor(BOOTSTRAP_BUDGET / scoredCells)));
}

export function buildRanking(data: TaskData, k: number | undefined, faithfulness: FaithfulnessPoint[] = [], checkModel: string | null = null): RankingData {
  const unscored = [...data.menu.keys()].filter((t) => !data.fit?.ranking.some((r) => r.tool === t)).sort();
  if (!data.fit) {
    return {
      task: data.task,
      run: null,
      requests: data.requests,
      scoredRequests: 0,
      k: k ?? 0,
      resamples: 0,
      level: LEVEL,
      rows: [],
      unscored,
      faithfulness: [],
      checkModel: null,
    };
  }
  const budget = Math.min(k ?? data.fit.ranking.length, data.fit.ranking.length);
  const cells = data.rows.reduce((n, r) => n + Object.keys(r.scores).length, 0);
  const resamples = bootstrapResamples(cells);
  const fit = fitTask(data.task, data.rows, { k: budget, bootstrap: { resamples, level: LEVEL } });
  const sharedOn = new Map<string, number>();
  for (const row of data.rows) for (const tool of Object.keys(row.shared ?? {})) sharedOn.set(tool, (sharedOn.get(tool) ?? 0) + 1);
  return {
    task: data.task,
    run: data.run,
    requests: Math.max(data.requests, data.rows.length),
    scoredRequests: data.rows.length,
    k: budget,
    resamples,
    level: LEVEL,
    rows: fit.ranking.map((r) => ({
      tool: r.tool,
      rank: r.rank,
      mean: r.mean,
      n: r.n,
      exposed: r.exposed,
      lo: r.lo,
      hi: r.hi,
      topKShare: finiteOrNull(r.topKShare),
      meanRank: finiteOrNull(r.meanRank),
      sharedOn: sharedOn.get(r.tool) ?? 0,
    })),
    unscored,
    faithfulness,
    checkModel,
  };
}

/** JSON has no NaN: a statistic that could not be computed travels as null. */
function finiteOrNull(v: number | undefined): number | null {
  return v !== undefined && Number.isFinite(v) ? v : null;
}
