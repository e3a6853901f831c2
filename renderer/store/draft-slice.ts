// The space being edited per task: K (the slider) plus the operator's edits. The kept set is derived
// (selectKept), so one slider move updates the editor, the heatmap greying and the curves together.
import { applyEdits } from '../../shared/lots/edits';
import { selectTopK } from '../../shared/lots/select';
import type { SelectionRule } from '../../shared/project/spaces';
import type { SpaceState, StudioApi } from '../../shared/api';
import type { Draft, SliceCreator, StudioState } from './types';
import { sameSet } from '../../shared/benchmark/sweep';

export type EditAction = 'keep' | 'drop' | 'pin' | 'ban';

export interface DraftSlice {
  drafts: Record<string, Draft>;
  reviewCursor: number;
  accepting: boolean;
  /** Start a draft from the approved version (or the proposal) once the task's spaces are loaded. */
  ensureDraft(task: string): void;
  setK(task: string, k: number): void;
  editTool(task: string, tool: string, action: EditAction): void;
  setNote(task: string, note: string): void;
  resetDraft(task: string, to: 'proposal' | 'approved' | 'update'): void;
  acceptDraft(task: string): Promise<boolean>;
  setReviewCursor(index: number): void;
}

export interface RankedTool {
  tool: string;
  mean: number;
}

/** The eligible tools in ranking order, from the task's space state. */
export function rankingOf(space: SpaceState | undefined): RankedTool[] {
  return (space?.candidates ?? []).filter((c) => c.rank !== null && c.mean !== null).map((c) => ({ tool: c.tool, mean: c.mean! }));
}

export function draftFrom(space: SpaceState, from: 'proposal' | 'approved' | 'update'): Draft {
  const ranking = rankingOf(space);
  if (from === 'update' && space.update) {
    // The update's tools as edits of the top-K at their count (the editor's model), its note prefilled.
    const u = space.update;
    const k = Math.min(u.tools.length, ranking.length);
    const top = new Set(selectTopK(ranking, k));
    const kept = new Set(u.tools);
    const ruleText = u.rule.kind === 'topk' ? `top-${u.rule.k}` : u.rule.kind === 'support' ? `support ≥ ${u.rule.phi}` : u.rule.kind;
    return {
      k,
      pinned: [...(space.approved?.pinned ?? [])].filter((t) => kept.has(t)),
      banned: [...(space.approved?.banned ?? [])],
      added: u.tools.filter((t) => !top.has(t)),
      removed: [...top].filter((t) => !kept.has(t)),
      note: `continual update after batch ${u.batch} (α = ${u.alpha}, ${ruleText} of the running scores)`,
      baseVersion: space.approved?.version ?? null,
    };
  }
  const v = from === 'approved' ? space.approved : null;
  if (!v) {
    const k = space.proposal.rule.kind === 'topk' ? Math.min(space.proposal.rule.k, ranking.length) : space.proposal.tools.length;
    return { k, pinned: [], banned: [], added: [], removed: [], note: '', baseVersion: null };
  }
  const k = v.rule.kind === 'topk' ? Math.min(v.rule.k, ranking.length) : Math.min(v.tools.length, ranking.length);
  const top = new Set(selectTopK(ranking, k));
  const kept = new Set(v.tools);
  return {
    k,
    pinned: [...v.pinned],
    banned: [...v.banned],
    added: v.tools.filter((t) => !top.has(t) && !v.pinned.includes(t)),
    removed: [...top].filter((t) => !kept.has(t) && !v.banned.includes(t)),
    note: '',
    baseVersion: v.version,
  };
}

export function keptTools(ranking: readonly RankedTool[], draft: Draft): string[] {
  return applyEdits(
    selectTopK(ranking, Math.min(draft.k, ranking.length)),
    draft,
    ranking.map((r) => r.tool),
  );
}

export function isEdited(draft: Draft): boolean {
  return draft.pinned.length + draft.banned.length + draft.added.length + draft.removed.length > 0;
}

export function ruleOf(draft: Draft): SelectionRule {
  return draft.added.length + draft.removed.length > 0 ? { kind: 'manual' } : { kind: 'topk', k: Math.max(1, draft.k) };
}

const keptCache = new WeakMap<Draft, { candidates: SpaceState['candidates']; kept: string[] }>();

