// Keep all: the whole registry on every request (paper B.1).
import type { SelectionMethod } from '../method';

export const keepAll: SelectionMethod<'keep-all'> = {
  id: 'keep-all',
  label: 'Keep-all',
  definition: "every tool of the task's registry",
  needsModel: false,
  needsLabels: false,
  perRequest: false,
  baseline: true,
  async select(ctx) {
    const all = ctx.registry.map((t) => t.name);
    return { k: all.length, menus: [all] };
  },
};
