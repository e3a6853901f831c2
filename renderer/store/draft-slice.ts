// The space being edited per task: K (the slider) plus the operator's edits. The kept set is derived
// (selectKept), so one slider move updates the editor, the heatmap greying and the curves together.
// The draft model itself (edits, states, the acceptSpace input) is shared/lots/space-draft.ts, which
// `lots space` uses too.
import { selectTopK } from '../../shared/lots/select';
import { acceptInputOf, draftFrom, draftStates, editDraft, rankingOf, type DraftAction, type DraftStates } from '../../shared/lots/space-draft';
import type { SpaceState, StudioApi } from '../../shared/api';
import type { Draft, SliceCreator, StudioState } from './types';

export interface DraftSlice {
  drafts: Record<string, Draft>;
  reviewCursor: number;
  accepting: boolean;
  /** The last approval made on the Space view: confirmed there, beside the Approve button, instead of in a
   * toast that would cover the version history (issue 40). */
  lastApproval: { task: string; version: number; message: string } | null;
  /** Start a draft from the approved version (or the proposal) once the task's spaces are loaded. */
  ensureDraft(task: string): void;
  setK(task: string, k: number): void;
  editTool(task: string, tool: string, action: DraftAction): void;
  setNote(task: string, note: string): void;
  resetDraft(task: string, to: 'proposal' | 'approved' | 'update'): void;
  /** `inline`: confirm in the Space view (lastApproval) rather than with a floating notice. */
  acceptDraft(task: string, options?: { inline?: boolean }): Promise<boolean>;
  setReviewCursor(index: number): void;
}

const statesCache = new WeakMap<Draft, { candidates: SpaceState['candidates']; states: DraftStates }>();

/** The pinned and deferred tools of a task's draft; the same object while neither the draft nor the ranking changed. */
export function selectStates(state: StudioState, task: string | undefined): DraftStates | null {
  if (!task) return null;
  const draft = state.drafts[task];
  const space = state.spaces[task]?.value;
  if (!draft || !space) return null;
  const hit = statesCache.get(draft);
  if (hit && hit.candidates === space.candidates) return hit.states;
  const states = draftStates(rankingOf(space), draft);
  statesCache.set(draft, { candidates: space.candidates, states });
  return states;
}

/** The pinned (kept, loaded up front) tools of a task's draft: what the heatmap, ranking and budget mark as in the space. */
export function selectKept(state: StudioState, task: string | undefined): string[] | null {
  return selectStates(state, task)?.pinned ?? null;
}

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
      lastApproval: null,

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
        // The view's pin, ban and defer buttons toggle: a second press takes the edit back.
        const toggled = (d: Draft): DraftAction =>
          action === 'pin' && d.pinned.includes(tool)
            ? 'unpin'
            : action === 'ban' && d.banned.includes(tool)
              ? 'unban'
              : action === 'defer' && d.deferred.includes(tool)
                ? 'undefer'
                : action;
        update(task, (d) => editDraft(d, tool, toggled(d), selectTopK(rankingOf(space), d.k).includes(tool)), `space/${action}`);
      },

      setNote(task, note) {
        update(task, (d) => ({ ...d, note }), 'space/note');
      },

      resetDraft(task, to) {
        const space = get().spaces[task]?.value;
        if (!space) return;
        set({ drafts: { ...get().drafts, [task]: draftFrom(space, to) } }, false, 'space/reset');
      },

      async acceptDraft(task, options = {}) {
        const draft = get().drafts[task];
        const space = get().spaces[task]?.value;
        if (!draft || !space) return false;
        set({ accepting: true }, false, 'space/accept-start');
        try {
          const version = await api.acceptSpace(acceptInputOf(task, space, draft, get().runByTask[task]));
          const drafts = { ...get().drafts };
          delete drafts[task];
          set({ drafts, accepting: false, dataVersion: get().dataVersion + 1 }, false, 'space/accept');
          void get().refreshProject();
          const title = `Space v${version.version} of ${task} approved`;
          const message = `${version.tools.length} pinned: ${version.tools.join(', ') || '(none)'}${version.deferred.length > 0 ? `; ${version.deferred.length} deferred` : ''}`;
          if (options.inline) set({ lastApproval: { task, version: version.version, message } }, false, 'space/approved');
          else get().notify({ kind: 'success', title, message });
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
