// Diagnostics a reviewer asks of a fitted space, computed from stored scores alone (no model run):
// does the ranking find the gold chain (paper Tables 18–19's chain identification), how often does the
// deployed space recur when the fitting requests are resampled, do rankings from correct and from wrong
// traces agree (Appendix E.5), and how does the space change with fewer fitting traces (E.6).
import type { ScoreRow } from '../project/scores';
import { sameSet } from '../base/sets';
import { fitTask } from './fit';
import { mulberry32, shuffle } from './prng';

/** Whether the top |G| of a ranking hold the whole gold chain G, and each chain tool's rank (null: unranked). */
export interface ChainIdentification {
  chain: string[];
  topG: string[];
  found: boolean;
  ranks: Record<string, number | null>;
}

export function chainIdentification(ranking: readonly string[], chain: readonly string[]): ChainIdentification {
  const topG = ranking.slice(0, chain.length);
  const ranks: Record<string, number | null> = {};
  for (const tool of chain) {
    const i = ranking.indexOf(tool);
    ranks[tool] = i < 0 ? null : i + 1;
  }
  return { chain: [...chain], topG, found: chain.length > 0 && chain.every((t) => topG.includes(t)), ranks };
}

/** The mean rank of one role's chain tools over several families (1 is best). */
export interface RoleRank {
  /** Mean rank over the ranked tools of this role; undefined when none is ranked. */
  mean: number | undefined;
  /** Chain tools of this role that the rankings place. */
  tools: number;
  /** Chain tools of this role no ranking places (never scored): left out of the mean. */
  unranked: number;
}

/**
 * Paper Table 18's chain-identification columns: the mean rank of the chain tools, split by role. A
 * chain's last tool computes the answer (downstream: Calculator, Translate; compute_only's lone
 * Calculator too); the tools before it feed it (upstream: TableQuery, DocRetrieve, ExchangeRate, …).
 * Re-executing a chain without an upstream tool breaks its dependents, so the re-execute deletion
 * credits an upstream tool with their loss; deleting only its recorded line does not (E.3).
 */
export function chainRoleRanks(identifications: readonly ChainIdentification[]): { upstream: RoleRank; downstream: RoleRank } {
  const collect = (pick: (c: ChainIdentification) => readonly string[]): RoleRank => {
    const ranks = identifications.flatMap((c) => pick(c).map((t) => c.ranks[t] ?? null));
    const placed = ranks.filter((r): r is number => r !== null);
    return {
      mean: placed.length > 0 ? placed.reduce((a, b) => a + b, 0) / placed.length : undefined,
      tools: placed.length,
      unranked: ranks.length - placed.length,
    };
  };
  return {
    upstream: collect((c) => c.chain.slice(0, -1)),
    downstream: collect((c) => c.chain.slice(-1)),
  };
}

/** Jaccard similarity of two tool sets (1 when both are empty). */
export function jaccard(a: readonly string[], b: readonly string[]): number {
  const union = new Set([...a, ...b]);
  if (union.size === 0) return 1;
  return a.filter((t) => b.includes(t)).length / union.size;
}

export interface Recurrence {
  /** Share of resamples whose top-K space is exactly `space` (as a set). */
  share: number;
  resamples: number;
}

/**
 * Refit the task's top-K space on `resamples` bootstrap resamples of its scored requests (drawn with
 * replacement, seeded) and count how often the deployed space comes back exactly.
 */
export function spaceRecurrence(
  task: string,
  rows: readonly ScoreRow[],
  k: number,
  space: readonly string[],
  options: { resamples?: number; seed?: number } = {},
): Recurrence {
  const resamples = options.resamples ?? 2000;
  if (rows.length === 0 || resamples <= 0) return { share: 0, resamples: 0 };
  const rng = mulberry32(options.seed ?? 1);
  let hits = 0;
  for (let r = 0; r < resamples; r++) {
    const draw = Array.from({ length: rows.length }, () => rows[Math.floor(rng() * rows.length)]!);
    if (sameSet(fitTask(task, draw, { k, bootstrap: false }).space, space)) hits++;
  }
  return { share: hits / resamples, resamples };
}

