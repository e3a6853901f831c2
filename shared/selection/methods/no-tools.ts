// No tools: an empty menu (paper B.1).
import { PER_TASK_BASELINE, type SelectionMethod } from '../method';

export const noTools: SelectionMethod<'no-tools'> = {
  id: 'no-tools',
  label: 'No tools',
  definition: 'an empty menu',
  ...PER_TASK_BASELINE,
  async select() {
    return { k: 0, menus: [[]] };
  },
};
