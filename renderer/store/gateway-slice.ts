// The Gateway view's data: the gateways that served the open project (read from their status records,
// which other processes rewrite: the view polls while it is shown) and the fold of the batches they
// recorded, which is the History view's own fold (`lots update`, foldBatches) run for each task that has
// a batch ready.
import type { GatewayViewData, StudioApi } from '../../shared/api';
import type { SliceCreator } from './types';

export interface GatewayFoldResult {
  task: string;
  /** Batches folded; null when the fold of that task failed (its notice says why). */
  folded: number | null;
}

export interface GatewaySlice {
  gateways: GatewayViewData | null;
  /** The project the gateways were read from (a view of another project's gateways is not shown). */
  gatewaysDir: string | null;
  /** Read the records again; `quiet` (a poll) shows no notice when it fails. */
  loadGateways(options?: { quiet?: boolean }): Promise<void>;
  /** What the last fold from the Gateway view did, per task (null before one). */
  gatewayFold: GatewayFoldResult[] | null;
  foldGatewayBatches(tasks: string[]): Promise<GatewayFoldResult[]>;
}

export const createGatewaySlice =
  (api: StudioApi): SliceCreator<GatewaySlice> =>
  (set, get) => {
    let loading = false;
    return {
      gateways: null,
      gatewaysDir: null,
      gatewayFold: null,

      async loadGateways(options = {}) {
        const dir = get().project?.dir;
        if (loading || !dir) return;
        loading = true;
        try {
          const gateways = await api.getGateways();
          if (get().project?.dir === dir) set({ gateways, gatewaysDir: dir }, false, 'gateway/load');
        } catch (e) {
          if (!options.quiet) get().fail(e, 'Cannot read the gateways of this project');
        } finally {
          loading = false;
        }
      },

      async foldGatewayBatches(tasks) {
        const results: GatewayFoldResult[] = [];
        for (const task of tasks) results.push({ task, folded: await get().foldBatches(task) });
        set({ gatewayFold: results }, false, 'gateway/fold');
        await get().loadGateways();
        return results;
      },
    };
  };
