// No tools: an empty menu (paper B.1).
import type { SelectionMethod } from '../method';

export const noTools: SelectionMethod<'no-tools'> = {
  id: 'no-tools',
  label: 'No tools',
  definition: 'an empty menu',
  needsModel: false,
  needsLabels: false,
  perRequest: false,
  baseline: true,
  async select() {
    return { k: 0, menus: [[]] };
  },
};
