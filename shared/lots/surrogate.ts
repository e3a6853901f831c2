// The additive surrogate of Theorem 1 (paper §3.2, Appendix E.1): F̂(A) = F(S) − Σ_{s∈S\A} Ī(s).
// S is the scored menu (the ranked tools); a tool outside the ranking has no score and contributes nothing.
// F(S), the mean full-context likelihood of the frozen answers, is known only for scores computed here
// (StoredScore.turns[].base); otherwise pass 0 and read the curve as "change relative to the full menu".
import { fsum, fsumAdd, fsumValue } from './fsum';
import type { Scored } from './rank';

export interface SurrogatePoint {
  k: number;
  /** F̂ of the top-k space. */
  value: number;
  tools: string[];
}

export function surrogateValue(ranking: readonly Scored[], space: Iterable<string>, fullValue = 0): number {
  const kept = new Set(space);
  return fullValue - fsum(ranking.filter((r) => !kept.has(r.tool)).map((r) => r.mean));
}

/** F̂(TopK) for K = 0 … |ranking|. Top-K maximises F̂ among all spaces of size K, so this is the surrogate's
 * best value at every budget. */
export function surrogateCurve(ranking: readonly Scored[], fullValue = 0): SurrogatePoint[] {
  const m = ranking.length;
  // Suffix sums: the mass removed when only the top k are kept.
  const removed: number[] = new Array<number>(m + 1).fill(0);
  const partials: number[] = [];
  for (let k = m - 1; k >= 0; k--) {
    fsumAdd(partials, ranking[k]!.mean);
    removed[k] = fsumValue(partials);
  }
  return ranking
    .map((_, i) => i)
    .concat(m)
    .map((k) => ({
      k,
      value: fullValue - removed[k]!,
      tools: ranking.slice(0, k).map((r) => r.tool),
    }));
}

/** F(S): the mean over requests of L(y | h) under the full context (a record's turns averaged first);
 * undefined when no row carries it (imported scores). */
export function fullContextLikelihood(rows: readonly { turns?: readonly { base: number }[] }[]): number | undefined {
  const perRequest: number[] = [];
  for (const row of rows) {
    if (!row.turns || row.turns.length === 0) continue;
    perRequest.push(fsum(row.turns.map((t) => t.base)) / row.turns.length);
  }
  return perRequest.length === 0 ? undefined : fsum(perRequest) / perRequest.length;
}