/**
 * Spearman's ρ between two rankings over the tools both rank (ranks recomputed within that common set,
 * so the formula 1 − 6Σd²/(n(n²−1)) holds without ties). Undefined below two common tools.
 */
export function spearman(a: readonly string[], b: readonly string[]): { rho: number | undefined; n: number } {
  const common = a.filter((t) => b.includes(t));
  const n = common.length;
  if (n < 2) return { rho: undefined, n };
  const rankIn = (list: readonly string[]) => new Map(list.filter((t) => common.includes(t)).map((t, i) => [t, i + 1]));
  const ra = rankIn(a);
  const rb = rankIn(b);
  let d2 = 0;
  for (const t of common) d2 += (ra.get(t)! - rb.get(t)!) ** 2;
  return { rho: 1 - (6 * d2) / (n * (n * n - 1)), n };
}

export interface OutcomeAgreement {
  correct: number;
  wrong: number;
  /** Spearman's ρ of the correct-only and wrong-only rankings (undefined when either side is empty or < 2 common tools). */
  rho: number | undefined;
  common: number;
}

/** Appendix E.5: rank the task's tools from its correct traces alone and from its wrong traces alone, and compare. */
export function correctWrongAgreement(task: string, rows: readonly ScoreRow[], correct: ReadonlyMap<string, boolean | null>): OutcomeAgreement {
  const right = rows.filter((r) => correct.get(r.trace) === true);
  const wrong = rows.filter((r) => correct.get(r.trace) === false);
  if (right.length === 0 || wrong.length === 0) return { correct: right.length, wrong: wrong.length, rho: undefined, common: 0 };
  const rank = (subset: readonly ScoreRow[]) => fitTask(task, subset, { bootstrap: false }).ranking.map((r) => r.tool);
  const { rho, n } = spearman(rank(right), rank(wrong));
  return { correct: right.length, wrong: wrong.length, rho, common: n };
}

export interface CountSensitivityPoint {
  /** Fitting traces per draw. */
  traces: number;
  draws: number;
  /** Mean Jaccard similarity of the draw's top-K space with the space from every trace. */
  jaccard: number;
  /** Share of draws whose space is exactly the full-data space. */
  same: number;
  /** Share of draws whose top |G| hold the gold chain (when a chain is given). */
  chainFound?: number;
}

/**
 * Appendix E.6: fit the top-K space from `traces` fitting traces drawn without replacement (each size
 * `draws` times, seeded) and compare it with the space fitted from all of them. Sizes above the number
 * of scored traces are left out.
 */
export function traceCountSensitivity(
  task: string,
  rows: readonly ScoreRow[],
  k: number,
  options: { sizes?: readonly number[]; draws?: number; seed?: number; chain?: readonly string[] } = {},
): CountSensitivityPoint[] {
  const sizes = options.sizes ?? [1, 2, 4, 8];
  const draws = options.draws ?? 200;
  const full = fitTask(task, rows, { k, bootstrap: false }).space;
  const rng = mulberry32(options.seed ?? 1);
  const out: CountSensitivityPoint[] = [];
  for (const size of sizes) {
    if (size > rows.length || size <= 0) continue;
    let jac = 0;
    let same = 0;
    let chainHits = 0;
    for (let d = 0; d < draws; d++) {
      const fit = fitTask(task, shuffle(rows, rng).slice(0, size), { k, bootstrap: false });
      jac += jaccard(fit.space, full);
      if (sameSet(fit.space, full)) same++;
      if (
        options.chain &&
        chainIdentification(
          fit.ranking.map((r) => r.tool),
          options.chain,
        ).found
      )
        chainHits++;
    }
    out.push({ traces: size, draws, jaccard: jac / draws, same: same / draws, ...(options.chain ? { chainFound: chainHits / draws } : {}) });
  }
  return out;
}
