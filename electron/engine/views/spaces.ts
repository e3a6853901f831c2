// The space editor's data: the proposal (top-K at the recommended budget), every accepted version, and
// acceptance with the checks the store cannot make (tools on the menu, pins kept, bans dropped, a note
// for any edit of the proposal).
import { selectTopK } from '../../../shared/lots/select';
import type { ApiParsedInput } from '../../../shared/api/schemas';
import type { SpaceCandidate, SpaceState } from '../../../shared/api/types';
import type { SelectionRule, SpaceVersion } from '../../../shared/project/spaces';
import { withEdits } from '../read-model/proposal';
import type { ProjectStore } from '../store';
import { buildBudget } from './budget';
import { invalid } from '../../../shared/api/errors';
import type { TaskData } from '../read-model/project-index';
import { sameSet } from '../../../shared/benchmark/sweep';

export function buildSpaceState(store: ProjectStore, data: TaskData): SpaceState {
  const { versions } = store.readSpaces(data.task);
  const approved = versions.at(-1) ?? null;
  const ranking = data.fit?.ranking ?? [];
  const budget = buildBudget(data, store.readSweep(data.task));
  const k = budget.recommendedK ?? ranking.length;
  const proposal = { tools: selectTopK(ranking, k), rule: { kind: 'topk' as const, k: Math.max(1, k) }, run: data.run };
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

/** The task's latest update proposal as the space editor offers it (the update's rule as a selection rule). */
export function updateProposal(
  store: ProjectStore,
  task: string,
  approved: SpaceVersion | null,
): (NonNullable<SpaceState['update']> & { running: Record<string, number> }) | null {
  const updates = store.readUpdates(task);
  const last = updates?.batches.at(-1);
  if (!updates || !last) return null;
  const r = updates.rule;
  const rule: SelectionRule = r.kind === 'topk' ? { kind: 'topk', k: r.k } : { kind: 'support', tau: r.tau, phi: r.phi };
  return { batch: last.batch, tools: withEdits(last.proposed, approved ?? undefined), rule, alpha: updates.alpha, running: last.running };
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

export function acceptSpace(store: ProjectStore, data: TaskData, input: ApiParsedInput<'acceptSpace'>): SpaceVersion {
  const known = new Set(data.menu.keys());
  const unknown = [...input.tools, ...input.pinned, ...input.banned].filter((t) => !known.has(t));
  if (unknown.length > 0)
    throw invalid(`tools not on any menu of task "${data.task}": ${[...new Set(unknown)].join(', ')}; a space can only hold tools the task was served with`);
  const tools = new Set(input.tools);
  const banned = new Set(input.banned);
  const lostPins = input.pinned.filter((t) => !tools.has(t));
  if (lostPins.length > 0) throw invalid(`pinned tools must be in the space: ${lostPins.join(', ')}`);
  const keptBans = input.tools.filter((t) => banned.has(t));
  if (keptBans.length > 0) throw invalid(`banned tools cannot be in the space: ${keptBans.join(', ')}; unban them or remove them`);
  const ranking = data.fit?.ranking ?? [];
  const note = input.note.trim();
  // Approving the update proposal as it stands is not an edit: its rule and running scores are recorded.
  const update = updateProposal(store, data.task, store.readSpaces(data.task).versions.at(-1) ?? null);
  const isUpdate = update !== null && sameSet(update.tools, input.tools) && JSON.stringify(input.rule) === JSON.stringify(update.rule);
  if (!note && !isUpdate && isEdit(input, ranking)) {
    throw invalid('a note is required when the space differs from the top-K proposal (say why: it is kept with the version)');
  }
  const order = new Map(ranking.map((r, i) => [r.tool, i]));
  const ordered = [...tools].sort((a, b) => (order.get(a) ?? Infinity) - (order.get(b) ?? Infinity) || (a < b ? -1 : a > b ? 1 : 0));
  const runningScores = isUpdate ? update.running : Object.fromEntries(ranking.map((r) => [r.tool, r.mean]));
  return store.acceptSpace({
    task: data.task,
    tools: ordered,
    pinned: input.pinned,
    banned: input.banned,
    rule: input.rule,
    note,
    ...((input.run ?? data.run) ? { run: input.run ?? data.run ?? undefined } : {}),
    ...(ranking.length > 0 || isUpdate ? { runningScores } : {}),
  });
}

function isEdit(input: ApiParsedInput<'acceptSpace'>, ranking: readonly { tool: string; mean: number }[]): boolean {
  if (input.rule.kind !== 'topk') return input.rule.kind === 'manual' || input.pinned.length > 0 || input.banned.length > 0;
  if (input.pinned.length > 0 || input.banned.length > 0) return true;
  const expected = selectTopK(ranking, input.rule.k);
  const got = new Set(input.tools);
  return expected.length !== got.size || expected.some((t) => !got.has(t));
}
