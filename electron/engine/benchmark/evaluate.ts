// The budget sweep and the side-by-side evaluation of one task, served by a local model and stored
// with the project: the sweep curve and bestK (the UI's K slider reads them), LOTS and the baselines on the
// same budget (`compareAtBudget`, the one comparison loop: `lots evaluate`, `lots demo` and the Studio's
// sweep job all run it), and — `evaluateTask` only — the LOTS space at bestK as a new accepted space version.
import { sameSet } from '../../../shared/base/sets';
import { baselineSpaces, DEFAULT_RANDOM_DRAWS } from '../../../shared/benchmark/baselines';
import { DEFAULT_BASELINES, selectionMethod, type BaselineName } from '../../../shared/selection/registry';
import type { SelectionContext, ServedFit } from '../../../shared/selection/method';
import {
  compareSpaces,
  mergeBaselineRows,
  runBudgetSweep,
  type MenuEvaluator,
  type RequestMenuEvaluator,
  type Split,
  type SweepProgress,
} from '../../../shared/benchmark/sweep';
import type { Scored } from '../../../shared/lots/rank';
import type { BaselineResult, SweepResult } from '../../../shared/project/sweeps';
import type { ToolDef, Trace } from '../../../shared/trace/schema';

import { approvedSpace } from '../read-model/approved-space';
import type { ProjectStore } from '../store/project-store';
import type { BenchServer } from './server';
import { lotsSelectionCost } from './selection-cost';
import { taskRanking } from './project';
import { defaultDeferred } from '../../../shared/lots/space-draft';
import { ExpectedError } from '../../../shared/api/errors';

export interface TaskRequests {
  fit: Trace[];
  eval: Trace[];
}

/** Serves a task's requests of a split under a menu and reports accuracy and mean prompt tokens. */
export function menuEvaluator(server: BenchServer, requests: TaskRequests, onServed?: (done: number, total: number) => void): MenuEvaluator {
  const each = requestMenuEvaluator(server, requests, onServed);
  return (menu, split, signal, deferred) =>
    each(
      requests[split].map(() => menu),
      split,
      signal,
      deferred,
    );
}

/** The same with one menu per request (`menus[i]` serves request i of the split): a per-request method. */
export function requestMenuEvaluator(server: BenchServer, requests: TaskRequests, onServed?: (done: number, total: number) => void): RequestMenuEvaluator {
  return async (menus, split, signal, deferred) => {
    const list = requests[split];
    if (list.length === 0) return { accuracy: 0, n: 0, promptTokens: 0 };
    const served = await server.serve(
      list.map((base, i) => ({ base, menu: menus[i] ?? [], ...(deferred ? { deferred } : {}) })),
      { signal, onProgress: onServed },
    );
    return {
      accuracy: served.filter((s) => s.correct).length / served.length,
      n: served.length,
      promptTokens: served.reduce((a, s) => a + s.promptTokens, 0) / served.length,
      schemaTokens: server.schemaTokens(list[0]!, menus[0] ?? []),
      outcomes: served.map((s, i) => ({ request: list[i]!.id, correct: s.correct, promptTokens: s.promptTokens, ...(s.called ? { called: s.called } : {}) })),
    };
  };
}

/** The texts a selection method sees of a task's requests: each request's first turn, by split. */
export function requestTexts(requests: TaskRequests): { fittingRequests: string[]; evalRequests: string[] } {
  return { fittingRequests: requests.fit.map((t) => t.turns[0]!.request), evalRequests: requests.eval.map((t) => t.turns[0]!.request) };
}

export interface SweepTaskOptions {
  run: string;
  ks?: readonly number[];
  signal?: AbortSignal;
  onProgress?: (p: SweepProgress) => void;
  onServed?: (done: number, total: number) => void;
  onStale?: (methods: string[]) => void;
}

export async function sweepTask(
  store: ProjectStore,
  server: BenchServer,
  task: string,
  requests: TaskRequests,
  ranking: readonly Scored[],
  options: SweepTaskOptions,
): Promise<SweepResult> {
  if (ranking.length === 0) {
    throw new ExpectedError('NOT_FOUND', `task "${task}" has no scored tools in run ${options.run}; score its served fitting requests first`);
  }
  if (requests.fit.length === 0) throw new ExpectedError('NOT_FOUND', `task "${task}" has no fitting requests to sweep the budget on`);
  return runBudgetSweep({
    task,
    model: server.modelHash,
    run: options.run,
    ranking,
    ks: options.ks,
    previous: store.readSweep(task),
    evaluate: menuEvaluator(server, requests, options.onServed),
    // Saves merge into the file under its lock: rows a `lots evaluate` saves meanwhile are kept.
    update: (merge) => store.updateSweep(task, merge),
    onProgress: options.onProgress,
    ...(options.onStale ? { onStale: options.onStale } : {}),
    signal: options.signal,
  });
}

