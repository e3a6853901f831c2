// React bindings of the store: components always select (atomic selectors or useShallow), never the whole state.
import { createContext, useContext, useEffect, type ReactNode } from 'react';
import { useStore } from 'zustand';
import type { StudioApi } from '../../shared/api';
import { isStale, type Cached } from './data-slice';
import type { StudioStore } from './store';
import type { StudioState } from './types';

const StoreContext = createContext<StudioStore | null>(null);
const ApiContext = createContext<StudioApi | null>(null);

export function StudioProvider({ store, api, children }: { store: StudioStore; api: StudioApi; children: ReactNode }) {
  return (
    <ApiContext.Provider value={api}>
      <StoreContext.Provider value={store}>{children}</StoreContext.Provider>
    </ApiContext.Provider>
  );
}

export function useStudioStore(): StudioStore {
  const store = useContext(StoreContext);
  if (!store) throw new Error('useStudio outside StudioProvider');
  return store;
}

export function useApi(): StudioApi {
  const api = useContext(ApiContext);
  if (!api) throw new Error('useApi outside StudioProvider');
  return api;
}

export function useStudio<T>(selector: (state: StudioState) => T): T {
  return useStore(useStudioStore(), selector);
}

type CacheKind = 'heatmaps' | 'rankings' | 'budgets' | 'spaces' | 'histories';
const loaders = { heatmaps: 'loadHeatmap', rankings: 'loadRanking', budgets: 'loadBudget', spaces: 'loadSpaces', histories: 'loadHistory' } as const;

export interface TaskViewOptions<V> {
  /** Passed to the loader after the task (the ranking's K). */
  arg?: number;
  /** False when the cached value no longer answers what is asked (another K), though of this data version. */
  isCurrent?: (value: V) => boolean;
}

/** The one "fetch if stale" hook: the cached value of a task view, (re)fetched whenever it is missing,
 * older than the data version, or not `isCurrent`. */
export function useTaskView<K extends CacheKind>(
  kind: K,
  task: string | undefined,
  options: TaskViewOptions<StudioState[K][string]['value']> = {},
): StudioState[K][string]['value'] | undefined {
  const entry = useStudio((s) => (task ? s[kind][task] : undefined));
  const version = useStudio((s) => s.dataVersion);
  const store = useStudioStore();
  const { arg } = options;
  // Evaluated while rendering, so the effect depends on a boolean rather than on the caller's function.
  const current = !entry || !options.isCurrent || options.isCurrent(entry.value);
  useEffect(() => {
    if (!task || (!isStale(entry as Cached<unknown> | undefined, version) && current)) return;
    const load = store.getState()[loaders[kind]];
    void load(task, arg);
  }, [task, version, entry, kind, store, current, arg]);
  return entry?.value;
}

/** Spaces + draft of a task: the draft is created once fresh spaces arrive. */
export function useDraft(task: string | undefined) {
  const space = useTaskView('spaces', task);
  const fresh = useStudio((s) => (task ? s.spaces[task]?.version === s.dataVersion : false));
  const draft = useStudio((s) => (task ? s.drafts[task] : undefined));
  const store = useStudioStore();
  useEffect(() => {
    if (task && fresh && !draft) store.getState().ensureDraft(task);
  }, [task, fresh, draft, store]);
  return { space, draft };
}
