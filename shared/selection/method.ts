// What a selection method is: a provider that picks the menu a task's requests are served with — one
// menu for the task (LOTS, the per-task baselines), one per draw (Random), or one per request (a router).
// It is async and gets a context with an optional handle on the serving model, so a method that asks
// the model which tools a request needs fits the same evaluate step as a pure per-task rule. Adding a
// method is one file under methods/ plus its entry in registry.ts (docs/ARCHITECTURE.md).
import type { ToolDef } from '../trace/schema';

export type SelectionSplit = 'fit' | 'eval';

/** One greedy completion by the serving model, with the prompt's length in the model's tokens. */
export interface Generation {
  text: string;
  promptTokens: number;
}

/** One fitting request served under a candidate menu: the tool lines the model read, its answer, and
 * whether the answer matched the request's gold answer. */
export interface ServedRequest {
  request: string;
  lines: readonly { tool: string; output: string }[];
  answer: string;
  correct: boolean;
  promptTokens: number;
}

/** The fitting requests served under one menu (in `SelectionContext.requests.fit` order). */
export interface ServedFit {
  accuracy: number;
  requests: ServedRequest[];
}

export interface SelectionContext {
  task: string;
  /** The task's whole registry A_t (keep-all's menu). */
  registry: readonly ToolDef[];
  /** LOTS's budget for the task (the budget sweep's best K); Random and BM25 use the same. */
  k: number;
  /** LOTS's space at K (the tools the sweep measured at its best K). */
  space: readonly string[];
  /** LOTS's ranking as far as the budget sweep measured it (the top of the largest K it tried): what a
   * fixed-K row of LOTS keeps. */
  ranking?: readonly string[];
  /** Every tool the task's scores rank, in ranking order (the observed tools a three-state proposal defers
   * when they are not pinned, shared/lots/space-draft.ts). Absent where no scores were read. */
  observed?: readonly string[];
  /** The task's gold tool chain where the caller knows one (the built-in benchmark's answer key): the
   * oracle's reference row. Absent for real projects. */
  goldChain?: readonly string[];
  /** The text of each request of the task by split, in the order the requests are served. */
  requests: Readonly<Record<SelectionSplit, readonly string[]>>;
  seed: string;
  /** Draws of a randomised method. */
  draws: number;
  /** The serving model, for a method that needs one (`needsModel`): one greedy completion of a user
   * message, rendered in the model's chat format as serving renders a request. */
  generate?: (prompt: string, options?: { maxTokens?: number; signal?: AbortSignal }) => Promise<Generation>;
  /** Serves the task's fitting requests under a menu, executing its tools, and grades each answer against
   * its gold answer. Label-using methods (TTO†, Beam†) read `accuracy`; the trace judge reads the lines and
   * answers only. Served (request, menu) pairs are remembered, so a candidate measured twice costs once. */
  serveFit?: (menu: readonly string[], signal?: AbortSignal) => Promise<ServedFit>;
  /** Unit-length embeddings of texts by a local model (Dense, Tool2Vec), one vector per text, and the
   * tokens the model read. */
  embed?: (texts: readonly string[], signal?: AbortSignal) => Promise<{ vectors: Float64Array[]; tokens: number }>;
  /** Where the embeddings come from, as the report names it (e.g. "qwen2.5-coder-0.5b's own embeddings"). */
  embedder?: string;
  /** Kept by the caller for a whole run across tasks: work that depends only on the registry (Tool2Vec's
   * tool vectors) is done once. */
  memo?: Map<string, unknown>;
  /** Which method the work kept in `memo` is charged to, once per run (default: the method's own id): a
   * fixed-K row shares its base method's tool vectors but pays for them as if it ran alone, so its cost
   * does not depend on which of them ran first. */
  payer?: string;
  signal?: AbortSignal;
}

