// Filter, search and sort of the attribution heatmap (applied to the HeatmapModel, outside React).
import type { CorrectFilter, HeatmapViewOptions } from '../heatmap/model';
import type { SliceCreator } from './types';

export interface HeatmapViewSlice {
  hmCorrect: CorrectFilter;
  hmSearch: string;
  hmSortTool: string | null;
  hmSortDir: 'desc' | 'asc';
  /** Show the requests without any score for the run (hidden by default once some request is scored). */
  hmShowUnscored: boolean;
  setHeatmapFilter(correct: CorrectFilter): void;
  setHeatmapSearch(search: string): void;
  /** Sort by a tool column; the same column again flips the direction, a third time clears it. */
  sortHeatmapBy(tool: string | null): void;
  setHeatmapShowUnscored(show: boolean): void;
}

/** The view options the heatmap model applies (the canvas and the toolbar read the same ones). */
export function selectHeatmapView(s: HeatmapViewSlice): HeatmapViewOptions {
  return { correct: s.hmCorrect, search: s.hmSearch, sortTool: s.hmSortTool, sortDir: s.hmSortDir, showUnscored: s.hmShowUnscored };
}

/** A key that changes exactly when the view options do. */
export function heatmapViewKey(s: HeatmapViewSlice): string {
  return `${s.hmCorrect}\u0000${s.hmSearch}\u0000${s.hmSortTool}\u0000${s.hmSortDir}\u0000${s.hmShowUnscored ? 1 : 0}`;
}

export const createHeatmapViewSlice = (): SliceCreator<HeatmapViewSlice> => (set, get) => ({
  hmCorrect: 'all',
  hmSearch: '',
  hmSortTool: null,
  hmSortDir: 'desc',
  hmShowUnscored: false,

  setHeatmapFilter(hmCorrect) {
    set({ hmCorrect }, false, 'heatmap/filter');
  },

  setHeatmapSearch(hmSearch) {
    set({ hmSearch }, false, 'heatmap/search');
  },

  sortHeatmapBy(tool) {
    const { hmSortTool, hmSortDir } = get();
    if (tool === null) set({ hmSortTool: null, hmSortDir: 'desc' }, false, 'heatmap/sort-clear');
    else if (tool !== hmSortTool) set({ hmSortTool: tool, hmSortDir: 'desc' }, false, 'heatmap/sort');
    else if (hmSortDir === 'desc') set({ hmSortDir: 'asc' }, false, 'heatmap/sort-flip');
    else set({ hmSortTool: null, hmSortDir: 'desc' }, false, 'heatmap/sort-clear');
  },

  setHeatmapShowUnscored(hmShowUnscored) {
    set({ hmShowUnscored }, false, 'heatmap/show-unscored');
  },
});
