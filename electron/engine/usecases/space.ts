// The space use case: approving a version of a task's space, with the checks the store cannot make (tools
// on the menu, pins kept, bans hidden, defer edits deferred, the states disjoint, a note for any edit of
// the proposal). The Studio (api/service.ts acceptSpace) and `lots space approve/edit` both call it, with
// the same input (shared/lots/space-draft.ts acceptInputOf), so both write the same version.
import type { ApiParsedInput } from '../../../shared/api/schemas';
import { invalid } from '../../../shared/api/errors';
import { selectTopK } from '../../../shared/lots/select';
import { defaultDeferred } from '../../../shared/lots/space-draft';
import type { SpaceVersion } from '../../../shared/project/spaces';
import { sameSet } from '../../../shared/base/sets';
import { approvedSpace } from '../read-model/approved-space';
import type { TaskData } from '../read-model/project-index';
import { updateProposal } from '../read-model/proposal';
import type { ProjectStore } from '../store';

export type AcceptSpaceInput = ApiParsedInput<'acceptSpace'>;

export function acceptSpace(store: ProjectStore, data: TaskData, input: AcceptSpaceInput): SpaceVersion {
  const ranking = data.fit?.ranking ?? [];
  const deferEdits = input.deferEdits ?? [];
  const ranked = ranking.map((r) => r.tool);
  const deferredIn = input.deferred ?? defaultDeferred(ranked, input.tools, input.banned);
  const known = new Set(data.menu.keys());
  const unknown = [...input.tools, ...deferredIn, ...input.pinned, ...input.banned, ...deferEdits].filter((t) => !known.has(t));
  if (unknown.length > 0)
    throw invalid(`tools not on any menu of task "${data.task}": ${[...new Set(unknown)].join(', ')}; a space can only hold tools the task was served with`);
  const tools = new Set(input.tools);
  const deferredSet = new Set(deferredIn);
  const banned = new Set(input.banned);
  const lostPins = input.pinned.filter((t) => !tools.has(t));
  if (lostPins.length > 0) throw invalid(`pinned tools must be in the space: ${lostPins.join(', ')}`);
  const keptBans = [...input.tools, ...deferredIn].filter((t) => banned.has(t));
  if (keptBans.length > 0) throw invalid(`banned tools cannot be in the space: ${keptBans.join(', ')}; unban them or remove them`);
  const both = input.tools.filter((t) => deferredSet.has(t));
  if (both.length > 0) throw invalid(`a tool is either pinned (tools) or deferred, not both: ${both.join(', ')}`);
  const lostDefers = deferEdits.filter((t) => !deferredSet.has(t));
  if (lostDefers.length > 0) throw invalid(`tools the operator deferred must be in "deferred": ${lostDefers.join(', ')}`);
  const note = input.note.trim();
  // Approving the update proposal as it stands is not an edit: its rule and running scores are recorded.
  const update = updateProposal(store, data.task, approvedSpace(store, data.task));
  const isUpdate = update !== null && sameSet(update.tools, input.tools) && JSON.stringify(input.rule) === JSON.stringify(update.rule);
  if (!note && !isUpdate && isEdit(input, deferredIn, deferEdits, ranking)) {
    throw invalid('a note is required when the space differs from the proposal (say why: it is kept with the version)');
  }
  const order = new Map(ranking.map((r, i) => [r.tool, i]));
  const byRank = (a: string, b: string) => (order.get(a) ?? Infinity) - (order.get(b) ?? Infinity) || (a < b ? -1 : a > b ? 1 : 0);
  const runningScores = isUpdate ? update.running : Object.fromEntries(ranking.map((r) => [r.tool, r.mean]));
  return store.acceptSpace({
    task: data.task,
    tools: [...tools].sort(byRank),
    deferred: [...deferredSet].sort(byRank),
    pinned: input.pinned,
    banned: input.banned,
    deferEdits,
    rule: input.rule,
    note,
    ...((input.run ?? data.run) ? { run: input.run ?? data.run ?? undefined } : {}),
    ...(ranking.length > 0 || isUpdate ? { runningScores } : {}),
  });
}

/** An edit of the proposal: another pinned set than the rule's, pins/bans/defers, or other deferred tools than the default. */
function isEdit(
  input: AcceptSpaceInput,
  deferred: readonly string[],
  deferEdits: readonly string[],
  ranking: readonly { tool: string; mean: number }[],
): boolean {
  if (input.pinned.length > 0 || input.banned.length > 0 || deferEdits.length > 0) return true;
  if (
    !sameSet(
      deferred,
      defaultDeferred(
        ranking.map((r) => r.tool),
        input.tools,
        input.banned,
      ),
    )
  )
    return true;
  if (input.rule.kind !== 'topk') return input.rule.kind === 'manual';
  const expected = selectTopK(ranking, input.rule.k);
  const got = new Set(input.tools);
  return expected.length !== got.size || expected.some((t) => !got.has(t));
}
