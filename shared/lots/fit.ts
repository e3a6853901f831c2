// One call from score rows to per-task rankings and spaces: what `lots fit` prints and the ranking view shows.
import type { ScoreRow } from '../project/scores';
import type { SelectionRule } from '../project/spaces';
import { aggregateOneTask, compareNames, groupRowsByTask } from './aggregate';
import { bootstrapRanking, DEFAULT_RESAMPLES, DEFAULT_SEED } from './bootstrap';
import { rankTools } from './rank';
import { selectByThreshold, selectBySupport, selectTopK, supportFrequencies } from './select';

export type FitRuleKind = 'topk' | 'threshold' | 'support';

/**
 * Defaults of the alternative rules: keep tools with a positive mean; support frequency keeps a tool
 * when ≥ 5% of its scored requests have I_x(s) > 0.05. That is our reading of the paper's "threshold
 * 5%" (D.5, Figures 15 and 18), which it does not define: the threshold acts on the scores (§E: the
 * rule keeps fewer tools when the scores are smaller, where top-K would not change — a cut at I > 0
 * would not change either), 0.05 nats per token being a 5% change of the answer's per-token
 * likelihood (e^0.05 ≈ 1.05); the share cut φ stays at 5% of the requests (README, "where it differs").
 */
export const DEFAULT_TAU = 0;
export const DEFAULT_SUPPORT_TAU = 0.05;
export const DEFAULT_PHI = 0.05;

export interface FitOptions {
  rule?: FitRuleKind;
  /** Budget for every task (top-K rule). */
  k?: number;
  /** Per-task budgets, e.g. the bestK of stored budget sweeps; used when `k` is not given. */
  budgets?: ReadonlyMap<string, number>;
  /** Mean threshold (threshold rule) or per-request threshold τ_s (support rule). */
  tau?: number;
  phi?: number;
  /** Only these tasks (all when absent). */
  tasks?: readonly string[];
  /** Bootstrap settings; `false` skips intervals (lo/hi then equal the mean). */
  bootstrap?: { resamples?: number; seed?: number; level?: number } | false;
}

export interface RankedToolFit {
  rank: number;
  tool: string;
  mean: number;
  n: number;
  /** Requests of the task that exposed the tool. */
  exposed: number;
  lo: number;
  hi: number;
  /** Share of bootstrap resamples in which the tool stays in the top-K of this fit. */
  topKShare?: number;
  meanRank?: number;
  /** Support frequency (support rule only). */
  support?: number;
}

/** Where K came from: the --k flag, a stored budget sweep, or "keep every eligible tool". */
export type BudgetSource = 'flag' | 'sweep' | 'eligible' | 'rule';

export interface TaskFit {
  task: string;
  requests: number;
  ranking: RankedToolFit[];
  space: string[];
  /** The budget for the top-K rule (may exceed |space| when |A_t| < K); |space| for the other rules. */
  k: number;
  rule: SelectionRule;
  budgetSource: BudgetSource;
  /** Exposed but never scored: not eligible, never padded in. */
  unscored: string[];
}

export function fitTasks(rows: readonly ScoreRow[], options: FitOptions = {}): TaskFit[] {
  const groups = groupRowsByTask(rows);
  const wanted = options.tasks ? new Set(options.tasks) : undefined;
  const out: TaskFit[] = [];
  for (const [task, taskRows] of groups) if (!wanted || wanted.has(task)) out.push(fitTask(task, taskRows, options));
  return out.sort((a, b) => compareNames(a.task, b.task));
}

export function fitTask(task: string, rows: readonly ScoreRow[], options: FitOptions = {}): TaskFit {
  const scores = aggregateOneTask(task, rows);
  const ranked = rankTools(scores.tools);
  const ruleKind = options.rule ?? 'topk';
  let space: string[];
  let k: number;
  let rule: SelectionRule;
  let budgetSource: BudgetSource = 'rule';
  let support: Map<string, number> | undefined;
  if (ruleKind === 'threshold') {
    const tau = options.tau ?? DEFAULT_TAU;
    space = selectByThreshold(ranked, tau);
    k = space.length;
    rule = { kind: 'threshold', tau };
  } else if (ruleKind === 'support') {
    const tau = options.tau ?? DEFAULT_SUPPORT_TAU;
    const phi = options.phi ?? DEFAULT_PHI;
    space = selectBySupport(scores.tools, tau, phi);
    support = new Map(supportFrequencies(scores.tools, tau).map((e) => [e.tool, e.support]));
    k = space.length;
    rule = { kind: 'support', tau, phi };
  } else {
    const fromSweep = options.budgets?.get(task);
    if (options.k !== undefined) {
      k = options.k;
      budgetSource = 'flag';
    } else if (fromSweep !== undefined && fromSweep > 0) {
      k = fromSweep;
      budgetSource = 'sweep';
    } else {
      k = ranked.length;
      budgetSource = 'eligible';
    }
    space = selectTopK(ranked, k);
    // SelectionRule needs K ≥ 1; an empty task keeps K = 0 in `k` and records the smallest valid rule.
    rule = { kind: 'topk', k: Math.max(1, k) };
  }

  const boot =
    options.bootstrap === false
      ? undefined
      : new Map(
          bootstrapRanking(rows, {
            k: space.length,
            resamples: options.bootstrap?.resamples ?? DEFAULT_RESAMPLES,
            seed: options.bootstrap?.seed ?? DEFAULT_SEED,
            level: options.bootstrap?.level,
          }).map((b) => [b.tool, b]),
        );

  const ranking = ranked.map((s, i): RankedToolFit => {
    const b = boot?.get(s.tool);
    return {
      rank: i + 1,
      tool: s.tool,
      mean: s.mean,
      n: s.n,
      exposed: s.exposed,
      lo: b ? b.lo : s.mean,
      hi: b ? b.hi : s.mean,
      ...(b ? { topKShare: b.topKShare, meanRank: b.meanRank } : {}),
      ...(support ? { support: support.get(s.tool) ?? 0 } : {}),
    };
  });
  return { task, requests: scores.requests, ranking, space, k, rule, budgetSource, unscored: scores.unscored };
}
