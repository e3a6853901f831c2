// Label-free rankings at a fixed budget (paper Table 9, C.3): Dense, Tool2Vec and Random deployed at the
// same K = 2 and K = 4 in every task, beside LOTS at the same K (lots-fixed-k.ts). Each is its base method
// with the budget replaced, so the comparison takes the label-chosen K out of every row: no fitting label
// enters any of these spaces.
import type { BudgetedMethod, SelectionContext, SelectionMethod } from '../method';
import { dense } from './dense';
import { random } from './random';
import { tool2vec } from './tool2vec';

export function atFixedK<Id extends string>(base: BudgetedMethod, id: Id, k: number): SelectionMethod<Id> {
  const { definitionAt, follows, ...rest } = base;
  void follows; // at a fixed K, no longer LOTS's budget
  return {
    ...rest,
    id,
    label: `${base.label} K=${k}`,
    definition: `${definitionAt(k)}, K fixed in every task (not LOTS's label-chosen K)`,
    needsLabels: false,
    reference: true,
    async select(ctx: SelectionContext) {
      // Work the base method keeps for the run (Tool2Vec's tool vectors) is shared, but charged to this row.
      return base.select({ ...ctx, k: Math.min(k, ctx.registry.length), payer: id });
    },
  };
}

export const denseK2 = atFixedK(dense, 'dense-k2', 2);
export const denseK4 = atFixedK(dense, 'dense-k4', 4);
export const tool2vecK2 = atFixedK(tool2vec, 'tool2vec-k2', 2);
export const tool2vecK4 = atFixedK(tool2vec, 'tool2vec-k4', 4);
export const randomK2 = atFixedK(random, 'random-k2', 2);
export const randomK4 = atFixedK(random, 'random-k4', 4);
