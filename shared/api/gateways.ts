// What the Studio's Gateway view shows (electron/engine/views/gateways.ts builds it): the gateways that
// served the project, from their status records (shared/project/gateways.ts) with whether each still
// serves, and per task the batches they recorded and how far `lots update` has folded them.
import type { TaskCounts } from '../gateway/stats';
import type { GatewayKind, GatewayLiveness, GatewayStatus, GatewayTaskCounts } from '../project/gateways';

/** A gateway's counts summed over its tasks: the per-task counts without the space version. */
export type GatewayTotals = Omit<TaskCounts, 'spaceVersion'>;

/** The three states of the space version a task was served with (shared/project/spaces.ts). */
export interface GatewaySpaceStates {
  version: number;
  /** Documented in full, loaded up front. */
  pinned: number;
  /** Callable, not loaded up front (the gateway's --deferred form). */
  deferred: number;
  /** Not offered: the task's other known tools. */
  hidden: number;
}

/** A deferred tool the agent called anyway (it stays callable), and in how many recorded traces. */
export interface GatewayDeferredCall {
  tool: string;
  traces: number;
}

/**
 * A task's row on a gateway: the counts of its status record, the states of the space it was served
 * with, and what its recorded traces say about the deferred tools (committed traces and the gateway's
 * journal of those not committed yet; `meta.gateway.deferred` / `calledWhileDeferred`).
 */
export type GatewayTaskRow = GatewayTaskCounts & {
  /** The states of version `spaceVersion` against the task's known menu; absent without a space. */
  states?: GatewaySpaceStates;
  /** Recorded traces of this task by this gateway, and those served with deferred tools. */
  recorded?: number;
  deferredServed?: number;
  /** Deferred tools the answers called, most traces first. */
  calledWhileDeferred?: GatewayDeferredCall[];
};

export interface GatewayInfo {
  id: string;
  kind: GatewayKind;
  transport: 'http' | 'stdio';
  url: string;
  upstream: string;
  /** The MCP gateway's task; null for the OpenAI gateway (a task per request). */
  task: string | null;
  pid: number;
  hostname: string;
  startedAt: string;
  /** When its record was last rewritten: the last time it was seen. */
  updatedAt: string;
  stoppedAt: string | null;
  heartbeatMs: number;
  /** running; stopped (it said so); lost (killed: its process is gone or its heartbeat stale). */
  status: GatewayLiveness;
  /** Running, but finishing its requests and committing its batch. */
  stopping: boolean;
  refused: number;
  /** Why it stopped when nobody stopped it (MCP: its upstream server failed); null otherwise. */
  failure: string | null;
  /** MCP: the upstream server's failures while serving (count, restarts that followed, the last reason and time); null when none. */
  upstreamFailures: NonNullable<GatewayStatus['upstreamFailures']> | null;
  /** Whether the upstream failed and was not started again (yet): the gateway cannot serve. */
  upstreamDown: boolean;
  /** OpenAI: requests under the router's threshold, passed through whole (the count and the latest 20); null when none. */
  unrouted: NonNullable<GatewayStatus['unrouted']> | null;
  /** OpenAI: requests passed through as they were (not chat: nothing cut or recorded); null for the MCP gateway. */
  passedThrough: number | null;
  bySource: GatewayStatus['bySource'];
  /** Most requests first. */
  tasks: GatewayTaskRow[];
  /** Calls to deferred tools over its tasks (recorded traces that called one). */
  calledWhileDeferred: number;
  totals: GatewayTotals;
  batch: GatewayStatus['batch'];
}

/** Where a recorded batch stands for `lots update`. */
export type GatewayBatchState =
  /** Folded into the task's running scores. */
  | 'folded'
  /** Scored and not folded: the fold takes it. */
  | 'ready'
  /** No score rows yet: score the project first. */
  | 'unscored'
  /** MCP calls without a request or answer: an audit, which the update leaves aside. */
  | 'audit'
  /** Traces without a task: route the project first (`lots route`). */
  | 'unrouted';

export interface GatewayBatch {
  /** The project's trace file (`0004.jsonl`). */
  file: string;
  kind: GatewayKind;
  /** The gateway session that recorded it. */
  gateway: string;
  traces: number;
  scored: number;
  state: GatewayBatchState;
}

export interface GatewayFoldTask {
  task: string;
  /** The task's traces in gateway batches, in import order. */
  batches: GatewayBatch[];
  traces: number;
  scored: number;
  /** Whether the task has a scoring run (`lots update` needs one). */
  hasScores: boolean;
  /** Batches the fold would take now. */
  ready: number;
  approvedVersion: number | null;
  /** The batch number of the task's latest fold (null before the first). */
  lastFold: number | null;
}

export interface GatewayViewData {
  /** When the records were read. */
  checkedAt: string;
  /** Running first, then lost, then stopped; newest first within each. */
  gateways: GatewayInfo[];
  /** Per task with traces in gateway batches. */
  fold: GatewayFoldTask[];
}
