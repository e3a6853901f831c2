// LOTS pinned + deferred (a three-state space, issue 44): LOTS's space at its K pinned — run for every
// request as always — and the task's other scored tools deferred: listed by name and a few words, not run,
// callable once (shared/benchmark/deferred.ts). The same split as the space proposal's (`defaultDeferred`,
// shared/lots/space-draft.ts). Beside LOTS (top-K only) and keep-all it measures the paper's documentation
// demotion against its pruning on the built-in benchmark: whether a tool left out of the top K is still
// found when it is needed, and what listing the rest costs.
import { defaultDeferred } from '../../lots/space-draft';
import type { SelectionContext, SelectionMethod } from '../method';

export const lotsDeferred: SelectionMethod<'lots-deferred'> = {
  id: 'lots-deferred',
  label: 'LOTS pinned + deferred',
  follows: 'space',
  definition:
    "LOTS's space at K pinned (run for every request) and the task's other scored tools deferred: listed by name and a few words, not run, run when the model asks for them (one round)",
  needsModel: false,
  needsLabels: true,
  perRequest: false,
  baseline: true,
  reference: true,
  async select(ctx: SelectionContext) {
    const pinned = [...ctx.space];
    const inRegistry = new Set(ctx.registry.map((t) => t.name));
    // Without scores (a caller that read none), every other tool of the registry is deferred.
    const ranked = ctx.observed ?? ctx.registry.map((t) => t.name);
    const deferred = defaultDeferred(ranked, pinned).filter((t) => inRegistry.has(t));
    return {
      k: pinned.length,
      menus: [pinned],
      deferred,
      ...(ctx.observed ? {} : { note: 'no scores were read: every other registry tool is deferred' }),
    };
  },
};
