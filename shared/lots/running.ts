// Running scores across batches (Appendix B.3, eq. 9): Ĩ_t(s) ← α·Ī_t^(k)(s) + (1−α)·Ĩ_t(s).
// The first batch that scores a tool initialises Ĩ_t(s) to its batch mean; a tool the batch did not
// score keeps its running score unchanged (no decay). The next space is the top-K of the running scores
// over every tool scored so far, so a tool that left the space can come back under the same rule.
import { rankRecord } from './rank';
import { selectTopK } from './select';

export type RunningScores = Readonly<Record<string, number>>;

export function updateRunningScores(prev: RunningScores, batchMeans: RunningScores, alpha: number): Record<string, number> {
  if (!(alpha > 0 && alpha <= 1)) throw new RangeError(`the EMA weight alpha must be in (0, 1], got ${alpha}`);
  const next = new Map<string, number>(Object.entries(prev));
  for (const [tool, mean] of Object.entries(batchMeans)) {
    const old = next.get(tool);
    next.set(tool, old === undefined ? mean : alpha * mean + (1 - alpha) * old);
  }
  // fromEntries defines own properties, so a tool called "__proto__" is stored, not swallowed.
  return Object.fromEntries([...next].sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0)));
}

/** The next space: top-K of the running scores (ranked by score, ties by name). */
export function nextSpaceFromRunningScores(running: RunningScores, k: number): string[] {
  return selectTopK(rankRecord(running), k);
}
