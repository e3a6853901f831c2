// The scoring server(s) kept for this user (the Models view's Scoring server card, the Jobs view's
// "Score on" choice): the saved settings and their last check, from the engine.
import type { ApiInput, ScoringServerState, StudioApi } from '../../shared/api';
import type { SliceCreator } from './types';

export interface ScoringServerSlice {
  scoringServer: ScoringServerState | null;
  scoringServerBusy: boolean;
  loadScoringServer(): Promise<void>;
  /** Saves the settings, then checks every endpoint (a check saves nothing); null when the engine refused them (a notice says why). */
  checkScoringServer(input: ApiInput<'checkScoringServer'>): Promise<ScoringServerState | null>;
  forgetScoringServer(): Promise<void>;
}

export const createScoringServerSlice =
  (api: StudioApi): SliceCreator<ScoringServerSlice> =>
  (set, get) => ({
    scoringServer: null,
    scoringServerBusy: false,

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
        await api.saveScoringServer(input);
        const state = await api.checkScoringServer(input);
        set({ scoringServer: state, scoringServerBusy: false }, false, 'scoring-server/check');
        return state;
      } catch (e) {
        set({ scoringServerBusy: false }, false, 'scoring-server/check-failed');
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
