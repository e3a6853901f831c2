// Deterministic ranking (Appendix B.3): by score descending, ties broken by tool name.
import { compareNames } from './aggregate';

export interface Scored {
  tool: string;
  mean: number;
}

export function compareRanked(a: Scored, b: Scored): number {
  if (a.mean !== b.mean) return b.mean - a.mean;
  return compareNames(a.tool, b.tool);
}

/** A sorted copy; the input is left untouched. */
export function rankTools<T extends Scored>(items: readonly T[]): T[] {
  return [...items].sort(compareRanked);
}

/** Rank a running-score table (tool → score). */
export function rankRecord(scores: Readonly<Record<string, number>>): Scored[] {
  return rankTools(Object.entries(scores).map(([tool, mean]) => ({ tool, mean })));
}
