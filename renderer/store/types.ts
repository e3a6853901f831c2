// Types of the renderer's one store, built from typed slices (docs/CONVENTIONS.md §7).
import type { StateCreator } from 'zustand';
import type { AppSlice } from './app-slice';
import type { ProjectSlice } from './project-slice';
import type { DataSlice } from './data-slice';
import type { HeatmapViewSlice } from './heatmap-view-slice';
import type { TraceSlice } from './trace-slice';
import type { DraftSlice } from './draft-slice';
import type { SpaceDraft } from '../../shared/lots/space-draft';
import type { JobsSlice } from './jobs-slice';
import type { ModelsSlice } from './models-slice';
import type { ScoringServerSlice } from './scoring-server-slice';
import type { ExportSlice } from './export-slice';
import type { DemoSlice } from './demo-slice';
import type { HistorySlice } from './history-slice';
import type { GatewaySlice } from './gateway-slice';

export type StudioState = AppSlice &
  ProjectSlice &
  DataSlice &
  HeatmapViewSlice &
  TraceSlice &
  DraftSlice &
  JobsSlice &
  ModelsSlice &
  ScoringServerSlice &
  ExportSlice &
  DemoSlice &
  HistorySlice &
  GatewaySlice;

export type SliceCreator<T> = StateCreator<StudioState, [['zustand/devtools', never]], [], T>;

import type { ViewName } from './views';
export { TASK_VIEWS, VIEWS, type ViewName } from './views';

export interface Route {
  view: ViewName;
  task?: string;
  trace?: string;
  tool?: string;
}

export interface Notice {
  id: number;
  kind: 'error' | 'info' | 'success';
  title: string;
  message: string;
  /** What the user can do about it. */
  hint?: string;
  code?: string;
}

/** The space being edited for a task: top-K of the ranking plus the operator's edits (shared/lots/space-draft.ts). */
export type Draft = SpaceDraft;
