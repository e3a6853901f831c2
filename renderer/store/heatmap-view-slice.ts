// Filter, search and sort of the attribution heatmap (applied to the HeatmapModel, outside React).
import type { CorrectFilter } from '../heatmap/model';
import type { SliceCreator } from './types';

export interface HeatmapViewSlice {
  hmCorrect: CorrectFilter;
  hmSearch: string;
  hmSortTool: string | null;
  hmSortDir: 'desc' | 'asc';
  setHeatmapFilter(correct: CorrectFilter): void;
  setHeatmapSearch(search: string): void;
  /** Sort by a tool column; the same column again flips the direction, a third time clears it. */
  sortHeatmapBy(tool: string | null): void;
}

export const createHeatmapViewSlice = (): SliceCreator<HeatmapViewSlice> => (set, get) => ({
  hmCorrect: 'all',
  hmSearch: '',
  hmSortTool: null,
  hmSortDir: 'desc',

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
});
