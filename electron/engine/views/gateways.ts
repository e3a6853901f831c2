// The Gateway view's data: every gateway that served the project, read from its status record
// (gateways/<session>.json) with whether it still serves — a record left "running" by a gateway that was
// killed is lost once its pid is gone (checked on its own machine only) or its heartbeat stale — and, per
// task, the batches the gateways committed into the project and where each stands for `lots update`
// (folded, ready, waiting for scores, an MCP audit, without a task). Reads only.
import { hostname } from 'node:os';
import { UNROUTED } from '../../../shared/lots/aggregate';
import type { GatewayBatch, GatewayFoldTask, GatewayInfo, GatewayTotals, GatewayViewData } from '../../../shared/api/gateways';
import { gatewayLiveness, type GatewayKind, type GatewayStatus } from '../../../shared/project/gateways';
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
  const gateways = records
    .map((r) => gatewayInfo(r, gatewayLiveness(r, now, r.state === 'stopped' ? undefined : alive(r))))
    .sort((a, b) => ORDER[a.status] - ORDER[b.status] || b.startedAt.localeCompare(a.startedAt));
  return { checkedAt: now.toISOString(), gateways, fold: foldTasks(store, index, records) };
}

function gatewayInfo(r: GatewayStatus, status: GatewayInfo['status']): GatewayInfo {
  const totals: GatewayTotals = { requests: 0, noSpace: 0, toolsHidden: 0, tokensSaved: 0, promptTokens: 0, failed: 0 };
  for (const t of r.tasks) for (const k of Object.keys(totals) as (keyof GatewayTotals)[]) totals[k] += t[k];
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
    bySource: r.bySource,
    tasks: r.tasks,
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
