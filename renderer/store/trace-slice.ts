// The trace inspector: the open trace, the scoring run shown, the tool whose intervention is shown.
import type { StudioApi, TraceDetail } from '../../shared/api';
import type { SliceCreator } from './types';

export interface TraceSlice {
  traceDetail: TraceDetail | null;
  traceLoading: boolean;
  traceTool: string | null;
  traceTurn: number;
  /** Open a trace (and optionally one tool's intervention) in the inspector. */
  openTrace(id: string, tool?: string | null): Promise<void>;
  selectTraceTool(tool: string | null): void;
  selectTraceTurn(turn: number): void;
}

export const createTraceSlice =
  (api: StudioApi): SliceCreator<TraceSlice> =>
  (set, get) => ({
    traceDetail: null,
    traceLoading: false,
    traceTool: null,
    traceTurn: 0,

    async openTrace(id, tool = null) {
      get().navigate({ view: 'trace', trace: id, ...(tool ? { tool } : {}) });
      if (get().traceDetail?.trace.id === id) {
        set({ traceTool: tool ?? get().traceTool }, false, 'trace/tool');
        return;
      }
      set({ traceLoading: true, traceTool: tool }, false, 'trace/open-start');
      try {
        const detail = await api.getTrace({ id });
        set({ traceDetail: detail, traceLoading: false, traceTurn: detail.trace.turns.length - 1 }, false, 'trace/open');
      } catch (e) {
        set({ traceLoading: false }, false, 'trace/open-failed');
        get().fail(e, `Cannot open trace ${id}`);
      }
    },

    selectTraceTool(tool) {
      const { tool: _old, ...route } = get().route;
      set({ traceTool: tool, route: tool ? { ...route, tool } : route }, false, 'trace/tool');
    },

    selectTraceTurn(traceTurn) {
      set({ traceTurn }, false, 'trace/turn');
    },
  });
