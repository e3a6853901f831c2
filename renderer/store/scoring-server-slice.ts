// The scoring server(s) kept for this user (the Models view's Scoring server card, the Jobs view's
// "Score on" choice): the saved settings and their last check, from the engine.
import type { ApiInput, ScoringServerState, StudioApi } from '../../shared/api';
import type { SliceCreator } from './types';

export interface ScoringServerSlice {
  scoringServer: ScoringServerState | null;
  scoringServerBusy: boolean;
  /** While a check runs: endpoints checked so far, of how many. */
  scoringServerProgress: { done: number; total: number } | null;
  loadScoringServer(): Promise<void>;
  /** Saves the settings, then checks each endpoint in turn (a check contacts one endpoint and saves nothing);
   * null when the engine refused them (a notice says why). */
  checkScoringServer(input: ApiInput<'checkScoringServer'>): Promise<ScoringServerState | null>;
  forgetScoringServer(): Promise<void>;
}

export const createScoringServerSlice =
  (api: StudioApi): SliceCreator<ScoringServerSlice> =>
  (set, get) => ({
    scoringServer: null,
    scoringServerBusy: false,
    scoringServerProgress: null,

    async loadScoringServer() {
      try {
        set({ scoringServer: await api.getScoringServer() }, false, 'scoring-server/load');
      } catch (e) {
        get().fail(e, 'Cannot read the scoring-server settings');
      }
    },

    async checkScoringServer(input) {
      set({ scoringServerBusy: true }, false, 'scoring-server/check-start');
      try {
        const saved = await api.saveScoringServer(input);
        const endpoints = saved.settings?.endpoints ?? input.endpoints;
        let state = saved;
        for (const [i, endpoint] of endpoints.entries()) {
          set({ scoringServerProgress: { done: i, total: endpoints.length } }, false, 'scoring-server/check-progress');
          state = await api.checkScoringServer({ ...input, endpoints: [endpoint] });
        }
        set({ scoringServer: state, scoringServerBusy: false, scoringServerProgress: null }, false, 'scoring-server/check');
        return state;
      } catch (e) {
        set({ scoringServerBusy: false, scoringServerProgress: null }, false, 'scoring-server/check-failed');
        get().fail(e, 'Cannot check the scoring server');
        return null;
      }
    },

    async forgetScoringServer() {
      try {
        set({ scoringServer: await api.forgetScoringServer() }, false, 'scoring-server/forget');
      } catch (e) {
        get().fail(e, 'Cannot forget the scoring server');
      }
    },
  });
