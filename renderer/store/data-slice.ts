// A cache of the engine's per-task views (heatmap, ranking, budget, spaces). Truth lives in the engine:
// on any project change the cache is marked stale and views refetch, showing the stale value meanwhile
// (no blank flashes, no layout jumps).
import type { BudgetData, RankingData, SpaceState, StudioApi } from '../../shared/api';
import { HeatmapModel } from '../heatmap/model';
import type { SliceCreator, StudioState } from './types';

export interface Cached<T> {
  value: T;
  /** dataVersion it was fetched at. */
  version: number;
}

export interface DataSlice {
  dataVersion: number;
  heatmaps: Record<string, Cached<HeatmapModel>>;
  rankings: Record<string, Cached<RankingData>>;
  budgets: Record<string, Cached<BudgetData>>;
  spaces: Record<string, Cached<SpaceState>>;
  loading: Record<string, boolean>;
  /** The scoring run shown per task (absent: the latest). */
  runByTask: Record<string, string>;
  invalidateData(): void;
  loadHeatmap(task: string): Promise<void>;
  loadRanking(task: string, k?: number): Promise<void>;
  loadBudget(task: string): Promise<void>;
  loadSpaces(task: string): Promise<void>;
  setRun(task: string, run: string | null): void;
}

type CacheKey = 'heatmaps' | 'rankings' | 'budgets' | 'spaces';

export const createDataSlice =
  (api: StudioApi): SliceCreator<DataSlice> =>
  (set, get) => {
    /** One request per (kind, task) at a time; a result that arrives after a newer version is still shown. */
    async function load<T>(kind: CacheKey, task: string, fetch: () => Promise<T>, wrap: (v: T) => unknown = (v) => v): Promise<void> {
      const key = `${kind}:${task}`;
      if (get().loading[key]) return;
      const version = get().dataVersion;
      set({ loading: { ...get().loading, [key]: true } }, false, `data/${kind}-start`);
      try {
        const value = await fetch();
        const cache = get()[kind] as Record<string, Cached<unknown>>;
        set(
          { [kind]: { ...cache, [task]: { value: wrap(value), version } }, loading: { ...get().loading, [key]: false } } as Partial<StudioState>,
          false,
          `data/${kind}`,
        );
      } catch (e) {
        set({ loading: { ...get().loading, [key]: false } }, false, `data/${kind}-failed`);
        get().fail(e, `Cannot load the ${kind.replace(/s$/, '')} of ${task}`);
      }
    }
    const run = (task: string) => get().runByTask[task];

    return {
      dataVersion: 0,
      heatmaps: {},
      rankings: {},
      budgets: {},
      spaces: {},
      loading: {},
      runByTask: {},

      invalidateData() {
        set({ dataVersion: get().dataVersion + 1 }, false, 'data/invalidate');
      },

      loadHeatmap(task) {
        return load(
          'heatmaps',
          task,
          () => api.getHeatmap({ task, run: run(task) }),
          (data) => new HeatmapModel(data),
        );
      },

      loadRanking(task, k) {
        return load('rankings', task, () => api.getRanking({ task, run: run(task), ...(k !== undefined ? { k } : {}) }));
      },

      loadBudget(task) {
        return load('budgets', task, () => api.getBudget({ task, run: run(task) }));
      },

      loadSpaces(task) {
        return load('spaces', task, () => api.getSpaces({ task, run: run(task) }));
      },

      setRun(task, value) {
        const runByTask = { ...get().runByTask };
        if (value) runByTask[task] = value;
        else delete runByTask[task];
        set({ runByTask, dataVersion: get().dataVersion + 1 }, false, 'data/run');
      },
    };
  };

/** Is a cached entry missing or older than the data version? */
export function isStale<T>(entry: Cached<T> | undefined, version: number): boolean {
  return !entry || entry.version !== version;
}
