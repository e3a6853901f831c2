// `lots serve`: a model answers a project's benchmark requests, under the whole registry (each
// request's recorded menu) or under its task's current space; the served traces (answer, correctness,
// prompt tokens) are added to the project. A request already served the same way is skipped, so an
// interrupted run resumes.
import { registryNames } from '../../../shared/benchmark/registry';
import { readBenchMeta } from '../../../shared/benchmark/trace';
import type { Trace } from '../../../shared/trace/schema';

import type { ProjectStore } from '../store/project-store';
import { benchRequests, servedTraceId } from './project';
import type { BenchServer, ServedTrace } from './server';
import { ExpectedError } from '../../../shared/api/errors';

export type ServeMenu = 'registry' | 'space';
export type ServeSplit = 'fit' | 'eval' | 'all';

export interface ServeProjectOptions {
  tasks?: readonly string[];
  split?: ServeSplit;
  menu?: ServeMenu;
  /** Served traces are written in chunks of this many (what an interruption can lose). */
  chunk?: number;
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

export async function serveProject(store: ProjectStore, server: BenchServer, options: ServeProjectOptions = {}): Promise<ServeProjectResult> {
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
  const items: Array<{ base: Trace; menu: string[]; id: string; label: string }> = [];
  const existing: Trace[] = [];
  for (const [task, requests] of byTask) {
    if (wanted && !wanted.has(task)) continue;
    let menu: string[] | undefined;
    let label = 'registry';
    if (menuKind === 'space') {
      const latest = store.readSpaces(task).versions.at(-1);
      if (!latest) throw new ExpectedError('NOT_FOUND', `task "${task}" has no accepted space yet; serve under the registry, score, and fit or evaluate first`);
      menu = latest.tools;
      label = `space v${latest.version}`;
    }
    const list = split === 'all' ? [...requests.fit, ...requests.eval] : requests[split];
    for (const base of list) {
      const meta = readBenchMeta(base);
      const tools = menu ?? registryNames(meta.seed, meta.registry);
      const id = servedTraceId(base.id, server.modelHash) + (menuKind === 'space' ? `.${label.replace(' ', '')}` : '');
      const known = store.getTrace(id);
      if (known) existing.push(known);
      else items.push({ base, menu: tools, id, label });
    }
  }
  const total = items.length + existing.length;
  const served: ServedTrace[] = [];
  const chunk = Math.max(1, options.chunk ?? 50);
  let written = 0;
  for (let i = 0; i < items.length; i += chunk) {
    const part = items.slice(i, i + chunk);
    const done = await server.serve(
      part.map((p) => ({ base: p.base, menu: p.menu, id: p.id, meta: { served: { menu: p.label } } })),
      { signal: options.signal, onProgress: (d) => options.onProgress?.(existing.length + i + d, total) },
    );
    written += store.addTraces(
      done.map((d) => d.trace),
      `lots serve (${server.modelName}, ${menuKind})`,
    ).added;
    served.push(...done);
  }
  if (items.length === 0) options.onProgress?.(total, total);
  const traces = [...existing, ...served.map((s) => s.trace)];
  return { traces, written, skipped: existing.length, byTask: summarize(traces) };
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
