// LOTS at a fixed budget (paper Table 9's second regime, K = 2 and K = 4): the top-K of the same ranking,
// K chosen without labels, beside LOTS at the sweep's label-chosen K.
import type { SelectionContext, SelectionMethod } from '../method';

function fixedK<Id extends string>(id: Id, k: number): SelectionMethod<Id> {
  return {
    id,
    label: `LOTS K=${k}`,
    definition: `the top ${k} tools of the likelihood-only ranking, K fixed (no labels used to choose it)`,
    needsModel: false,
    needsLabels: false,
    perRequest: false,
    baseline: true,
    reference: true,
    follows: 'ranking',
    async select(ctx: SelectionContext) {
      const ranking = ctx.ranking ?? ctx.space;
      const menu = ranking.slice(0, k);
      return {
        k,
        menus: [[...menu]],
        ...(menu.length < k ? { note: `the ranking the sweep measured holds ${menu.length} tools: served ${menu.length}, not ${k}` } : {}),
      };
    },
  };
}

export const lotsK2 = fixedK('lots-k2', 2);
export const lotsK4 = fixedK('lots-k4', 4);
