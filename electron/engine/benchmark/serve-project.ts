// `lots serve`: a model answers a project's benchmark requests, under the whole registry (each
// request's recorded menu) or under its task's current space; the served traces (answer, correctness,
// prompt tokens) are added to the project. A request already served the same way is skipped, so an
// interrupted run resumes. With `batches` > 1 each task's requests are split into that many consecutive
// parts and the traces go in as one import per part (all tasks' first parts, then all second parts, …):
// each task then has that many batches for the continual update (usecases/update.ts: a task's imports
// are its batches).
import { registryNames } from '../../../shared/benchmark/registry';
import { readBenchMeta } from '../../../shared/benchmark/trace';
import type { Trace } from '../../../shared/trace/schema';

import { approvedSpace } from '../read-model/approved-space';
import type { ProjectStore } from '../store/project-store';
import { benchRequests, servedTraceId } from './project';
import { PREFIX_REUSE, type BenchServer, type ServedTrace } from './server';
import { ExpectedError } from '../../../shared/api/errors';

export type ServeMenu = 'registry' | 'space';
export type ServeSplit = 'fit' | 'eval' | 'all';

export interface ServeProjectOptions {
  tasks?: readonly string[];
  split?: ServeSplit;
  menu?: ServeMenu;
  /** Served traces are written in chunks of this many (what an interruption can lose). With `batches` > 1
   * each batch is written as one import instead (an interruption loses the batch being served). */
  chunk?: number;
  /**
   * Imports the served traces go in as (default 1: written in chunks). With n > 1, each task's requests
   * are split into n consecutive parts, the earlier parts the larger by one where they do not divide
   * evenly (2: the first ⌈m/2⌉ of m requests, then the rest; a task with one request has one part), and
   * batch b holds every task's part b, in task order: one import each, its source naming the batch.
   */
  batches?: number;
  signal?: AbortSignal;
  onProgress?: (done: number, total: number) => void;
}

export interface TaskServeSummary {
  task: string;
  served: number;
  correct: number;
  promptTokens: number;
}

export interface ServeProjectResult {
  traces: Trace[];
  written: number;
  skipped: number;
  byTask: TaskServeSummary[];
}

/** The requests `lots serve` would answer with these options: those not served yet (`items`) and the traces
 * stored for the others (`existing`). */
function servePlan(store: ProjectStore, server: BenchServer, options: ServeProjectOptions) {
  const { byTask } = benchRequests(store);
  const wanted = options.tasks?.length ? new Set(options.tasks) : undefined;
  if (wanted) {
    const unknown = [...wanted].filter((t) => !byTask.has(t));
    if (unknown.length)
      throw new ExpectedError(
        'NOT_FOUND',
        `no benchmark requests for task ${unknown.map((t) => `"${t}"`).join(', ')}; tasks: ${[...byTask.keys()].join(', ')}`,
      );
  }
  const split = options.split ?? 'fit';
  const menuKind = options.menu ?? 'registry';
  const batches = Math.max(1, Math.floor(options.batches ?? 1));
  const items: Array<{ base: Trace; menu: string[]; id: string; label: string; batch: number }> = [];
  const existing: Array<{ base: Trace; menu: string[]; trace: Trace }> = [];
  for (const [task, requests] of byTask) {
    if (wanted && !wanted.has(task)) continue;
    let menu: string[] | undefined;
    let label = 'registry';
    if (menuKind === 'space') {
      const latest = approvedSpace(store, task);
      if (!latest) throw new ExpectedError('NOT_FOUND', `task "${task}" has no accepted space yet; serve under the registry, score, and fit or evaluate first`);
      menu = latest.tools;
      label = `space v${latest.version}`;
    }
    const list = split === 'all' ? [...requests.fit, ...requests.eval] : requests[split];
    for (const [i, base] of list.entries()) {
      const meta = readBenchMeta(base);
      const tools = menu ?? registryNames(meta.seed, meta.registry);
      const id = servedTraceId(base.id, server.modelHash) + (menuKind === 'space' ? `.${label.replace(' ', '')}` : '');
      const known = store.getTrace(id);
      if (known) existing.push({ base, menu: tools, trace: known });
      else items.push({ base, menu: tools, id, label, batch: batchOf(i, list.length, batches) });
    }
  }
  return { items, existing, menuKind, batches };
}

export async function serveProject(store: ProjectStore, server: BenchServer, options: ServeProjectOptions = {}): Promise<ServeProjectResult> {
  const { items, existing: stored, menuKind, batches } = servePlan(store, server, options);
  const existing = stored.map((e) => e.trace);
  const total = items.length + existing.length;
  const served: ServedTrace[] = [];
  const source = `lots serve (${server.modelName}, ${menuKind}`;
  // What is written as one import: chunks of the requests in order, or each batch whole (every task's part b).
  const groups: Array<{ items: typeof items; source: string }> = [];
  if (batches === 1) {
    const chunk = Math.max(1, options.chunk ?? 50);
    for (let i = 0; i < items.length; i += chunk) groups.push({ items: items.slice(i, i + chunk), source: `${source})` });
  } else {
    // A "/" would cut the source at the History view's label (the source's base name): "batch 1 of 2".
    for (let b = 0; b < batches; b++) groups.push({ items: items.filter((p) => p.batch === b), source: `${source}, batch ${b + 1} of ${batches})` });
  }
  let written = 0;
  for (const group of groups) {
    if (group.items.length === 0) continue;
    const before = existing.length + served.length;
    const done = await server.serve(
      group.items.map((p) => ({ base: p.base, menu: p.menu, id: p.id, meta: { served: { menu: p.label } } })),
      { signal: options.signal, onProgress: (d) => options.onProgress?.(before + d, total) },
    );
    written += store.addTraces(
      done.map((d) => d.trace),
      group.source,
    ).added;
    served.push(...done);
  }
  if (items.length === 0) options.onProgress?.(total, total);
  const traces = [...existing, ...served.map((s) => s.trace)];
  return { traces, written, skipped: existing.length, byTask: summarize(traces) };
}

