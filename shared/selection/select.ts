// Running selection methods for one task: each method of the registry named, in the order named, with
// the same context, its pick labelled with the method's id for the comparison (benchmark/sweep.ts).
import { ExpectedError } from '../base/errors';
import type { SelectionContext, SelectionCost, SelectionSplit } from './method';
import { SELECTION_METHOD_IDS, selectionMethod } from './registry';

/** A space compared on the task: one menu, or one per draw (Random), or with `perRequest` the index in
 * `menus` of each request's menu, per split (method.ts). */
export interface ComparedSpace {
  name: string;
  k: number;
  menus: string[][];
  /** Tools listed beside every menu, not run, callable once (method.ts `Selection.deferred`). */
  deferred?: string[];
  perRequest?: Record<SelectionSplit, number[]>;
  cost?: SelectionCost;
  note?: string;
}

export async function selectSpaces(ctx: SelectionContext, ids: readonly string[]): Promise<ComparedSpace[]> {
  const out: ComparedSpace[] = [];
  for (const id of ids) {
    const method = selectionMethod(id);
    if (!method) throw new ExpectedError('INVALID_INPUT', `unknown selection method ${id}; choose from ${SELECTION_METHOD_IDS.join(', ')}`);
    const missing = (method.uses ?? []).filter((u) => ctx[u] === undefined);
    if (missing.length) throw new ExpectedError('INVALID_INPUT', `selection method ${id} needs the serving model (${missing.join(', ')})`);
    ctx.signal?.throwIfAborted();
    const { k, menus, deferred, perRequest, cost, note } = await method.select(ctx);
    const embedder = method.uses?.includes('embed') && ctx.embedder !== undefined ? { embedder: ctx.embedder } : {};
    out.push({
      name: id,
      k,
      menus,
      ...(deferred && deferred.length > 0 ? { deferred } : {}),
      ...(perRequest ? { perRequest } : {}),
      ...(cost ? { cost: { ...cost, budget: ctx.k, ...embedder } } : {}),
      ...(note ? { note } : {}),
    });
  }
  return out;
}
