// A task's history (update batches, approved versions, benchmark stream arms) and the comparison of two
// scoring runs. Cached per task at the data version it was fetched at, like the other task views.
import type { HistoryData, RunComparison, StudioApi } from '../../shared/api';
import type { Cached } from './data-slice';
import type { SliceCreator } from './types';

export interface FoldOptions {
  alpha?: number;
  rule?: 'topk' | 'support';
  k?: number;
  phi?: number;
}

export interface HistorySlice {
  histories: Record<string, Cached<HistoryData>>;
  historyLoading: Record<string, boolean>;
  folding: boolean;
  loadHistory(task: string): Promise<void>;
  /** Fold the task's new scored batches; returns how many were folded (null on failure). */
  foldBatches(task: string, options?: FoldOptions): Promise<number | null>;
  comparisons: Record<string, RunComparison>;
  /** Compare two runs' rankings of a task at budget K (the overlap's K; default: the engine's). */
  loadComparison(task: string, runA: string, runB: string, k?: number): Promise<void>;
}

export const comparisonKey = (task: string, runA: string, runB: string, k?: number): string => `${task}\u0000${runA}\u0000${runB}\u0000${k ?? ''}`;

export const createHistorySlice =
  (api: StudioApi): SliceCreator<HistorySlice> =>
  (set, get) => ({
    histories: {},
    historyLoading: {},
    folding: false,
    comparisons: {},

    async loadHistory(task) {
      if (get().historyLoading[task]) return;
      const version = get().dataVersion;
      set({ historyLoading: { ...get().historyLoading, [task]: true } }, false, 'history/load-start');
      try {
        const value = await api.getHistory({ task });
        set(
          { histories: { ...get().histories, [task]: { value, version } }, historyLoading: { ...get().historyLoading, [task]: false } },
          false,
          'history/load',
        );
      } catch (e) {
        set({ historyLoading: { ...get().historyLoading, [task]: false } }, false, 'history/load-failed');
        get().fail(e, `Cannot load the history of ${task}`);
      }
    },

    async foldBatches(task, options = {}) {
      set({ folding: true }, false, 'history/fold-start');
      try {
        const result = await api.updateSpace({ task, ...options });
        const { folded, refoldReason, ...value } = result;
        set({ folding: false, histories: { ...get().histories, [task]: { value, version: get().dataVersion } } }, false, 'history/fold');
        get().notify({
          kind: folded > 0 ? 'success' : 'info',
          title: folded > 0 ? `Folded ${folded} batch${folded === 1 ? '' : 'es'} of ${task}` : `No new batch of ${task} to fold`,
          message: refoldReason
            ? `The whole history was folded again: ${refoldReason}.`
            : folded > 0
              ? 'A new proposal is ready; nothing was applied.'
              : value.waiting.length > 0
                ? `${value.waiting.length} import${value.waiting.length === 1 ? ' waits' : 's wait'} for scores: score the project first.`
                : 'Every import of the task is folded.',
        });
        return folded;
      } catch (e) {
        set({ folding: false }, false, 'history/fold-failed');
        get().fail(e, `Cannot fold the batches of ${task}`);
        return null;
      }
    },

    async loadComparison(task, runA, runB, k) {
      try {
        const c = await api.compareRuns({ task, runA, runB, ...(k !== undefined && k > 0 ? { k } : {}) });
        set({ comparisons: { ...get().comparisons, [comparisonKey(task, runA, runB, k)]: c } }, false, 'history/compare');
      } catch (e) {
        get().fail(e, `Cannot compare the two runs of ${task}`);
      }
    },
  });
