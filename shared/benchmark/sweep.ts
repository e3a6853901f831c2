// The budget sweep and the side-by-side comparison, independent of how a menu is served: an injected
// evaluator serves the task's fitting (or evaluation) requests under a menu and reports accuracy and
// prompt tokens. Results are saved after every point, so a cancelled or killed sweep resumes where it
// stopped, and a point already measured for the same task, K, model and tools is never measured again.
import { sameSet } from '../base/sets';
import { selectBudget } from '../lots/budget';
import type { Scored } from '../lots/rank';
import { selectTopK } from '../lots/select';
import type { BaselineResult, SweepPoint, SweepResult } from '../project/sweeps';
import type { ComparedSpace } from '../selection/select';

export type { ComparedSpace };
import { meanStd } from './baselines';
import { selectionMethod } from '../selection/registry';

export type Split = 'fit' | 'eval';

export interface MenuEvaluation {
  accuracy: number;
  /** Requests served. */
  n: number;
  /** Mean prompt tokens per request. */
  promptTokens: number;
  schemaTokens?: number;
  /** Each request's outcome, in the split's order (paired statistics compare menus request by request). */
  outcomes?: RequestOutcome[];
}

/** One request served under a menu: its trace id, whether the answer was right, its prompt tokens (every
 * step's), and the deferred tools it asked for before answering, if any. */
export interface RequestOutcome {
  request: string;
  correct: boolean;
  promptTokens: number;
  called?: string[];
}

/** Serves a split's requests under a menu; `deferred` tools are listed beside it, not run, callable once
 * (shared/benchmark/deferred.ts). */
export type MenuEvaluator = (menu: readonly string[], split: Split, signal?: AbortSignal, deferred?: readonly string[]) => Promise<MenuEvaluation>;

/** Serves each request of a split with its own menu (`menus[i]` for request i), for a per-request method. */
export type RequestMenuEvaluator = (
  menus: readonly (readonly string[])[],
  split: Split,
  signal?: AbortSignal,
  deferred?: readonly string[],
) => Promise<MenuEvaluation>;

export interface SweepProgress {
  done: number;
  total: number;
  label: string;
  cached: boolean;
  /** The budget just measured (budget sweeps only). */
  k?: number;
}

export interface BudgetSweepOptions {
  task: string;
  model: string;
  /** The scoring run the ranking came from. */
  run?: string;
  /** The task's LOTS ranking over A_t (score descending, ties by name). */
  ranking: readonly Scored[];
  /** Budgets to measure; default 1…|A_t|. */
  ks?: readonly number[];
  previous?: SweepResult;
  evaluate: MenuEvaluator;
  save?: (result: SweepResult) => void | Promise<void>;
  /**
   * Read-modify-write of the stored sweep (the store's `updateSweep`, under its lock); when given it is used
   * instead of `save`. Another process (`lots evaluate`) may save baseline rows to the same file while the
   * sweep runs: each save keeps them (mergeSweepSave), less the rows this sweep leaves stale, instead of
   * writing the sweep's own copy over them. Returns what was stored.
   */
  update?: (merge: (stored: SweepResult | undefined) => SweepResult) => SweepResult | Promise<SweepResult>;
  /** Called once, at the end, with the stored rows the new sweep left stale and dropped (none: not called). */
  onStale?: (methods: string[]) => void;
  onProgress?: (progress: SweepProgress) => void;
  signal?: AbortSignal;
  now?: () => string;
}

export function defaultBudgetGrid(eligible: number): number[] {
  return Array.from({ length: eligible }, (_, i) => i + 1);
}

