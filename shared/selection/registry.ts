// The one list of selection methods. CLI help, the comparison table's columns, report labels and the
// evaluate step's baselines are all read from here; a new method is one file under methods/ and one
// entry below (docs/ARCHITECTURE.md).
import type { SelectionMethod } from './method';
import { bm25 } from './methods/bm25';
import { keepAll } from './methods/keep-all';
import { lots } from './methods/lots';
import { noTools } from './methods/no-tools';
import { random } from './methods/random';

/** In table order: LOTS first, then the baselines. */
export const SELECTION_METHODS = [lots, keepAll, noTools, random, bm25] as const;

export type SelectionMethodId = (typeof SELECTION_METHODS)[number]['id'];
export type BaselineName = Exclude<SelectionMethodId, 'lots'>;

export const SELECTION_METHOD_IDS: readonly SelectionMethodId[] = SELECTION_METHODS.map((m) => m.id);
export const BASELINE_NAMES: readonly BaselineName[] = SELECTION_METHODS.filter((m) => m.baseline).map((m) => m.id as BaselineName);

export function selectionMethod(id: string): SelectionMethod | undefined {
  return SELECTION_METHODS.find((m) => m.id === id);
}

export function isBaselineName(id: string): id is BaselineName {
  return (BASELINE_NAMES as readonly string[]).includes(id);
}
