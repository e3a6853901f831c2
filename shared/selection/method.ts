// What a selection method is: a provider that picks the menu a task's requests are served with — one
// menu for the task (LOTS, the per-task baselines), one per draw (Random), or one per request (a router).
// It is async and gets a context with an optional handle on the serving model, so a method that asks
// the model which tools a request needs fits the same evaluate step as a pure per-task rule. Adding a
// method is one file under methods/ plus its entry in registry.ts (docs/ARCHITECTURE.md).
import type { ToolDef } from '../trace/schema';

export type SelectionSplit = 'fit' | 'eval';

export interface SelectionContext {
  task: string;
  /** The task's whole registry A_t (keep-all's menu). */
  registry: readonly ToolDef[];
  /** LOTS's budget for the task (the budget sweep's best K); Random and BM25 use the same. */
  k: number;
  /** LOTS's space at K (the tools the sweep measured at its best K). */
  space: readonly string[];
  /** The text of each request of the task by split, in the order the requests are served. */
  requests: Readonly<Record<SelectionSplit, readonly string[]>>;
  seed: string;
  /** Draws of a randomised method. */
  draws: number;
  /** The serving model, for a method that needs one (`needsModel`): one greedy completion of a prompt. */
  generate?: (prompt: string, options?: { maxTokens?: number; signal?: AbortSignal }) => Promise<string>;
  signal?: AbortSignal;
}

/** A method's pick. Per task: `menus` is one menu served to every request (several for a randomised
 * method's draws, each measured over all requests). Per request: `perRequest[split][i]` is the index in
 * `menus` of the menu request i of the split is served with (`SelectionContext.requests` order). */
export interface Selection {
  k: number;
  menus: string[][];
  perRequest?: Record<SelectionSplit, number[]>;
}

export interface SelectionMethod<Id extends string = string> {
  id: Id;
  /** How reports and tables name it. */
  label: string;
  /** One sentence: what it keeps. */
  definition: string;
  /** Asks the serving model when it chooses (gets `SelectionContext.generate`); LOTS's scores come from
   * the scoring run before, so LOTS does not. */
  needsModel: boolean;
  /** Needs requests labelled correct or wrong to choose (LOTS: its budget sweep grades fitting requests). */
  needsLabels: boolean;
  /** Chooses one menu per request rather than one per task. */
  perRequest: boolean;
  /** A baseline LOTS is compared with (every method but LOTS itself). */
  baseline: boolean;
  select(ctx: SelectionContext): Promise<Selection>;
}

/** The flags of a pure per-task baseline: no model call, no labels, one menu (or one per draw) per task. */
export const PER_TASK_BASELINE = { needsModel: false, needsLabels: false, perRequest: false, baseline: true } as const;
