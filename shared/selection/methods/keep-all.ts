// Keep all: the whole registry on every request (paper B.1).
import { PER_TASK_BASELINE, type SelectionMethod } from '../method';

export const keepAll: SelectionMethod<'keep-all'> = {
  id: 'keep-all',
  label: 'Keep-all',
  definition: "every tool of the task's registry",
  ...PER_TASK_BASELINE,
  async select(ctx) {
    const all = ctx.registry.map((t) => t.name);
    return { k: all.length, menus: [all] };
  },
};
