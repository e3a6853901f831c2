// The proposal a task's update history makes, with the operator's edits of the approved version on top:
// read by the space editor (views/spaces.ts) and written by the update use case (usecases/update.ts).
import type { SpaceVersion } from '../../../shared/project/spaces';

/** The operator's edits outlive updates: pinned tools stay in, banned ones stay out. */
export function withEdits(proposed: readonly string[], approved: SpaceVersion | undefined): string[] {
  if (!approved) return [...proposed];
  const banned = new Set(approved.banned);
  const kept = proposed.filter((t) => !banned.has(t));
  return [...kept, ...approved.pinned.filter((t) => !kept.includes(t) && !banned.has(t))];
}
