// Turning a ranking into a space: top-K (eq. 4), the mean-score threshold, and support frequency.
import type { ToolScoreStats } from './aggregate';
import { rankTools, type Scored } from './rank';

/** E_t = TopK over the ranked eligible tools. Never pads: |E_t| = min(K, |A_t|). */
export function selectTopK(ranking: readonly Scored[], k: number): string[] {
  if (!Number.isInteger(k) || k < 0) throw new RangeError(`the budget K must be a non-negative integer, got ${k}`);
  return ranking.slice(0, Math.min(k, ranking.length)).map((r) => r.tool);
}

/** Keep every tool whose task mean is strictly above tau, in ranking order. */
export function selectByThreshold(ranking: readonly Scored[], tau: number): string[] {
  return ranking.filter((r) => r.mean > tau).map((r) => r.tool);
}

export interface SupportEntry {
  tool: string;
  /** Share of the tool's scored requests with I_x(s) > tauS. */
  support: number;
  n: number;
}

/** Support frequency of every scored tool, in ranking order. */
export function supportFrequencies(stats: readonly ToolScoreStats[], tauS: number): SupportEntry[] {
  return rankTools(stats).map((s) => {
    let above = 0;
    for (const v of s.values) if (v > tauS) above++;
    return { tool: s.tool, support: s.n === 0 ? 0 : above / s.n, n: s.n };
  });
}

/**
 * Support-frequency retention — our reading of the paper's rule (Appendix D.5/E: "support-frequency
 * retention, threshold 5%"; defaults in fit.ts): keep a tool when the share of its scored requests with
 * I_x(s) > tauS is at least phi. Returned in ranking order (mean desc, name).
 */
export function selectBySupport(stats: readonly ToolScoreStats[], tauS: number, phi: number): string[] {
  if (!(phi >= 0 && phi <= 1)) throw new RangeError(`phi is a share between 0 and 1, got ${phi}`);
  return supportFrequencies(stats, tauS)
    .filter((e) => e.n > 0 && e.support >= phi)
    .map((e) => e.tool);
}