export async function runBudgetSweep(options: BudgetSweepOptions): Promise<SweepResult> {
  const now = options.now ?? (() => new Date().toISOString());
  const ks = [...new Set(options.ks ?? defaultBudgetGrid(options.ranking.length))].sort((a, b) => a - b);
  const reusable = options.previous && options.previous.model === options.model ? options.previous : undefined;
  const points = new Map<number, SweepPoint>();
  let result: SweepResult = {
    task: options.task,
    model: options.model,
    ...(options.run !== undefined ? { run: options.run } : {}),
    points: [],
    baselines: reusable?.baselines ?? [],
    createdAt: now(),
  };
  let measured = false;
  const stale = new Set<string>();
  const rankingChanged = reusable !== undefined && reusable.run !== options.run;
  const startRows = reusable?.baselines ?? [];
  const persist = async (r: SweepResult, bestK?: number): Promise<SweepResult> => {
    if (!options.update) {
      await options.save?.(r);
      return r;
    }
    const change = { rankingChanged, ...(bestK !== undefined ? { bestK } : {}) };
    return options.update((file) => {
      const merged = mergeSweepSave(startRows, r, file, change);
      for (const name of merged.dropped) stale.add(name);
      return merged.result;
    });
  };
  const publish = (final = false): SweepResult => {
    const sorted = [...points.values()].sort((a, b) => a.k - b.k);
    const bestK = selectBudget(sorted);
    // A resume that measured nothing new keeps the sweep's date: it says when the points were measured.
    const unchanged = !measured && reusable !== undefined && reusable.points.length === sorted.length;
    result = { ...result, points: sorted, ...(bestK !== undefined ? { bestK } : {}), createdAt: unchanged ? reusable.createdAt : now() };
    if (bestK === undefined) delete result.bestK;
    // Rows the new ranking leaves stale go at every save (an interrupted sweep does not keep them); rows
    // measured at another K go once the sweep is complete (`final`): `lots evaluate` measures them again.
    const current = result;
    const kept = current.baselines.filter((b) => !staleRow(b, { rankingChanged, bestK: final ? bestK : undefined }));
    for (const b of current.baselines) if (!kept.includes(b)) stale.add(b.name);
    result = { ...current, baselines: kept };
    return result;
  };
  let done = 0;
  for (const k of ks) {
    options.signal?.throwIfAborted();
    const tools = selectTopK(options.ranking, k);
    // Menus are served in canonical order, so the same set of tools is the same measurement.
    const cached = reusable?.points.find((p) => p.k === k && sameSet(p.tools, tools));
    if (cached) {
      points.set(k, cached);
    } else {
      const m = await options.evaluate(tools, 'fit', options.signal);
      measured = true;
      points.set(k, {
        k,
        tools,
        accuracy: m.accuracy,
        n: m.n,
        promptTokens: m.promptTokens,
        ...(m.schemaTokens !== undefined ? { schemaTokens: m.schemaTokens } : {}),
      });
      await persist(publish());
    }
    options.onProgress?.({ done: ++done, total: ks.length, label: `K=${k}`, cached: Boolean(cached), k });
  }
  const published = publish(true);
  const final = await persist(published, published.bestK);
  if (stale.size > 0) options.onStale?.([...stale]);
  return final;
}

/**
 * What a sweep saves when another writer may have saved the same file since the sweep read it (a
 * `lots evaluate` measuring baselines while `lots sweep` runs): the sweep's points, K and run, with its
 * baseline rows merged into the file's (mergeBaselineRows, from `startRows`, the rows the sweep began with),
 * less the file's rows this sweep leaves stale (staleRow: measured at another K, or on another ranking).
 * The file's rows of another model are not kept. `dropped`: the methods of the file's rows left out as stale.
 */
export function mergeSweepSave(
  startRows: readonly BaselineResult[],
  ours: SweepResult,
  stored: SweepResult | undefined,
  change: { rankingChanged: boolean; bestK?: number },
): { result: SweepResult; dropped: string[] } {
  const theirs = stored && stored.model === ours.model ? stored.baselines : [];
  const merged = mergeBaselineRows(startRows, ours.baselines, theirs);
  const dropped: string[] = [];
  const kept = merged.filter((row) => {
    if (ours.baselines.includes(row) || !staleRow(row, change)) return true;
    dropped.push(row.name);
    return false;
  });
  return { result: { ...ours, baselines: kept }, dropped };
}