/** The batch (0-based) of request `index` of a task's `count` when they are split into `batches` consecutive parts. */
export function batchOf(index: number, count: number, batches: number): number {
  let b = 0;
  while (b + 1 < batches && index >= Math.ceil(((b + 1) * count) / batches)) b++;
  return b;
}

export function summarize(traces: readonly Trace[]): TaskServeSummary[] {
  const map = new Map<string, TaskServeSummary>();
  for (const t of traces) {
    const task = t.task ?? '(none)';
    const s = map.get(task) ?? { task, served: 0, correct: 0, promptTokens: 0 };
    s.served++;
    if (t.turns[0]!.correct) s.correct++;
    s.promptTokens += Number((t.meta?.served as { promptTokens?: number } | undefined)?.promptTokens ?? 0);
    map.set(task, s);
  }
  return [...map.values()].map((s) => ({ ...s, promptTokens: s.served ? s.promptTokens / s.served : 0 })).sort((a, b) => (a.task < b.task ? -1 : 1));
}

/** One stored reply served again (replayServed). */
export interface ReplayedReply {
  id: string;
  task: string;
  stored: string;
  fresh: string;
  storedCorrect: boolean;
  freshCorrect: boolean;
  /** The stored reply was served with the cache reused in whole batches (PREFIX_REUSE): it should come back
   * the same on the same engine and settings. One served before could differ at a near tie. */
  wholeBatch: boolean;
}

export interface ReplayResult {
  /** Stored replies served again. */
  replayed: number;
  /** Of them, the same reply byte for byte. */
  same: number;
  changed: ReplayedReply[];
  /** Right answers among the replayed, as stored and as served again. */
  storedCorrect: number;
  freshCorrect: number;
  /** Requests of the selection with no stored reply of this model (nothing to compare). */
  notServed: number;
}

/**
 * `lots serve --replay`: the replies this model already gave, served again the same way (same requests, same
 * menus) and compared byte for byte with what is stored; nothing is written. A greedy reply should come back
 * the same: one that does not says this machine, engine or settings do not reproduce the run (the mixed decode
 * batches of docs/benchmark.md, "Serving", changed 10 of 80 stored replies this way).
 */
export async function replayServed(store: ProjectStore, server: BenchServer, options: ServeProjectOptions = {}): Promise<ReplayResult> {
  const { items, existing } = servePlan(store, server, options);
  const fresh = await server.serve(
    existing.map((e) => ({ base: e.base, menu: e.menu, id: e.trace.id })),
    { signal: options.signal, onProgress: options.onProgress },
  );
  const reply = (t: Trace) => t.turns.map((u) => u.answer).join('\n');
  const changed: ReplayedReply[] = [];
  let storedCorrect = 0;
  let freshCorrect = 0;
  for (const [i, e] of existing.entries()) {
    const now = fresh[i]!.trace;
    const was = e.trace.turns[0]!.correct === true;
    const is = now.turns[0]!.correct === true;
    if (was) storedCorrect++;
    if (is) freshCorrect++;
    if (reply(now) !== reply(e.trace)) {
      const wholeBatch = (e.trace.meta?.served as { prefix?: string } | undefined)?.prefix === PREFIX_REUSE;
      changed.push({
        id: e.trace.id,
        task: e.trace.task ?? '(none)',
        stored: reply(e.trace),
        fresh: reply(now),
        storedCorrect: was,
        freshCorrect: is,
        wholeBatch,
      });
    }
  }
  return { replayed: existing.length, same: existing.length - changed.length, changed, storedCorrect, freshCorrect, notServed: items.length };
}

/** What a replay's changed replies can mean, one sentence each kind (nothing when none changed). */
export function replayCauses(changed: readonly ReplayedReply[]): string[] {
  const who = (n: number) => (n === changed.length ? (n === 1 ? 'it was' : 'all were') : `${n} of them ${n === 1 ? 'was' : 'were'}`);
  const before = changed.filter((c) => !c.wholeBatch).length;
  const since = changed.length - before;
  const lines: string[] = [];
  if (before > 0) {
    lines.push(
      `${who(before)} served before whole-batch prefix reuse (2026-12-07), when a sequence reused any prefix it shared with its last request, so a near tie could go either way; a changed digit there is not a fault (docs/benchmark.md, "Serving")`,
    );
  }
  if (since > 0) {
    lines.push(
      `${who(since)} served with whole-batch prefix reuse and should come back the same: another engine, machine or setting (--max-tokens) than the run's, or a fault (docs/benchmark.md, "Serving")`,
    );
  }
  return lines;
}
