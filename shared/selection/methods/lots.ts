// LOTS: the top-K space of the likelihood-only ranking at the budget the sweep chose (paper §3).
import type { SelectionMethod } from '../method';

export const lots: SelectionMethod<'lots'> = {
  id: 'lots',
  label: 'LOTS',
  follows: 'space',
  definition: 'the top-K tools of the likelihood-only ranking, K from the budget sweep',
  needsModel: false,
  needsLabels: true,
  perRequest: false,
  baseline: false,
  async select(ctx) {
    return { k: ctx.k, menus: [[...ctx.space]] };
  },
};
