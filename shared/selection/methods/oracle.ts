// The gold-chain oracle: the benchmark family's own chain, the space a perfect ranking would deploy. A
// reference row, not a method anyone could run (it reads the benchmark's answer key, which the benchmark
// hands over as `ctx.goldChain`); it bounds what
// selection alone can reach with this model.
import type { SelectionMethod } from '../method';

export const oracle: SelectionMethod<'oracle'> = {
  id: 'oracle',
  label: 'Oracle (gold chain)',
  definition: "the family's gold tool chain, read from the benchmark's answer key (no_tool: no tools); a reference, not a method",
  needsModel: false,
  needsLabels: true,
  perRequest: false,
  baseline: true,
  reference: true,
  async select(ctx) {
    if (!ctx.goldChain) {
      return { k: 0, menus: [[]], note: `"${ctx.task}" has no gold chain (not a benchmark family): served no tools` };
    }
    const chain = ctx.goldChain.filter((tool) => ctx.registry.some((t) => t.name === tool));
    return { k: chain.length, menus: [chain] };
  },
};
