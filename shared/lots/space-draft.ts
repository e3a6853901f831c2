// The space editor's model, shared by the Space view (renderer/store/draft-slice.ts) and `lots space`
// (electron/cli/commands/space.ts): a draft is the top-K of the ranking plus the operator's edits, and it
// turns into the one `acceptSpace` input both send. One implementation, so the CLI and the view write the
// same version for the same edits (tests/cli/space.test.ts compares the two).
//
// Three states per tool (shared/project/spaces.ts): the proposal pins the top-K, defers the task's other
// observed (ranked) tools and hides the rest. The edits:
//   keep   pinned (for this version)           pin    pinned, and kept pinned by later updates
//   defer  deferred, kept deferred by updates   drop/hide  hidden (for this version)
//   ban    hidden, and kept hidden by updates
import type { SelectionRule, SpaceState, SpaceVersion, ToolState } from '../project/spaces';
import { compareNames } from './aggregate';
import { applyEdits } from './edits';
import { selectTopK } from './select';

export interface SpaceDraft {
  k: number;
  /** `pin` edits. */
  pinned: string[];
  /** `ban` edits. */
  banned: string[];
  /** `keep` of a tool outside the top-K. */
  added: string[];
  /** `drop` of a top-K tool. */
  removed: string[];
  /** `defer` edits. */
  deferred: string[];
  /** `drop`/`hide` of a tool the proposal would defer. */
  hidden: string[];
  note: string;
  /** The approved version the draft started from (null: the proposal). */
  baseVersion: number | null;
}

export const SPACE_EDIT_ACTIONS = ['keep', 'drop', 'pin', 'defer', 'hide', 'ban'] as const;
export type SpaceEditAction = (typeof SPACE_EDIT_ACTIONS)[number];
/** The view's toggles take an edit back. */
export type DraftAction = SpaceEditAction | 'unpin' | 'unban' | 'undefer';

export interface RankedTool {
  tool: string;
  mean: number;
}

/** The eligible tools in ranking order, from the task's space state. */
export function rankingOf(space: Pick<SpaceState, 'candidates'> | undefined): RankedTool[] {
  return (space?.candidates ?? []).filter((c) => c.rank !== null && c.mean !== null).map((c) => ({ tool: c.tool, mean: c.mean! }));
}

/** Deferred by default: the observed (ranked) tools that are neither pinned nor banned. */
export function defaultDeferred(ranked: readonly string[], pinned: readonly string[], banned: readonly string[] = []): string[] {
  const out = new Set([...pinned, ...banned]);
  return ranked.filter((t) => !out.has(t));
}

const emptyEdits = { pinned: [], banned: [], added: [], removed: [], deferred: [], hidden: [] };

