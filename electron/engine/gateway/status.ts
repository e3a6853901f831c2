// A gateway's status record in its project (gateways/<session>.json, shared/project/gateways.ts): the
// Studio runs in another process and learns about running gateways only from the project folder. The
// record is rewritten every heartbeat, soon after a request is counted (once per SOON_MS however busy
// the gateway is), after each commit of the batch, when the gateway starts stopping and when it has
// stopped; a gateway that is killed leaves it "running", and the Studio reads it as lost once the pid is
// gone or the heartbeat stale. A failed write never stops serving: it is said once per
// distinct error, and the next beat tries again.
import { hostname } from 'node:os';
import { basename } from 'node:path';
import { GATEWAY_HEARTBEAT_MS, type GatewayKind, type GatewayStatus } from '../../../shared/project/gateways';
import { NO_TASK, type GatewayStats } from '../../../shared/gateway/stats';
import type { ProjectStore } from '../store';
import { isStillProject, type TraceRecorder } from './recorder';

/** How soon after a counted request the record is rewritten. */
const SOON_MS = 500;

export interface StatusIdentity {
  /** The gateway's session. */
  id: string;
  kind: GatewayKind;
  transport: 'http' | 'stdio';
  url: string;
  /** Already without credentials (publicUpstream, or an MCP command's name). */
  upstream: string;
  task?: string;
}

export interface StatusSources {
  stats: GatewayStats;
  recorder: TraceRecorder;
  /** Answers that called tools and wait for their continuation (OpenAI). */
  open?: () => number;
  /** Requests passed through as they were, not chat (OpenAI). */
  passedThrough?: () => number;
}

export interface StatusOptions {
  heartbeatMs?: number;
  now?: () => Date;
  log?: (line: string) => void;
}

export class GatewayStatusWriter {
  private timer: NodeJS.Timeout | undefined;
  private soonTimer: NodeJS.Timeout | undefined;
  private state: GatewayStatus['state'] = 'running';
  private readonly startedAt: string;
  private stoppedAt: string | undefined;
  private lastError = '';
  private failure: string | undefined;
  private upstreamFailures: { count: number; restarts: number; last: string; at: string } | undefined;
  private readonly heartbeatMs: number;

  constructor(
    private readonly store: ProjectStore,
    private readonly identity: StatusIdentity,
    private readonly sources: StatusSources,
    private readonly options: StatusOptions = {},
  ) {
    this.heartbeatMs = options.heartbeatMs ?? GATEWAY_HEARTBEAT_MS;
    this.startedAt = this.now().toISOString();
  }

  private now(): Date {
    return this.options.now?.() ?? new Date();
  }

  /** Write the first record and keep it fresh until stopped. */
  start(): void {
    this.beat();
    this.timer = setInterval(() => this.beat(), this.heartbeatMs);
    this.timer.unref();
    this.sources.stats.onChange = () => this.soon();
  }

  /** A beat shortly (one for however many requests come meanwhile). */
  private soon(): void {
    if (this.soonTimer || this.state === 'stopped') return;
    this.soonTimer = setTimeout(
      () => {
        this.soonTimer = undefined;
        if (this.state !== 'stopped') this.beat();
      },
      Math.min(SOON_MS, this.heartbeatMs),
    );
    this.soonTimer.unref();
  }

  /** The record as it stands now. */
  snapshot(): GatewayStatus {
    const { stats, recorder } = this.sources;
    const now = this.now().toISOString();
    return {
      v: 1,
      ...this.identity,
      pid: process.pid,
      hostname: hostname(),
      startedAt: this.startedAt,
      updatedAt: now,
      heartbeatMs: this.heartbeatMs,
      state: this.state,
      ...(this.stoppedAt ? { stoppedAt: this.stoppedAt } : {}),
      ...(this.failure !== undefined ? { failure: this.failure } : {}),
      ...(this.upstreamFailures ? { upstreamFailures: { ...this.upstreamFailures } } : {}),
      refused: stats.refused,
      ...(stats.unroutedCount ? { unrouted: { count: stats.unroutedCount, recent: stats.unroutedRecent.map((u) => ({ ...u })) } } : {}),
      ...(this.sources.passedThrough ? { passedThrough: this.sources.passedThrough() } : {}),
      bySource: { ...stats.bySource },
      tasks: [...stats.tasks]
        // Most requests first; the requests without a task after the tasks they tie with.
        .sort((a, b) => b[1].requests - a[1].requests || Number(a[0] === NO_TASK) - Number(b[0] === NO_TASK) || a[0].localeCompare(b[0]))
        .map(([task, c]) => ({
          task: task === NO_TASK ? null : task,
          requests: c.requests,
          noSpace: c.noSpace,
          toolsHidden: c.toolsHidden,
          tokensSaved: c.tokensSaved,
          promptTokens: c.promptTokens,
          failed: c.failed,
          ...(c.spaceVersion !== undefined ? { spaceVersion: c.spaceVersion } : {}),
        })),
      batch: {
        source: `gateway-${this.identity.kind}-${this.identity.id}`,
        recorded: stats.recorded,
        queued: recorder.pending,
        open: this.sources.open?.() ?? 0,
        committed: recorder.committed,
        files: recorder.files.map((f) => basename(f)),
        ...(recorder.lastCommitAt ? { lastCommitAt: recorder.lastCommitAt } : {}),
        ...(recorder.recovered ? { recovered: recorder.recovered } : {}),
      },
    };
  }

  /** Rewrite the record now (the heartbeat, a commit). */
  beat(): void {
    // A project folder moved or removed while serving: writing there would make a stray folder that is no project.
    if (!isStillProject(this.store)) {
      const message = `the project folder ${this.store.dir} is no longer a project (moved or removed?): its status is not written there`;
      if (message !== this.lastError) this.options.log?.(`gateway: ${message}; serving goes on`);
      this.lastError = message;
      return;
    }
    try {
      this.store.writeGateway(this.snapshot());
      this.lastError = '';
    } catch (e) {
      const message = e instanceof Error ? e.message : String(e);
      if (message !== this.lastError) this.options.log?.(`gateway: could not write its status into the project (${message}); serving goes on`);
      this.lastError = message;
    }
  }

  /** Finishing the requests in flight and committing the batch. */
  stopping(): void {
    this.state = 'stopping';
    this.beat();
  }

  /** The upstream failed (MCP: its server process ended): counted and said in the record at once. */
  upstreamFailed(reason: string): void {
    const f = (this.upstreamFailures ??= { count: 0, restarts: 0, last: '', at: '' });
    f.count++;
    f.last = reason;
    f.at = this.now().toISOString();
    this.beat();
  }

  /** The failed upstream was started again (MCP over --http). */
  upstreamRestarted(): void {
    if (this.upstreamFailures) this.upstreamFailures.restarts++;
    this.beat();
  }

  /** Stopped: the last record, and no more beats; `failure` when it stopped because something failed. */
  stopped(failure?: string): void {
    if (failure !== undefined) this.failure = failure;
    clearInterval(this.timer);
    clearTimeout(this.soonTimer);
    this.timer = this.soonTimer = undefined;
    this.sources.stats.onChange = undefined;
    this.state = 'stopped';
    this.stoppedAt = this.now().toISOString();
    this.beat();
  }
}
