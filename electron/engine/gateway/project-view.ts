// What a gateway reads from its project while serving: the tasks it knows, each task's approved space
// (its latest accepted version) and the project's router. Reads never take the lock (docs/CONVENTIONS.md
// §5), so serving never waits for a writer; what was read is kept a few seconds, so a space approved in
// the Studio reaches the gateway without a restart and a request costs no file read.
import type { GatewayStats, TaskSource } from '../../../shared/gateway/stats';
import type { TaskRouter } from '../../../shared/gateway/task-router';
import { fitProjectRouter } from '../routing/request-router';
import type { SpaceVersion } from '../../../shared/project/spaces';
import { approvedIn } from '../read-model/approved-space';
import type { ProjectStore } from '../store';

export interface ViewOptions {
  /** How long what was read is used before it is read again (default 5 s). */
  refreshMs?: number;
  /** Requests the router is fitted on at most (default 5000, the latest of each task first kept). */
  routerSamples?: number;
  /** --route-threshold: the similarity under which a request is unrouted, instead of the one the project's data gives. */
  routeThreshold?: number;
  now?: () => number;
}

export class ProjectView {
  private readAt = -Infinity;
  private knownTasks = new Set<string>();
  private spaces = new Map<string, SpaceVersion>();
  private routerFor?: { traces: number; router: TaskRouter | undefined };

  constructor(
    readonly store: ProjectStore,
    private readonly options: ViewOptions = {},
  ) {}

  private now(): number {
    return this.options.now?.() ?? Date.now();
  }

  private fresh(): void {
    const now = this.now();
    if (now - this.readAt < (this.options.refreshMs ?? 5000)) return;
    this.readAt = now;
    this.store.refresh();
    const tasks = new Set<string>();
    for (const task of this.store.traceTasks().values()) if (task !== undefined) tasks.add(task);
    const spaces = new Map<string, SpaceVersion>();
    for (const s of this.store.listSpaces()) {
      tasks.add(s.task);
      const latest = approvedIn(s);
      if (latest) spaces.set(s.task, latest);
    }
    this.knownTasks = tasks;
    this.spaces = spaces;
  }

  tasks(): string[] {
    this.fresh();
    return [...this.knownTasks].sort();
  }

  knows(task: string): boolean {
    this.fresh();
    return this.knownTasks.has(task);
  }

  /** The task's approved space: its latest accepted version, undefined when none was accepted. */
  space(task: string): SpaceVersion | undefined {
    this.fresh();
    return this.spaces.get(task);
  }

  /**
   * The project's router: there is one once `lots route` has routed the project (its routes are stored);
   * it sends a request to the nearest task of the project's requests, or leaves it unrouted under the
   * threshold (electron/engine/routing/request-router.ts). Fitted again when the project's traces change.
   */
  router(): TaskRouter | undefined {
    this.fresh();
    if (Object.keys(this.store.readRoutes()).length === 0) return undefined;
    const count = this.store.traceCount;
    if (this.routerFor?.traces === count) return this.routerFor.router;
    const router = fitProjectRouter(this.store, {
      maxSamples: this.options.routerSamples ?? 5000,
      ...(this.options.routeThreshold !== undefined ? { threshold: this.options.routeThreshold } : {}),
    });
    this.routerFor = { traces: count, router };
    return router;
  }

  /**
   * The task the router gives a request that named none. An unrouted request (under the threshold) has
   * no task: it is passed through whole, counted and listed in `stats` (the status record), and its
   * recorded trace, without a task, is there for `lots route` to make a task of.
   */
  route(text: string, stats: GatewayStats): { task?: string; source: TaskSource } {
    const router = this.router();
    if (!router) return { source: 'none' };
    const decision = router(text);
    if (decision.task !== undefined) return { task: decision.task, source: 'router' };
    stats.unrouted({ text, nearest: decision.nearest, similarity: decision.similarity, threshold: decision.threshold });
    return { source: 'router' };
  }
}
