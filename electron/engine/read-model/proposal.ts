// The proposal a task's update history makes, with the operator's edits of the approved version on top:
// read by the space editor (views/spaces.ts), written by the update use case (usecases/update.ts) and
// approved through the space use case (usecases/space.ts).
import type { SpaceState } from '../../../shared/api/types';
import type { SelectionRule, SpaceVersion } from '../../../shared/project/spaces';
import type { ReadOnlyProjectStore } from '../store';

/** The operator's edits outlive updates: pinned tools stay in, banned and deferred ones stay out. */
export function withEdits(proposed: readonly string[], approved: SpaceVersion | undefined | null): string[] {
  if (!approved) return [...proposed];
  const out = new Set([...approved.banned, ...approved.deferEdits]);
  const kept = proposed.filter((t) => !out.has(t));
  return [...kept, ...approved.pinned.filter((t) => !kept.includes(t) && !out.has(t))];
}

/** The task's latest update proposal as the space editor offers it (the update's rule as a selection rule). */
export function updateProposal(
  store: ReadOnlyProjectStore,
  task: string,
  approved: SpaceVersion | null,
): (NonNullable<SpaceState['update']> & { running: Record<string, number> }) | null {
  const updates = store.readUpdates(task);
  const last = updates?.batches.at(-1);
  if (!updates || !last) return null;
  const r = updates.rule;
  const rule: SelectionRule = r.kind === 'topk' ? { kind: 'topk', k: r.k } : { kind: 'support', tau: r.tau, phi: r.phi };
  return { batch: last.batch, tools: withEdits(last.proposed, approved), rule, alpha: updates.alpha, running: last.running };
}
