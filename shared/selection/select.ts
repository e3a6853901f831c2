// Running selection methods for one task: each method of the registry named, in the order named, with
// the same context, its pick labelled with the method's id for the comparison (benchmark/sweep.ts).
import { ExpectedError } from '../api/errors';
import type { ComparedSpace } from '../benchmark/sweep';
import type { SelectionContext } from './method';
import { SELECTION_METHOD_IDS, selectionMethod } from './registry';

export async function selectSpaces(ctx: SelectionContext, ids: readonly string[]): Promise<ComparedSpace[]> {
  const out: ComparedSpace[] = [];
  for (const id of ids) {
    const method = selectionMethod(id);
    if (!method) throw new ExpectedError('INVALID_INPUT', `unknown selection method ${id}; choose from ${SELECTION_METHOD_IDS.join(', ')}`);
    if (method.needsModel && !ctx.generate) throw new ExpectedError('INVALID_INPUT', `selection method ${id} needs the serving model`);
    ctx.signal?.throwIfAborted();
    const { k, menus, perRequest } = await method.select(ctx);
    out.push(perRequest ? { name: id, k, menus, perRequest } : { name: id, k, menus });
  }
  return out;
}