export function draftFrom(space: SpaceState, from: 'proposal' | 'approved' | 'update'): SpaceDraft {
  const ranking = rankingOf(space);
  const rankedNames = ranking.map((r) => r.tool);
  if (from === 'update' && space.update) {
    // The update's tools as edits of the top-K at their count (the editor's model), its note prefilled.
    const u = space.update;
    const k = Math.min(u.tools.length, ranking.length);
    const top = new Set(selectTopK(ranking, k));
    const kept = new Set(u.tools);
    const ruleText = u.rule.kind === 'topk' ? `top-${u.rule.k}` : u.rule.kind === 'support' ? `support ≥ ${u.rule.phi}` : u.rule.kind;
    return {
      ...emptyEdits,
      k,
      pinned: [...(space.approved?.pinned ?? [])].filter((t) => kept.has(t)),
      banned: [...(space.approved?.banned ?? [])],
      deferred: [...(space.approved?.deferEdits ?? [])].filter((t) => !kept.has(t)),
      added: u.tools.filter((t) => !top.has(t)),
      removed: [...top].filter((t) => !kept.has(t)),
      note: `continual update after batch ${u.batch} (α = ${u.alpha}, ${ruleText} of the running scores)`,
      baseVersion: space.approved?.version ?? null,
    };
  }
  const v = from === 'approved' ? space.approved : null;
  if (!v) {
    const k = space.proposal.rule.kind === 'topk' ? Math.min(space.proposal.rule.k, ranking.length) : space.proposal.tools.length;
    return { ...emptyEdits, k, note: '', baseVersion: null };
  }
  // An approved version as edits of the top-K, so that the draft's states are exactly the version's.
  const k = v.rule.kind === 'topk' ? Math.min(v.rule.k, ranking.length) : Math.min(v.tools.length, ranking.length);
  const top = new Set(selectTopK(ranking, k));
  const kept = new Set(v.tools);
  const deferredIn = new Set(v.deferred);
  const banned = new Set(v.banned);
  const removed = [...top].filter((t) => !kept.has(t) && !banned.has(t) && !deferredIn.has(t));
  const removedSet = new Set(removed);
  return {
    k,
    pinned: [...v.pinned],
    banned: [...v.banned],
    added: v.tools.filter((t) => !top.has(t) && !v.pinned.includes(t)),
    removed,
    // The version's defer edits, and any deferred tool the default would not defer (no longer ranked, or top-K).
    deferred: unique([...v.deferEdits, ...v.deferred.filter((t) => !rankedNames.includes(t) || top.has(t))]),
    // Observed tools the version hides although the default would defer them (every one, in a version
    // written before the third state existed).
    hidden: rankedNames.filter((t) => !top.has(t) && !kept.has(t) && !deferredIn.has(t) && !banned.has(t) && !removedSet.has(t)),
    note: '',
    baseVersion: v.version,
  };
}

const without = (list: readonly string[], tool: string) => list.filter((t) => t !== tool);
const withTool = (list: readonly string[], tool: string) => (list.includes(tool) ? [...list] : [...list, tool]);
const unique = (list: readonly string[]) => [...new Set(list)];

/** One edit of one tool; `inTop` says whether the tool is in the draft's top-K. Idempotent (`pin` twice is `pin`). */
export function editDraft(d: SpaceDraft, tool: string, action: DraftAction, inTop: boolean): SpaceDraft {
  switch (action) {
    case 'keep':
      return {
        ...d,
        banned: without(d.banned, tool),
        removed: without(d.removed, tool),
        hidden: without(d.hidden, tool),
        deferred: without(d.deferred, tool),
        added: inTop ? without(d.added, tool) : withTool(d.added, tool),
      };
    case 'pin':
      return {
        ...d,
        pinned: withTool(d.pinned, tool),
        banned: without(d.banned, tool),
        removed: without(d.removed, tool),
        hidden: without(d.hidden, tool),
        deferred: without(d.deferred, tool),
      };
    case 'defer':
      return {
        ...d,
        deferred: withTool(d.deferred, tool),
        pinned: without(d.pinned, tool),
        added: without(d.added, tool),
        banned: without(d.banned, tool),
        removed: without(d.removed, tool),
        hidden: without(d.hidden, tool),
      };
    case 'drop':
    case 'hide':
      return {
        ...d,
        pinned: without(d.pinned, tool),
        added: without(d.added, tool),
        deferred: without(d.deferred, tool),
        removed: inTop ? withTool(d.removed, tool) : without(d.removed, tool),
        hidden: inTop ? without(d.hidden, tool) : withTool(d.hidden, tool),
      };
    case 'ban':
      return {
        ...d,
        banned: withTool(d.banned, tool),
        pinned: without(d.pinned, tool),
        added: without(d.added, tool),
        deferred: without(d.deferred, tool),
        hidden: without(d.hidden, tool),
      };
    case 'unpin':
      return { ...d, pinned: without(d.pinned, tool) };
    case 'unban':
      return { ...d, banned: without(d.banned, tool) };
    case 'undefer':
      return { ...d, deferred: without(d.deferred, tool) };
  }
}

/** The kept (pinned-state) tools of a draft before its defer edits: top-K with keep/drop/pin/ban applied. */
export function keptTools(ranking: readonly RankedTool[], draft: SpaceDraft): string[] {
  return applyEdits(
    selectTopK(ranking, Math.min(draft.k, ranking.length)),
    draft,
    ranking.map((r) => r.tool),
  );
}

