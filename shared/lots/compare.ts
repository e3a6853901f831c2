// Comparing two scoring runs' rankings of the same task (paper Appendix C.1, reuse across models): do
// two models (or two scoring setups) order the task's tools the same way? Kendall's τ-b over the tools
// both runs scored, the overlap of their top-K, and the tools whose rank moved most.
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
    moved,
  };
}