/** What choosing cost (paper Table 20): the model's prompt tokens spent selecting, its calls, and whether it is paid once per task (`fit`) or again for every request served (`request`). */
export interface SelectionCost {
  per: 'fit' | 'request';
  /** Prompt tokens read by the model while selecting (serving candidate menus, router or judge prompts). */
  promptTokens: number;
  /** Model calls: generations, or requests served under candidate menus. */
  calls: number;
  /** Candidate menus measured (TTO†, Beam†). */
  candidates?: number;
  /** Model replies that could not be read as a tool list (router, trace judge): each is counted, never guessed. */
  failures?: number;
  /** Wall time of choosing; absent where it was not measured with the choice (LOTS: its scoring ran before). */
  seconds?: number;
  /** The budget K it was asked to choose at (LOTS's K), recorded so a stored choice is reused only at the same K. */
  budget?: number;
  /** The embeddings a method that embeds used (`SelectionContext.embedder`), recorded so a stored choice is
   * reused only under the same embedder. */
  embedder?: string;
}

/** A method's pick. Per task: `menus` is one menu served to every request (several for a randomised
 * method's draws, each measured over all requests). Per request: `perRequest[split][i]` is the index in
 * `menus` of the menu request i of the split is served with (`SelectionContext.requests` order). */
export interface Selection {
  k: number;
  menus: string[][];
  /** Tools listed beside every menu by name and a few words, not run, which the model may ask for once
   * (shared/benchmark/deferred.ts): a three-state space's deferred tools. */
  deferred?: string[];
  perRequest?: Record<SelectionSplit, number[]>;
  /** Absent for a method that costs no model tokens (keep-all, no tools, Random, BM25). */
  cost?: SelectionCost;
  /** One line on how it ended, when there is something to say (TTO†'s stop, the router's failures). */
  note?: string;
}

export interface SelectionMethod<Id extends string = string> {
  id: Id;
  /** How reports and tables name it. */
  label: string;
  /** One sentence: what it keeps. */
  definition: string;
  /** The definition with the budget fixed at `k` in every task, for a method whose budget is LOTS's K
   * (Table 9's fixed-K rows, methods/fixed-k.ts). */
  definitionAt?: (k: number) => string;
  /** Asks a model when it chooses: which of `SelectionContext.generate`, `serveFit`, `embed` it calls.
   * LOTS's scores come from the scoring run before, so LOTS needs none. */
  needsModel: boolean;
  uses?: readonly ('generate' | 'serveFit' | 'embed')[];
  /** What of LOTS's own result its space is built from, so that a new budget sweep knows which stored rows
   * it leaves stale: 'ranking' (the sweep's ranking: LOTS at a fixed K), 'space' (the ranking and the
   * label-chosen K, measured at that K: LOTS, pinned + deferred), 'space-less-one' (the same, one tool
   * fewer: the deletion rows), 'budget' (the label-chosen K only: BM25, Random, Dense, Tool2Vec); absent:
   * neither (keep-all, no tools, the oracle, the fixed-K baselines, the searches that choose their size). */
  follows?: 'ranking' | 'space' | 'space-less-one' | 'budget';
  /** Needs requests labelled correct or wrong to choose (LOTS: its budget sweep grades fitting requests). */
  needsLabels: boolean;
  /** Chooses one menu per request rather than one per task. */
  perRequest: boolean;
  /** A baseline LOTS is compared with (every method but LOTS itself). */
  baseline: boolean;
  /** A reference row a reviewer asks for beside the baselines (the gold-chain oracle, LOTS at a fixed K):
   * run by `--baselines all` and the demo, not by `lots evaluate`'s default. */
  reference?: boolean;
  select(ctx: SelectionContext): Promise<Selection>;
}

/** A method whose budget is LOTS's K and which can say what it keeps at a K of its own (Dense, Tool2Vec,
 * Random): what Table 9's fixed-K rows are built from. */
export type BudgetedMethod<Id extends string = string> = SelectionMethod<Id> & { definitionAt: (k: number) => string };

/** The flags of a pure per-task baseline: no model call, no labels, one menu (or one per draw) per task. */
export const PER_TASK_BASELINE = { needsModel: false, needsLabels: false, perRequest: false, baseline: true } as const;

/** The flags of a label-using search over candidate menus (TTO†, Beam†): it serves the fitting requests
 * under each candidate and grades them, and picks one menu per task. */
export const LABELLED_SEARCH = { needsModel: true, uses: ['serveFit'], needsLabels: true, perRequest: false, baseline: true } as const;
