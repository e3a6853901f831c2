// The Gateway view's data: every gateway that served the project, read from its status record
// (gateways/<session>.json) with whether it still serves — a record left "running" by a gateway that was
// killed is lost once its pid is gone (checked on its own machine only) or its heartbeat stale — and, per
// task, the batches the gateways committed into the project and where each stands for `lots update`
// (folded, ready, waiting for scores, an MCP audit, without a task). Per task it adds the three states of
// the space version served (pinned / deferred / hidden against the task's known menu) and, from the traces
// the gateway recorded (committed, and its journal of those not committed yet), the deferred tools the
// agent called anyway ("called while deferred": `meta.gateway.calledWhileDeferred`). Reads only.
import { readFileSync, statSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { UNROUTED } from '../../../shared/lots/aggregate';
import type {
  GatewayBatch,
  GatewayDeferredCall,
  GatewayFoldTask,
  GatewayInfo,
  GatewaySpaceStates,
  GatewayTaskRow,
  GatewayTotals,
  GatewayViewData,
} from '../../../shared/api/gateways';
import { gatewayLiveness, type GatewayKind, type GatewayStatus } from '../../../shared/project/gateways';
import type { Trace } from '../../../shared/trace/schema';
import { approvedSpace } from '../read-model/approved-space';
import type { ProjectIndex } from '../read-model/project-index';
import type { ReadOnlyProjectStore } from '../store';
import { processAlive } from '../store/lock';

export interface GatewayViewOptions {
  now?: Date;
  /** Whether a record's process is alive; undefined when that cannot be known (another machine). */
  alive?: (record: GatewayStatus) => boolean | undefined;
}

const ORDER = { running: 0, lost: 1, stopped: 2 } as const;

export function buildGatewayView(store: ReadOnlyProjectStore, index: ProjectIndex, options: GatewayViewOptions = {}): GatewayViewData {
  const now = options.now ?? new Date();
  const here = hostname();
  const alive = options.alive ?? ((r: GatewayStatus) => (r.hostname === here ? r.pid === process.pid || processAlive(r.pid) : undefined));
  const records = store.listGateways();
  const liveness = new Map(records.map((r) => [r.id, gatewayLiveness(r, now, r.state === 'stopped' ? undefined : alive(r))]));
  // What other processes wrote (a gateway's commit) is read before the recorded traces are: otherwise a batch
  // just committed, and trimmed from its journal, would be missing from this read.
  if (records.some((r) => r.batch.files.length > 0)) index.sync();
  const recorded = recordedBySession(store, records, liveness);
  const states = spaceStates(store, index);
  const gateways = records
    .map((r) => gatewayInfo(r, liveness.get(r.id)!, recorded.get(r.id), states))
    .sort((a, b) => ORDER[a.status] - ORDER[b.status] || b.startedAt.localeCompare(a.startedAt));
  return { checkedAt: now.toISOString(), gateways, fold: foldTasks(store, index, records) };
}

function gatewayInfo(
  r: GatewayStatus,
  status: GatewayInfo['status'],
  recorded: Map<string, TaskDeferrals> | undefined,
  states: (task: string, version: number) => GatewaySpaceStates | undefined,
): GatewayInfo {
  const totals: GatewayTotals = { requests: 0, noSpace: 0, toolsHidden: 0, tokensSaved: 0, promptTokens: 0, failed: 0 };
  for (const t of r.tasks) for (const k of Object.keys(totals) as (keyof GatewayTotals)[]) totals[k] += t[k];
  const tasks: GatewayTaskRow[] = r.tasks.map((t) => {
    const d = recorded?.get(t.task ?? UNROUTED);
    const s = t.task !== null && t.spaceVersion !== undefined ? states(t.task, t.spaceVersion) : undefined;
    return {
      ...t,
      ...(s ? { states: s } : {}),
      ...(d
        ? {
            recorded: d.traces,
            deferredServed: d.deferredServed,
            calledWhileDeferred: [...d.called]
              .map(([tool, traces]): GatewayDeferredCall => ({ tool, traces }))
              .sort((a, b) => b.traces - a.traces || a.tool.localeCompare(b.tool)),
          }
        : {}),
    };
  });
  const failures = r.upstreamFailures ?? null;
  return {
    id: r.id,
    kind: r.kind,
    transport: r.transport,
    url: r.url,
    upstream: r.upstream,
    task: r.task ?? null,
    pid: r.pid,
    hostname: r.hostname,
    startedAt: r.startedAt,
    updatedAt: r.updatedAt,
    stoppedAt: r.stoppedAt ?? null,
    heartbeatMs: r.heartbeatMs,
    status,
    stopping: status === 'running' && r.state === 'stopping',
    refused: r.refused,
    failure: r.failure ?? null,
    upstreamFailures: failures,
    // Failed and not started again: an MCP gateway over --http between a crash and its restart, or one
    // that gave up (it then stops with a failure). Never shown as simply "running".
    upstreamDown: failures !== null && failures.count > failures.restarts,
    unrouted: r.unrouted ?? null,
    passedThrough: r.passedThrough ?? (r.kind === 'openai' ? 0 : null),
    bySource: r.bySource,
    tasks,
    calledWhileDeferred: [...(recorded?.values() ?? [])].reduce((n, d) => n + d.calledTraces, 0),
    totals,
    batch: r.batch,
  };
}

/** Per task, the gateway batches holding its traces, scored and folded as `lots update` sees them. */
function foldTasks(store: ReadOnlyProjectStore, index: ProjectIndex, records: GatewayStatus[]): GatewayFoldTask[] {
  const byFile = new Map<string, { kind: GatewayKind; gateway: string }>();
  for (const r of records) for (const file of r.batch.files) byFile.set(file, { kind: r.kind, gateway: r.id });
  if (byFile.size === 0) return [];
  index.sync();
  // task → file → trace ids, in import order.
  const tasks = new Map<string, Map<string, string[]>>();
  for (const info of store.traceInfos()) {
    if (!byFile.has(info.file)) continue;
    const task = info.task ?? UNROUTED;
    let files = tasks.get(task);
    if (!files) tasks.set(task, (files = new Map<string, string[]>()));
    let ids = files.get(info.file);
    if (!ids) files.set(info.file, (ids = []));
    ids.push(info.id);
  }
  const out: GatewayFoldTask[] = [];
  for (const [task, files] of [...tasks].sort((a, b) => a[0].localeCompare(b[0]))) {
    const updates = store.readUpdates(task);
    const folded = new Set(updates?.batches.map((b) => b.source) ?? []);
    const data = index.task(task, undefined, updates?.run);
    const batches: GatewayBatch[] = [...files]
      .sort((a, b) => a[0].localeCompare(b[0]))
      .map(([file, ids]) => {
        const from = byFile.get(file)!;
        const scored = ids.filter((id) => data.rowByTrace.has(id)).length;
        const state: GatewayBatch['state'] =
          task === UNROUTED
            ? 'unrouted'
            : folded.has(file)
              ? 'folded'
              : from.kind === 'mcp' && scored === 0
                ? 'audit'
                : scored > 0 && data.run !== null
                  ? 'ready'
                  : 'unscored';
        return { file, kind: from.kind, gateway: from.gateway, traces: ids.length, scored, state };
      });
    out.push({
      task,
      batches,
      traces: batches.reduce((n, b) => n + b.traces, 0),
      scored: batches.reduce((n, b) => n + b.scored, 0),
      hasScores: data.run !== null,
      ready: batches.filter((b) => b.state === 'ready').length,
      approvedVersion: approvedSpace(store, task)?.version ?? null,
      lastFold: updates?.batches.at(-1)?.batch ?? null,
    });
  }
  return out;
}

/** What a gateway's recorded traces of one task say about its deferred tools. */
interface TaskDeferrals {
  traces: number;
  /** Traces served with at least one deferred tool. */
  deferredServed: number;
  /** Traces whose answers called a deferred tool. */
  calledTraces: number;
  /** Deferred tool → traces that called it. */
  called: Map<string, number>;
}

/** One recorded trace, as far as the view needs it. */
interface RecordedTrace {
  id: string;
  session: string;
  task: string;
  deferred: number;
  called: string[];
}

function recordedOf(t: Trace): RecordedTrace | undefined {
  const g = t.meta?.gateway;
  if (typeof g !== 'object' || g === null) return undefined;
  const m = g as Record<string, unknown>;
  if (typeof m.session !== 'string') return undefined;
  const names = (v: unknown): string[] => (Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : []);
  return { id: t.id, session: m.session, task: t.task ?? UNROUTED, deferred: names(m.deferred).length, called: [...new Set(names(m.calledWhileDeferred))] };
}

/** Per project directory and file: the recorded traces of a committed trace file (never rewritten) or a journal (by size and time). */
const recordedCache = new Map<string, { stamp: string; traces: RecordedTrace[] }>();

function cached(key: string, stamp: string, read: () => RecordedTrace[]): RecordedTrace[] {
  const hit = recordedCache.get(key);
  if (hit && hit.stamp === stamp) return hit.traces;
  const traces = read();
  recordedCache.set(key, { stamp, traces });
  if (recordedCache.size > 512) recordedCache.delete(recordedCache.keys().next().value!);
  return traces;
}

/**
 * Per gateway session, per task: its recorded traces (the batch files its records name, and the journal
 * of a gateway not stopped, gateways/<source>.jsonl, whose last line of an id wins), counted by id once.
 */
function recordedBySession(
  store: ReadOnlyProjectStore,
  records: GatewayStatus[],
  liveness: Map<string, GatewayInfo['status']>,
): Map<string, Map<string, TaskDeferrals>> {
  const byId = new Map<string, RecordedTrace>();
  const files = new Set(records.flatMap((r) => r.batch.files));
  if (files.size > 0) {
    const counts = new Map<string, number>();
    for (const info of store.traceInfos()) if (files.has(info.file)) counts.set(info.file, (counts.get(info.file) ?? 0) + 1);
    for (const [file, n] of counts) {
      const traces = cached(`${store.dir}\u0000${file}`, String(n), () => {
        const out: RecordedTrace[] = [];
        for (const t of store.iterTraces((info) => info.file === file)) {
          const r = recordedOf(t);
          if (r) out.push(r);
        }
        return out;
      });
      for (const t of traces) byId.set(t.id, t);
    }
  }
  for (const r of records) {
    if (r.state === 'stopped' || liveness.get(r.id) === 'stopped') continue;
    for (const t of journalTraces(join(store.dir, 'gateways', `${r.batch.source}.jsonl`))) byId.set(t.id, t);
  }
  const out = new Map<string, Map<string, TaskDeferrals>>();
  for (const t of byId.values()) {
    let tasks = out.get(t.session);
    if (!tasks) out.set(t.session, (tasks = new Map<string, TaskDeferrals>()));
    let d = tasks.get(t.task);
    if (!d) tasks.set(t.task, (d = { traces: 0, deferredServed: 0, calledTraces: 0, called: new Map() }));
    d.traces++;
    if (t.deferred > 0) d.deferredServed++;
    if (t.called.length > 0) d.calledTraces++;
    for (const tool of t.called) d.called.set(tool, (d.called.get(tool) ?? 0) + 1);
  }
  return out;
}

/** A journal's traces (native JSONL, fsynced per trace); a torn last line is skipped, as its recovery does. */
function journalTraces(path: string): RecordedTrace[] {
  let stamp: string;
  try {
    const st = statSync(path);
    stamp = `${st.size}:${st.mtimeMs}`;
  } catch {
    return [];
  }
  return cached(path, stamp, () => {
    let text: string;
    try {
      text = readFileSync(path, 'utf8');
    } catch {
      return [];
    }
    const byId = new Map<string, RecordedTrace>();
    for (const line of text.split('\n')) {
      if (!line.trim()) continue;
      try {
        const r = recordedOf(JSON.parse(line) as Trace);
        if (r) byId.set(r.id, r);
      } catch {
        // A line torn by a kill: the recovery counts it as lost; here it is just not shown.
      }
    }
    return [...byId.values()];
  });
}

/** The states of a task's space version against the task's known menu (every tool its traces offered). */
function spaceStates(store: ReadOnlyProjectStore, index: ProjectIndex): (task: string, version: number) => GatewaySpaceStates | undefined {
  let known: Set<string> | undefined;
  return (task, version) => {
    const v = store.readSpaces(task).versions.find((x) => x.version === version);
    if (!v) return undefined;
    if (!known) {
      index.sync();
      known = new Set(index.tasks());
    }
    const menu = known.has(task) ? [...index.task(task).menu.keys()] : [];
    const shown = new Set([...v.tools, ...v.deferred]);
    return { version, pinned: v.tools.length, deferred: v.deferred.length, hidden: menu.filter((t) => !shown.has(t)).length };
  };
}
