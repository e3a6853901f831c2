// The renderer's one store: typed slices bound together, devtools outermost with named actions.
// Created per app (and per test) with the API it talks to, so tests get a fresh store every time.
import { createStore, type StoreApi } from 'zustand/vanilla';
import { devtools } from 'zustand/middleware';
import type { StudioApi } from '../../shared/api';
import { createAppSlice, type Theme } from './app-slice';
import { createDataSlice } from './data-slice';
import { createDemoSlice } from './demo-slice';
import { createDraftSlice } from './draft-slice';
import { createHistorySlice } from './history-slice';
import { createGatewaySlice } from './gateway-slice';
import { createExportSlice } from './export-slice';
import { createHeatmapViewSlice } from './heatmap-view-slice';
import { createJobsSlice } from './jobs-slice';
import { createModelsSlice } from './models-slice';
import { createProjectSlice } from './project-slice';
import { createScoringServerSlice } from './scoring-server-slice';
import { createTraceSlice } from './trace-slice';
import type { Route, StudioState } from './types';

export type StudioStore = StoreApi<StudioState>;

export interface StoreOptions {
  route?: Route;
  theme?: Theme;
  devtools?: boolean;
}

export function createStudioStore(api: StudioApi, options: StoreOptions = {}): StudioStore {
  return createStore<StudioState>()(
    devtools(
      (...a) => ({
        ...createAppSlice(api, options)(...a),
        ...createProjectSlice(api)(...a),
        ...createDataSlice(api)(...a),
        ...createHeatmapViewSlice()(...a),
        ...createTraceSlice(api)(...a),
        ...createDraftSlice(api)(...a),
        ...createJobsSlice(api)(...a),
        ...createModelsSlice(api)(...a),
        ...createScoringServerSlice(api)(...a),
        ...createExportSlice(api)(...a),
        ...createDemoSlice(api)(...a),
        ...createHistorySlice(api)(...a),
        ...createGatewaySlice(api)(...a),
      }),
      { name: 'lots-studio', enabled: options.devtools ?? false },
    ),
  );
}

/** Engine events flow into the store: job progress, project changes, native menu commands. */
export function connectEvents(
  api: StudioApi,
  store: StudioStore,
  onMenu: (command: Parameters<Parameters<StudioApi['onMenuCommand']>[0]>[0]) => void,
): () => void {
  const offs = [
    api.onJobUpdate((job) => store.getState().upsertJob(job)),
    api.onProjectChanged((change) => {
      const s = store.getState();
      if (change.reason === 'open') {
        void api.getProject().then((p) => {
          if (p && p.dir !== store.getState().project?.dir) store.getState().projectOpened(p);
        });
        return;
      }
      s.invalidateData();
      void s.refreshProject();
      if (change.reason === 'scores' || change.reason === 'sweep') void s.loadJobs();
    }),
    api.onMenuCommand(onMenu),
  ];
  return () => offs.forEach((off) => off());
}