/**
 * Whether a stored row no longer describes its method against this sweep: one built from LOTS's ranking
 * when the ranking now comes from another scoring run; one built at LOTS's K (its own `k` says which)
 * when the sweep chose another K — judged only once the sweep is complete (`bestK` given), from the row
 * itself, so a sweep stopped halfway and resumed judges it the same. `lots evaluate` measures a dropped
 * method again when it is asked for.
 */
export function staleRow(row: Pick<BaselineResult, 'name' | 'k'>, change: { rankingChanged: boolean; bestK?: number }): boolean {
  const follows = selectionMethod(row.name)?.follows;
  if (follows === undefined) return false;
  if (follows !== 'budget' && change.rankingChanged) return true;
  if (change.bestK === undefined || follows === 'ranking') return false;
  return row.k !== (follows === 'space-less-one' ? Math.max(0, change.bestK - 1) : change.bestK);
}

/** What a front end says of the stored rows a new sweep dropped (`onStale`): which, why, and how to measure
 * them again — `lots sweep` prints it, the Studio's sweep job logs it. `remeasured`: the methods the caller
 * measured again itself on the fitting requests (the job's comparison loop); `lots evaluate` measures the
 * rest, and every dropped row of the evaluation split, again. */
export function staleRowsNote(stale: readonly string[], remeasured: readonly string[] = []): string {
  const here = stale.filter((m) => remeasured.includes(m));
  // `lots evaluate` always measures LOTS; the baselines are named.
  const baselines = stale.filter((m) => m !== 'lots');
  return (
    `the stored rows of ${stale.join(', ')} were measured against the previous ranking or K and are dropped` +
    (here.length > 0 ? ` (measured again here on the fitting requests: ${here.join(', ')})` : '') +
    `; lots evaluate${baselines.length > 0 ? ` --baselines ${baselines.join(',')}` : ''} measures them again`
  );
}

export interface CompareOptions {
  spaces: readonly ComparedSpace[];
  splits: readonly Split[];
  evaluate: MenuEvaluator;
  /** Needed when a space has per-request menus. */
  evaluateRequests?: RequestMenuEvaluator;
  /** Results measured before; an entry with the same name, split, K, tools and draws is reused. */
  previous?: readonly BaselineResult[];
  /** Reuse only results that kept their requests' outcomes (the evaluator gives them): older ones are
   * measured again, so the paired statistics can be computed. */
  requireOutcomes?: boolean;
  save?: (results: BaselineResult[]) => void | Promise<void>;
  onProgress?: (progress: SweepProgress) => void;
  signal?: AbortSignal;
}

export async function compareSpaces(options: CompareOptions): Promise<BaselineResult[]> {
  const results: BaselineResult[] = [...(options.previous ?? [])];
  const total = options.spaces.length * options.splits.length;
  let done = 0;
  for (const space of options.spaces) {
    for (const split of options.splits) {
      options.signal?.throwIfAborted();
      const perRequest = space.perRequest?.[split];
      const draws = perRequest ? 1 : space.menus.length;
      // A per-request space is recorded with every tool any request was served.
      const tools = perRequest ? [...new Set(space.menus.flat())].sort() : (space.menus[0] ?? []);
      const deferred = space.deferred ?? [];
      const servedDeferred = deferred.length > 0 ? deferred : undefined;
      const match = (r: BaselineResult) =>
        r.name === space.name &&
        r.split === split &&
        r.k === space.k &&
        sameSet(r.tools, tools) &&
        sameSet(r.deferred ?? [], deferred) &&
        (r.draws ?? 1) === draws &&
        (!options.requireOutcomes || r.outcomes !== undefined);
      const hit = results.findIndex(match);
      const cached = hit >= 0;
      const earlier = results[hit];
      if (earlier && space.cost?.embedder !== undefined && earlier.selection?.embedder !== space.cost.embedder) {
        // The same menu chosen again under another embedder: its measurement stands, what chose it is updated.
        results[hit] = { ...earlier, selection: space.cost, ...(space.note ? { note: space.note } : {}) };
        await options.save?.([...results]);
      }
      if (!cached) {
        const measured: MenuEvaluation[] = [];
        if (perRequest) {
          if (!options.evaluateRequests) throw new Error(`${space.name} serves one menu per request: compareSpaces needs evaluateRequests`);
          measured.push(
            await options.evaluateRequests(
              perRequest.map((i) => space.menus[i] ?? []),
              split,
              options.signal,
              servedDeferred,
            ),
          );
        } else {
          for (const menu of space.menus) measured.push(await options.evaluate(menu, split, options.signal, servedDeferred));
        }
        const acc = meanStd(measured.map((m) => m.accuracy));
        const entry: BaselineResult = {
          name: space.name,
          k: space.k,
          tools,
          ...(servedDeferred ? { deferred: [...servedDeferred], deferredCalls: deferredCalls(measured) } : {}),
          accuracy: acc.mean,
          n: measured[0]?.n ?? 0,
          promptTokens: meanStd(measured.map((m) => m.promptTokens)).mean,
          split,
          ...(draws > 1 ? { draws, accuracyStd: acc.std } : {}),
          ...recordedOutcomes(measured),
          ...(space.cost ? { selection: space.cost } : {}),
          ...(space.note ? { note: space.note } : {}),
        };
        // A result for the same name and split but another space is stale: replace it.
        const stale = results.findIndex((r) => r.name === space.name && r.split === split);
        if (stale >= 0) results.splice(stale, 1, entry);
        else results.push(entry);
        await options.save?.([...results]);
      }
      options.onProgress?.({ done: ++done, total, label: `${space.name} (${split})`, cached });
    }
  }
  return results;
}

