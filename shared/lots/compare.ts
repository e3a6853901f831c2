// Comparing two scoring runs' rankings of the same task (paper Appendix C.1, reuse across models): do
// two models (or two scoring setups) order the task's tools the same way? Kendall's τ-b over the tools
// both runs scored, the overlap of their top-K, and the tools whose rank moved most.
import { sameSet } from '../base/sets';
import { rankRecord } from './rank';

export interface RankingComparison {
  /** Tools scored by both runs (τ is computed over these). */
  common: number;
  onlyA: string[];
  onlyB: string[];
  /** Kendall's τ-b (ties in either ranking handled); null with fewer than two common tools. */
  tau: number | null;
  /** K used for the overlap. */
  k: number;
  /** |top-K(A) ∩ top-K(B)| / K, over each run's full ranking. */
  topKOverlap: number;
  topKA: string[];
  topKB: string[];
  /** Each common tool's mean score in A and in B (alphabetical), for correlations pooled over tasks. */
  scores: { tool: string; meanA: number; meanB: number }[];
  /** Common tools by |rank change|, largest first (ranks are 1-based within the common tools). */
  moved: { tool: string; rankA: number; rankB: number; meanA: number; meanB: number }[];
}

/** Kendall's τ-b between two score vectors of the same items. */
export function kendallTauB(a: readonly number[], b: readonly number[]): number | null {
  if (a.length !== b.length) throw new RangeError(`kendallTauB needs vectors of one length, got ${a.length} and ${b.length}`);
  let concordant = 0;
  let discordant = 0;
  let tiesA = 0;
  let tiesB = 0;
  for (let i = 0; i < a.length; i++) {
    for (let j = i + 1; j < a.length; j++) {
      const da = Math.sign(a[i]! - a[j]!);
      const db = Math.sign(b[i]! - b[j]!);
      if (da === 0 && db === 0) continue;
      if (da === 0) tiesA++;
      else if (db === 0) tiesB++;
      else if (da === db) concordant++;
      else discordant++;
    }
  }
  const denom = Math.sqrt((concordant + discordant + tiesA) * (concordant + discordant + tiesB));
  return denom === 0 ? null : (concordant - discordant) / denom;
}

export function compareRankings(a: Readonly<Record<string, number>>, b: Readonly<Record<string, number>>, k: number): RankingComparison {
  if (!Number.isInteger(k) || k < 1) throw new RangeError(`K must be a positive integer, got ${k}`);
  const inB = new Set(Object.keys(b));
  const inA = new Set(Object.keys(a));
  const common = Object.keys(a)
    .filter((t) => inB.has(t))
    .sort();
  const tau =
    common.length < 2
      ? null
      : kendallTauB(
          common.map((t) => a[t]!),
          common.map((t) => b[t]!),
        );
  const topKA = rankRecord(a)
    .slice(0, k)
    .map((s) => s.tool);
  const topKB = rankRecord(b)
    .slice(0, k)
    .map((s) => s.tool);
  const setB = new Set(topKB);
  const rankOf = (scores: Readonly<Record<string, number>>): Map<string, number> =>
    new Map(rankRecord(Object.fromEntries(common.map((t) => [t, scores[t]!]))).map((s, i) => [s.tool, i + 1]));
  const ra = rankOf(a);
  const rb = rankOf(b);
  const moved = common
    .map((tool) => ({ tool, rankA: ra.get(tool)!, rankB: rb.get(tool)!, meanA: a[tool]!, meanB: b[tool]! }))
    .filter((m) => m.rankA !== m.rankB)
    .sort((x, y) => Math.abs(y.rankA - y.rankB) - Math.abs(x.rankA - x.rankB) || (x.tool < y.tool ? -1 : 1));
  return {
    common: common.length,
    onlyA: Object.keys(a)
      .filter((t) => !inB.has(t))
      .sort(),
    onlyB: Object.keys(b)
      .filter((t) => !inA.has(t))
      .sort(),
    tau,
    k,
    topKOverlap: topKA.filter((t) => setB.has(t)).length / k,
    topKA,
    topKB,
    scores: common.map((tool) => ({ tool, meanA: a[tool]!, meanB: b[tool]! })),
    moved,
  };
}

/** Pearson's r of two equal-length vectors; null below two items or when either is constant. */
export function pearson(a: readonly number[], b: readonly number[]): number | null {
  if (a.length !== b.length) throw new RangeError(`pearson needs vectors of one length, got ${a.length} and ${b.length}`);
  const n = a.length;
  if (n < 2) return null;
  const ma = a.reduce((x, y) => x + y, 0) / n;
  const mb = b.reduce((x, y) => x + y, 0) / n;
  let sab = 0;
  let saa = 0;
  let sbb = 0;
  for (let i = 0; i < n; i++) {
    sab += (a[i]! - ma) * (b[i]! - mb);
    saa += (a[i]! - ma) ** 2;
    sbb += (b[i]! - mb) ** 2;
  }
  return saa === 0 || sbb === 0 ? null : sab / Math.sqrt(saa * sbb);
}

/** 1-based ranks, ties sharing their average rank (largest value first). */
export function averageRanks(x: readonly number[]): number[] {
  const order = x.map((v, i) => ({ v, i })).sort((p, q) => q.v - p.v);
  const ranks = new Array<number>(x.length);
  for (let start = 0; start < order.length;) {
    let end = start;
    while (end + 1 < order.length && order[end + 1]!.v === order[start]!.v) end++;
    for (let j = start; j <= end; j++) ranks[order[j]!.i] = (start + end) / 2 + 1;
    start = end + 1;
  }
  return ranks;
}

/** Two runs' agreement pooled over tasks (paper E.3: "their pooled scores correlate at 0.91, the top-4 sets agree in all ten families"). */
export interface PooledAgreement {
  /** (task, tool) pairs both runs scored. */
  pairs: number;
  /** Pearson's r of the two runs' mean scores over those pairs. */
  pearson: number | null;
  /** Spearman's ρ of the same pairs (average ranks for ties). */
  spearman: number | null;
  /** Tasks whose two top-K are the same set, of `tasks`. */
  sameTopK: number;
  tasks: number;
}

export function pooledAgreement(comparisons: readonly RankingComparison[]): PooledAgreement {
  const a = comparisons.flatMap((c) => c.scores.map((s) => s.meanA));
  const b = comparisons.flatMap((c) => c.scores.map((s) => s.meanB));
  return {
    pairs: a.length,
    pearson: pearson(a, b),
    spearman: pearson(averageRanks(a), averageRanks(b)),
    sameTopK: comparisons.filter((c) => sameSet(c.topKA, c.topKB)).length,
    tasks: comparisons.length,
  };
}
