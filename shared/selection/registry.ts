// The one list of selection methods. CLI help, the comparison table's columns, report labels and the
// evaluate step's baselines are all read from here; a new method is one file under methods/ and one
// entry below (docs/ARCHITECTURE.md).
import type { SelectionMethod } from './method';
import { beam } from './methods/beam';
import { bm25 } from './methods/bm25';
import { dense } from './methods/dense';
import { keepAll } from './methods/keep-all';
import { lots } from './methods/lots';
import { lotsDeferred } from './methods/lots-deferred';
import { lotsK2, lotsK4 } from './methods/lots-fixed-k';
import { lotsDropRandom, lotsDropTop } from './methods/lots-drop';
import { denseK2, denseK4, randomK2, randomK4, tool2vecK2, tool2vecK4 } from './methods/fixed-k';
import { noTools } from './methods/no-tools';
import { oracle } from './methods/oracle';
import { random } from './methods/random';
import { router } from './methods/router';
import { tool2vec } from './methods/tool2vec';
import { traceJudge } from './methods/trace-judge';
import { tto } from './methods/tto';

/** In table order: LOTS first, then the baselines as the paper's Table 1 groups them (no selection,
 * search-based, LLM-based, label-using†), then the reference rows (the gold-chain oracle, LOTS at fixed K,
 * LOTS pinned with the rest deferred, Table 9's label-free rankings at the same fixed K, and the deletion
 * ablation: LOTS's space less its top tool, or less a random one). */
export const SELECTION_METHODS = [
  lots,
  keepAll,
  noTools,
  random,
  bm25,
  dense,
  tool2vec,
  router,
  traceJudge,
  tto,
  beam,
  oracle,
  lotsK2,
  lotsK4,
  lotsDeferred,
  denseK2,
  denseK4,
  tool2vecK2,
  tool2vecK4,
  randomK2,
  randomK4,
  lotsDropTop,
  lotsDropRandom,
] as const;

export type SelectionMethodId = (typeof SELECTION_METHODS)[number]['id'];
export type BaselineName = Exclude<SelectionMethodId, 'lots'>;

export const SELECTION_METHOD_IDS: readonly SelectionMethodId[] = SELECTION_METHODS.map((m) => m.id);
export const BASELINE_NAMES: readonly BaselineName[] = SELECTION_METHODS.filter((m) => m.baseline).map((m) => m.id as BaselineName);
/** What `lots evaluate` runs when no baseline is named: the baselines that call no model (seconds, not
 * hours, on a large project), without the reference rows. `--baselines all` (and `lots demo`) runs every one. */
export const DEFAULT_BASELINES: readonly BaselineName[] = SELECTION_METHODS.filter(
  (m): boolean => m.baseline && !m.needsModel && !('reference' in m && m.reference === true),
).map((m) => m.id as BaselineName);

/** The paper's Table 9 rankings at a fixed K (Dense, Tool2Vec, Random at K = 2 and 4): run when named or
 * with the group name `fixed-k`, not with `all` (six more servings of every request). */
export const FIXED_K_BASELINES: readonly BaselineName[] = ['dense-k2', 'dense-k4', 'tool2vec-k2', 'tool2vec-k4', 'random-k2', 'random-k4'];
/** Whether a method id is one of Table 9's fixed-K rankings: the comparison tables and the charts leave them
 * out (they pair with LOTS at the same K, in a table of their own). */
export function isFixedK(id: string): boolean {
  return (FIXED_K_BASELINES as readonly string[]).includes(id);
}
/** The deletion ablation (LOTS's space less its top tool, less a random one): run when named or with the
 * group name `deletion`, not with `all`. */
export const DELETION_BASELINES: readonly BaselineName[] = ['lots-drop-top', 'lots-drop-random'];
/** What `--baselines all` runs (and `lots demo` by default): every baseline but Table 9's fixed-K rankings
 * and the deletion ablation. */
export const ALL_BASELINES: readonly BaselineName[] = BASELINE_NAMES.filter((n) => !FIXED_K_BASELINES.includes(n) && !DELETION_BASELINES.includes(n));
/** The names `--baselines` accepts besides the baselines' own: `all`, `fixed-k` and `deletion`. */
export const BASELINE_GROUPS = ['all', 'fixed-k', 'deletion'] as const;

/** A `--baselines` list with its group names expanded, in the order given, each once. */
export function expandBaselines(named: readonly string[]): string[] {
  const groups: Record<string, readonly string[]> = { all: ALL_BASELINES, 'fixed-k': FIXED_K_BASELINES, deletion: DELETION_BASELINES };
  const out = named.flatMap((n) => [...(groups[n] ?? [n])]);
  return [...new Set(out)];
}

export function selectionMethod(id: string): SelectionMethod | undefined {
  return SELECTION_METHODS.find((m) => m.id === id);
}

export function isBaselineName(id: string): id is BaselineName {
  return (BASELINE_NAMES as readonly string[]).includes(id);
}