/** The serving model as a selection method sees it (shared/selection/method.ts): completions, the task's
 * fitting requests served under a candidate menu, and the model's own embeddings. */
export function modelCapabilities(
  server: BenchServer,
  requests: TaskRequests,
): Required<Pick<SelectionContext, 'generate' | 'serveFit' | 'embed' | 'embedder'>> {
  return {
    generate: (prompt, o) => server.generate(prompt, o),
    serveFit: async (menu, signal): Promise<ServedFit> => {
      const served = await server.serve(
        requests.fit.map((base) => ({ base, menu })),
        signal ? { signal } : {},
      );
      return {
        accuracy: served.length ? served.filter((s) => s.correct).length / served.length : 0,
        requests: served.map((s) => {
          const turn = s.trace.turns[0]!;
          const lines = turn.steps.flatMap((step) => (step.kind === 'lines' ? step.lines : []));
          return { request: turn.request, lines, answer: turn.answer, correct: s.correct, promptTokens: s.promptTokens };
        }),
      };
    },
    embed: (texts, signal) => server.embed(texts, signal),
    embedder: server.embedder,
  };
}

export interface CompareAtBudgetOptions {
  seed: string;
  draws?: number;
  /** Default: DEFAULT_BASELINES (those that call no model). */
  baselines?: readonly BaselineName[];
  /** Kept across the tasks of one run (Tool2Vec's tool vectors are computed once per registry). */
  memo?: Map<string, unknown>;
  /** Default: fitting and evaluation requests. */
  splits?: readonly Split[];
  signal?: AbortSignal;
  onProgress?: (p: SweepProgress) => void;
  onServed?: (done: number, total: number) => void;
}

export type EvaluateTaskOptions = CompareAtBudgetOptions;

export interface TaskEvaluation {
  sweep: SweepResult;
  /** The LOTS space at bestK. */
  space: string[];
  k: number;
  /** Every tool the task's scores rank (observedTools). */
  observed: string[];
}

/** The methods `compareAtBudget` runs, in its order: LOTS first, then the baselines asked for. */
export function comparedMethods(baselines: readonly BaselineName[] = DEFAULT_BASELINES): string[] {
  return ['lots', ...baselines];
}

/**
 * LOTS at the stored sweep's bestK against the baselines, on the splits asked for — the one comparison
 * loop: `lots evaluate` and `lots demo` run it through `evaluateTask` (which then accepts the LOTS space),
 * the Studio's sweep job runs it on the fitting requests and accepts nothing. Each method is chosen,
 * measured and saved before the next (LOTS first), so a stopped run keeps every method it finished; a
 * method that asks the model is not asked again when its results are stored at this budget; LOTS's row
 * carries its selection cost (scoring and the sweep's serving, paper Table 20). Returns the updated sweep.
 */