export interface DraftStates {
  /** Documented in full, loaded up front; ranking order. */
  pinned: string[];
  /** Callable, not loaded up front; ranking order, unranked tools last by name. */
  deferred: string[];
}

/** The pinned and deferred tools of a draft; every other tool of the task is hidden. */
export function draftStates(ranking: readonly RankedTool[], draft: SpaceDraft): DraftStates {
  const deferEdits = new Set(draft.deferred);
  const kept = keptTools(ranking, draft);
  const pinned = kept.filter((t) => !deferEdits.has(t));
  const pinnedSet = new Set(pinned);
  const out = new Set([...draft.banned, ...draft.hidden, ...draft.removed]);
  const ranked = ranking.map((r) => r.tool);
  const deferred = new Set([...draft.deferred.filter((t) => !pinnedSet.has(t)), ...ranked.filter((t) => !pinnedSet.has(t) && !out.has(t))]);
  const position = new Map(ranked.map((t, i) => [t, i]));
  const order = (a: string, b: string) => (position.get(a) ?? Infinity) - (position.get(b) ?? Infinity) || compareNames(a, b);
  return { pinned, deferred: [...deferred].filter((t) => !draft.banned.includes(t)).sort(order) };
}

/** A tool's state in a draft's states. */
export function stateOf(states: DraftStates, tool: string): ToolState {
  return states.pinned.includes(tool) ? 'pinned' : states.deferred.includes(tool) ? 'deferred' : 'hidden';
}

export function isEdited(draft: SpaceDraft): boolean {
  return draft.pinned.length + draft.banned.length + draft.added.length + draft.removed.length + draft.deferred.length + draft.hidden.length > 0;
}

/** The selection rule a draft's pinned set follows: top-K unless keep/drop/defer changed which tools are pinned. */
export function ruleOf(draft: SpaceDraft, ranking: readonly RankedTool[] = []): SelectionRule {
  const top = new Set(selectTopK(ranking, Math.min(draft.k, ranking.length)));
  const deferredTop = draft.deferred.some((t) => top.has(t));
  return draft.added.length + draft.removed.length > 0 || deferredTop ? { kind: 'manual' } : { kind: 'topk', k: Math.max(1, draft.k) };
}

/** The `acceptSpace` input of a draft: the one request the Space view and `lots space` send. */
export interface SpaceAcceptInput {
  task: string;
  tools: string[];
  deferred: string[];
  pinned: string[];
  banned: string[];
  deferEdits: string[];
  rule: SelectionRule;
  note: string;
  run?: string;
}

export function acceptInputOf(task: string, space: SpaceState, draft: SpaceDraft, run?: string): SpaceAcceptInput {
  const ranking = rankingOf(space);
  const { pinned: tools, deferred } = draftStates(ranking, draft);
  const sameAsUpdate = space.update !== null && sameMembers(tools, space.update.tools);
  return {
    task,
    tools,
    deferred,
    pinned: draft.pinned.filter((t) => tools.includes(t)),
    banned: [...draft.banned],
    deferEdits: draft.deferred.filter((t) => deferred.includes(t)),
    rule: sameAsUpdate ? space.update!.rule : ruleOf(draft, ranking),
    note: draft.note,
    ...(run ? { run } : {}),
  };
}

/** Same tools, states and edits as an approved version: nothing to approve. */
export function sameAsVersion(input: Omit<SpaceAcceptInput, 'task' | 'rule' | 'note'>, v: SpaceVersion | null): boolean {
  return (
    v !== null &&
    sameMembers(input.tools, v.tools) &&
    sameMembers(input.deferred, v.deferred) &&
    sameMembers(input.pinned, v.pinned) &&
    sameMembers(input.banned, v.banned) &&
    sameMembers(input.deferEdits, v.deferEdits)
  );
}

function sameMembers(a: readonly string[], b: readonly string[]): boolean {
  const x = new Set(a);
  return x.size === new Set(b).size && b.every((t) => x.has(t));
}
