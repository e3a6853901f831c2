// The router the gateway applies to a request that names no task: the project's tasks, each the centroid
// of its requests' hashed TF-IDF vectors (the embedding `lots route` clusters with by default), and a new
// request goes to the nearest centroid — unless it is less similar to it than the threshold chosen from
// the project's own requests (shared/routing/nearest-task.ts): then it is unrouted, passed through whole.
import { requestEmbedder } from '../routing/embed';
import { fitNearestTask, type RouteDecision, type RouteThreshold } from '../routing/nearest-task';

export interface TaskSample {
  task: string;
  text: string;
}

export interface TaskRouter {
  (text: string): RouteDecision;
  threshold: RouteThreshold;
}

/** Undefined when there is nothing to route to (no samples); `threshold` overrides the one the data gives. */
export function fitTaskRouter(samples: readonly TaskSample[], threshold?: number): TaskRouter | undefined {
  if (samples.length === 0) return undefined;
  const embed = requestEmbedder(samples.map((s) => s.text));
  const router = fitNearestTask(
    samples.map((s) => ({ task: s.task, vector: embed(s.text) })),
    threshold,
  )!;
  return Object.assign((text: string) => router.route(embed(text)), { threshold: router.threshold });
}