export async function compareAtBudget(
  store: ProjectStore,
  server: BenchServer,
  task: string,
  requests: TaskRequests,
  registry: readonly ToolDef[],
  options: CompareAtBudgetOptions,
): Promise<TaskEvaluation> {
  const sweep = store.readSweep(task);
  if (!sweep || sweep.bestK === undefined) throw new ExpectedError('NOT_FOUND', `task "${task}" has no budget sweep yet; run \`lots sweep\` first`);
  if (sweep.model !== server.modelHash) {
    throw new ExpectedError(
      'INVALID_INPUT',
      `the budget sweep of "${task}" was measured with another model (${sweep.model}); sweep again with this model first`,
    );
  }
  const k = sweep.bestK;
  const space = sweep.points.find((p) => p.k === k)!.tools;
  const splits = options.splits ?? ['fit', 'eval'];
  // A method that asks the model is not asked again when its results on every split are stored with
  // what it chose at this budget (and, for one that embeds, under the same embedder): a resumed run goes on
  // from there.
  const names = comparedMethods(options.baselines).filter((name) => {
    const method = selectionMethod(name);
    if (!method?.needsModel) return true;
    const embedder = method.uses?.includes('embed') ? server.embedder : undefined;
    return !splits.every((split) =>
      sweep.baselines.some(
        (b) => b.name === name && b.split === split && b.outcomes !== undefined && b.selection?.budget === k && b.selection.embedder === embedder,
      ),
    );
  });
  const observed = observedTools(store, sweep);
  // Every method of the registry runs through the same provider interface, one at a time.
  let current = sweep;
  let baselines = sweep.baselines;
  const total = names.length * splits.length;
  let done = 0;
  // Another process may save this sweep meanwhile (a second `lots evaluate` with other baselines): every
  // save merges this run's rows into what the file holds then (mergeBaselineRows), under the lock. The
  // file's points, K and run are kept as they are; if a `lots sweep` changed the K or the ranking this run
  // measured against, its rows would be stale: it stops and says so.
  const saveMerged = (from: readonly BaselineResult[], rows: readonly BaselineResult[]) => {
    current = store.updateSweep(task, (stored) => {
      if (stored && (stored.bestK !== sweep.bestK || stored.run !== sweep.run || stored.model !== sweep.model)) {
        throw new ExpectedError(
          'SWEEP_CHANGED',
          `the budget sweep of "${task}" changed while this evaluation ran (K ${sweep.bestK} → ${stored.bestK ?? 'none'}${stored.run !== sweep.run ? ', another scoring run' : ''}${stored.model !== sweep.model ? ', another model' : ''}: another \`lots sweep\`?); this evaluation's rows not yet saved are dropped, and the rows saved before the change stay only where the new sweep still holds them: run \`lots evaluate\` again to measure the rest at the new K`,
        );
      }
      return { ...(stored ?? current), baselines: mergeBaselineRows(from, rows, stored?.baselines ?? []) };
    });
  };
  for (const name of names) {
    options.signal?.throwIfAborted();
    if (selectionMethod(name)?.needsModel) options.onProgress?.({ done, total, label: `${name}: choosing`, cached: false });
    const spaces = await baselineSpaces({
      task,
      registry,
      k,
      space,
      ranking: sweepRanking(sweep),
      ...(observed.length > 0 ? { observed } : {}),
      ...requestTexts(requests),
      seed: options.seed,
      draws: options.draws ?? DEFAULT_RANDOM_DRAWS,
      names: [name],
      ...modelCapabilities(server, requests),
      ...(options.memo ? { memo: options.memo } : {}),
      signal: options.signal,
    });
    const previous = baselines;
    baselines = await compareSpaces({
      spaces,
      splits,
      evaluate: menuEvaluator(server, requests, options.onServed),
      evaluateRequests: requestMenuEvaluator(server, requests, options.onServed),
      previous,
      requireOutcomes: true,
      save: (results) => saveMerged(previous, results),
      onProgress: (p) => options.onProgress?.({ ...p, done: done + p.done, total }),
      signal: options.signal,
    });
    done += splits.length;
  }
  // LOTS's own selection cost (its scoring and the sweep's serving), beside the baselines' (Table 20).
  const lotsCost = await lotsSelectionCost(store, server, task, sweep);
  saveMerged(baselines, lotsCost ? baselines.map((b) => (b.name === 'lots' ? { ...b, selection: { ...lotsCost, budget: k } } : b)) : baselines);
  return { sweep: current, space, k, observed };
}

/** LOTS at the sweep's bestK against the baselines (`compareAtBudget`, on fitting and evaluation requests by
 * default), then the LOTS space at bestK accepted as a new space version unless it is the approved one. */
export async function evaluateTask(
  store: ProjectStore,
  server: BenchServer,
  task: string,
  requests: TaskRequests,
  registry: readonly ToolDef[],
  options: EvaluateTaskOptions,
): Promise<TaskEvaluation> {
  const evaluation = await compareAtBudget(store, server, task, requests, registry, options);
  const { sweep, space, k, observed } = evaluation;
  const latest = approvedSpace(store, task);
  if (!latest || !sameSet(latest.tools, space) || latest.rule.kind !== 'topk' || latest.rule.k !== k) {
    // The three-state proposal at K: the top K pinned, the task's other scored tools deferred, the rest hidden.
    store.acceptSpace({
      task,
      tools: space,
      deferred: defaultDeferred(observed, space),
      pinned: [],
      banned: [],
      rule: { kind: 'topk', k },
      note: `budget sweep: smallest K with the highest fitting accuracy (K=${k}, ${fmt(sweep.points.find((p) => p.k === k)!.accuracy)})`,
      run: sweep.run,
    });
  }
  return evaluation;
}

/** Every tool the task's scores rank in the sweep's scoring run, in ranking order: what a three-state
 * proposal defers when it is not pinned. Empty for a sweep that names no run. */
function observedTools(store: ProjectStore, sweep: SweepResult): string[] {
  return sweep.run ? taskRanking(store.listScores(sweep.run), sweep.task).map((t) => t.tool) : [];
}

/** LOTS's ranking as far as the sweep measured it: the tools of its largest K, in ranking order. */
function sweepRanking(sweep: SweepResult): string[] {
  const widest = sweep.points.reduce<(typeof sweep.points)[number] | undefined>((a, p) => (!a || p.k > a.k ? p : a), undefined);
  return widest ? [...widest.tools] : [];
}

function fmt(x: number): string {
  return x.toFixed(2);
}
