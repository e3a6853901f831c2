// The project's request router as a gateway applies it: fitted on the requests of the project's traces
// that have a task (a label, or a route `lots route` stored), the latest `maxSamples` kept, each request's
// text embedded by hashed TF-IDF (shared/gateway/task-router.ts), with the threshold under which a request
// is unrouted (shared/routing/nearest-task.ts): the one the data gives, or the operator's. Traces without
// a request text (an MCP gateway's calls) are left out: they say nothing about what a task's requests say.
import { fitTaskRouter, type TaskRouter, type TaskSample } from '../../../shared/gateway/task-router';
import { requestText } from '../../../shared/routing/route';
import type { ProjectStore } from '../store';

export interface ProjectRouterOptions {
  /** Requests the router is fitted on at most (the latest kept). */
  maxSamples: number;
  /** --route-threshold: the operator's threshold instead of the data's. */
  threshold?: number;
}

/** Undefined when the project has no request with a task. Reads one trace at a time. */
export function fitProjectRouter(store: ProjectStore, options: ProjectRouterOptions): TaskRouter | undefined {
  const samples: TaskSample[] = [];
  for (const trace of store.iterTraces((t) => t.task !== undefined)) {
    const text = requestText(trace);
    if (text.trim() === '') continue;
    samples.push({ task: trace.task!, text });
    if (samples.length > options.maxSamples) samples.shift();
  }
  return fitTaskRouter(samples, options.threshold);
}
