// What a gateway reads from its project while serving: the tasks it knows, each task's approved space
// (its latest accepted version) and the project's router. Reads never take the lock (docs/CONVENTIONS.md
// §5), so serving never waits for a writer; what was read is kept a few seconds, so a space approved in
// the Studio reaches the gateway without a restart and a request costs no file read.
import { fitTaskRouter, type TaskRouter } from '../../../shared/gateway/task-router';
import { requestText } from '../../../shared/routing/route';
import type { SpaceVersion } from '../../../shared/project/spaces';
import type { ProjectStore } from '../store';

export interface ViewOptions {
  /** How long what was read is used before it is read again (default 5 s). */
  refreshMs?: number;
  /** Requests the router is fitted on at most (default 5000, the latest of each task first kept). */
  routerSamples?: number;
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
      const latest = s.versions.at(-1);
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
   * it sends a request to the nearest task of the project's requests. Fitted again when the project's
   * traces change.
   */
  router(): TaskRouter | undefined {
    this.fresh();
    if (Object.keys(this.store.readRoutes()).length === 0) return undefined;
    const count = this.store.traceCount;
    if (this.routerFor?.traces === count) return this.routerFor.router;
    const max = this.options.routerSamples ?? 5000;
    const samples: { task: string; text: string }[] = [];
    for (const trace of this.store.iterTraces((t) => t.task !== undefined)) {
      samples.push({ task: trace.task!, text: requestText(trace) });
      if (samples.length > max) samples.shift();
    }
    const router = fitTaskRouter(samples);
    this.routerFor = { traces: count, router };
    return router;
  }
}