/** The kept set of a task's draft; the same array while neither the draft nor the ranking changed. */
export function selectKept(state: StudioState, task: string | undefined): string[] | null {
  if (!task) return null;
  const draft = state.drafts[task];
  const space = state.spaces[task]?.value;
  if (!draft || !space) return null;
  const hit = keptCache.get(draft);
  if (hit && hit.candidates === space.candidates) return hit.kept;
  const kept = keptTools(rankingOf(space), draft);
  keptCache.set(draft, { candidates: space.candidates, kept });
  return kept;
}

const without = (list: string[], tool: string) => list.filter((t) => t !== tool);
const withTool = (list: string[], tool: string) => (list.includes(tool) ? list : [...list, tool]);

export const createDraftSlice =
  (api: StudioApi): SliceCreator<DraftSlice> =>
  (set, get) => {
    const update = (task: string, fn: (d: Draft) => Draft, action: string) => {
      const d = get().drafts[task];
      if (!d) return;
      set({ drafts: { ...get().drafts, [task]: fn(d) } }, false, action);
    };

    return {
      drafts: {},
      reviewCursor: 0,
      accepting: false,

      ensureDraft(task) {
        const entry = get().spaces[task];
        // Only from fresh data: after an approval the stale entry still shows the previous version.
        if (!entry || entry.version !== get().dataVersion || get().drafts[task]) return;
        set({ drafts: { ...get().drafts, [task]: draftFrom(entry.value, 'approved') } }, false, 'space/draft');
      },

      setK(task, k) {
        update(task, (d) => (d.k === k ? d : { ...d, k: Math.max(0, Math.round(k)) }), 'space/k');
      },

      editTool(task, tool, action) {
        const space = get().spaces[task]?.value;
        if (!space) return;
        update(
          task,
          (d) => {
            const inTop = selectTopK(rankingOf(space), d.k).includes(tool);
            switch (action) {
              case 'keep':
                return { ...d, banned: without(d.banned, tool), removed: without(d.removed, tool), added: inTop ? d.added : withTool(d.added, tool) };
              case 'drop':
                return { ...d, pinned: without(d.pinned, tool), added: without(d.added, tool), removed: inTop ? withTool(d.removed, tool) : d.removed };
              case 'pin':
                return d.pinned.includes(tool)
                  ? { ...d, pinned: without(d.pinned, tool) }
                  : { ...d, pinned: [...d.pinned, tool], banned: without(d.banned, tool), removed: without(d.removed, tool) };
              case 'ban':
                return d.banned.includes(tool)
                  ? { ...d, banned: without(d.banned, tool) }
                  : { ...d, banned: [...d.banned, tool], pinned: without(d.pinned, tool), added: without(d.added, tool) };
            }
          },
          `space/${action}`,
        );
      },

      setNote(task, note) {
        update(task, (d) => ({ ...d, note }), 'space/note');
      },

      resetDraft(task, to) {
        const space = get().spaces[task]?.value;
        if (!space) return;
        set({ drafts: { ...get().drafts, [task]: draftFrom(space, to) } }, false, 'space/reset');
      },

      async acceptDraft(task) {
        const draft = get().drafts[task];
        const space = get().spaces[task]?.value;
        if (!draft || !space) return false;
        const tools = keptTools(rankingOf(space), draft);
        set({ accepting: true }, false, 'space/accept-start');
        try {
          const version = await api.acceptSpace({
            task,
            tools,
            pinned: draft.pinned.filter((t) => tools.includes(t)),
            banned: draft.banned,
            rule: space.update && sameSet(tools, space.update.tools) ? space.update.rule : ruleOf(draft),
            note: draft.note,
            ...(get().runByTask[task] ? { run: get().runByTask[task] } : {}),
          });
          const drafts = { ...get().drafts };
          delete drafts[task];
          set({ drafts, accepting: false, dataVersion: get().dataVersion + 1 }, false, 'space/accept');
          void get().refreshProject();
          get().notify({
            kind: 'success',
            title: `Space v${version.version} of ${task} approved`,
            message: `${version.tools.length} tools kept: ${version.tools.join(', ') || '(none)'}`,
          });
          return true;
        } catch (e) {
          set({ accepting: false }, false, 'space/accept-failed');
          get().fail(e, 'The space was not approved');
          return false;
        }
      },

      setReviewCursor(reviewCursor) {
        set({ reviewCursor }, false, 'space/cursor');
      },
    };
  };