/**
 * The baseline rows to store when another writer may have saved the same task's sweep since this one read
 * it (two `lots evaluate` runs on one project, say one measuring the fixed-K rows and one the deletion
 * rows): a three-way merge per row (one row per method and split). `base` is what this writer started from,
 * `ours` what it would store now, `theirs` what the file holds now. A row this writer measured or replaced
 * (not the very row of `base`) is its own; any other row is as the file now has it, so rows the other
 * writer added or measured again are kept and none of this writer's is lost.
 */
export function mergeBaselineRows(base: readonly BaselineResult[], ours: readonly BaselineResult[], theirs: readonly BaselineResult[]): BaselineResult[] {
  const key = (r: BaselineResult) => `${r.name}\u0000${r.split}`;
  const baseRows = new Map(base.map((r) => [key(r), r]));
  const oursRows = new Map(ours.map((r) => [key(r), r]));
  const theirRows = new Map(theirs.map((r) => [key(r), r]));
  // Changed here: measured, replaced or dropped by this writer since `base` (rows are replaced, never edited).
  const changed = (k: string) => oursRows.get(k) !== baseRows.get(k);
  const merged: BaselineResult[] = [];
  for (const row of ours) {
    const k = key(row);
    const kept = changed(k) ? row : theirRows.get(k);
    if (kept) merged.push(kept);
  }
  // The file's other rows: added by the other writer, unless this writer dropped them.
  for (const row of theirs) if (!oursRows.has(key(row)) && !changed(key(row))) merged.push(row);
  return merged;
}

/** Requests (over every draw) that asked for a deferred tool before answering. */
function deferredCalls(measured: readonly MenuEvaluation[]): number {
  return measured.reduce((a, m) => a + (m.outcomes ?? []).filter((o) => (o.called?.length ?? 0) > 0).length, 0);
}

/** Per-request outcomes over the draws (Random: the share of draws right), when every draw kept them. */
function recordedOutcomes(measured: readonly MenuEvaluation[]): Pick<BaselineResult, 'outcomes'> {
  const first = measured[0]?.outcomes;
  if (!first || measured.some((m) => m.outcomes?.length !== first.length)) return {};
  return {
    outcomes: first.map((o, i) => ({
      request: o.request,
      correct: measured.reduce((a, m) => a + (m.outcomes![i]!.correct ? 1 : 0), 0) / measured.length,
      promptTokens: measured.reduce((a, m) => a + m.outcomes![i]!.promptTokens, 0) / measured.length,
      ...(measured.length === 1 && o.called ? { called: o.called } : {}),
    })),
  };
}
