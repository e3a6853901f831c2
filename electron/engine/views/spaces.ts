// The space editor's data: the proposal (top-K at the recommended budget pinned, the task's other observed
// tools deferred, the rest hidden), every accepted version, the approved one and the update proposal.
// Approving is the space use case (usecases/space.ts); `lots space show/propose` read this same state.
import { selectTopK } from '../../../shared/lots/select';
import { defaultDeferred } from '../../../shared/lots/space-draft';
import type { SpaceCandidate, SpaceState } from '../../../shared/api/types';
import type { SpaceVersion } from '../../../shared/project/spaces';
import { approvedSpace } from '../read-model/approved-space';
import { updateProposal } from '../read-model/proposal';
import type { ReadOnlyProjectStore } from '../store';
import { buildBudget } from './budget';
import type { TaskData } from '../read-model/project-index';

export function buildSpaceState(store: ReadOnlyProjectStore, data: TaskData): SpaceState {
  const { versions } = store.readSpaces(data.task);
  const approved = approvedSpace(store, data.task);
  const ranking = data.fit?.ranking ?? [];
  const budget = buildBudget(data, store.readSweep(data.task));
  const k = budget.recommendedK ?? ranking.length;
  const tools = selectTopK(ranking, k);
  const deferred = defaultDeferred(
    ranking.map((r) => r.tool),
    tools,
  );
  const proposal = { tools, deferred, rule: { kind: 'topk' as const, k: Math.max(1, k) }, run: data.run };
  const ranked = new Map(ranking.map((r) => [r.tool, r]));
  const candidates: SpaceCandidate[] = [
    ...ranking.map((r) => ({ tool: r.tool, rank: r.rank, mean: r.mean, n: r.n })),
    ...[...data.menu.keys()]
      .filter((t) => !ranked.has(t))
      .sort()
      .map((tool) => ({ tool, rank: null, mean: null, n: 0 })),
  ];
  return {
    task: data.task,
    versions,
    approved,
    proposal,
    candidates,
    changedSinceApproval: changedSince(approved, data),
    update: publicProposal(updateProposal(store, data.task, approved)),
  };
}

function publicProposal(u: ReturnType<typeof updateProposal>): SpaceState['update'] {
  if (!u) return null;
  const { running: _running, ...rest } = u;
  return rest;
}

/** Scores from another run, or rows appended after the approval, may change the ranking it was based on. */
export function changedSince(approved: SpaceVersion | null, data: TaskData): boolean {
  if (!approved || !data.run) return false;
  if (approved.run !== undefined && approved.run !== data.run) return true;
  return data.rows.some((r) => r.createdAt !== undefined && r.createdAt > approved.createdAt);
}
