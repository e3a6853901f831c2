// Route requests without a task label to tasks (paper D.1). Labelled requests keep their label.
import type { Trace } from '../trace/schema';
import { embedRequests } from './embed';
import { clusterBySilhouette, kMeans, thresholdRoute, type Clustering } from './cluster';

export type RoutingMethod = { kind: 'kmeans'; k: number } | { kind: 'silhouette'; maxK?: number } | { kind: 'threshold'; tau: number };

export interface RoutingResult {
  /** trace id → routed task name (`cluster-01`, …) for traces that had no task. */
  routes: Record<string, string>;
  clusters: number;
  silhouette: number;
  /** A few example requests per routed task, for the operator to name it. */
  examples: Record<string, string[]>;
}

export function requestText(trace: Trace): string {
  return trace.turns.map((t) => t.request).join('\n');
}

/** What routing needs of an unlabelled request: its id and its text (`requestText`), not the whole trace. */
export interface UnlabelledRequest {
  id: string;
  text: string;
}

export function routeUnlabelled(traces: readonly Trace[], method: RoutingMethod = { kind: 'silhouette' }, seed = 1): RoutingResult {
  return routeRequests(
    traces.filter((t) => !t.task).map((t) => ({ id: t.id, text: requestText(t) })),
    method,
    seed,
  );
}

/**
 * Route requests that have no task label (each given by its id and text). `taken`: task names an earlier
 * routing gave; the new clusters are numbered after the highest `cluster-N` among them, so they never
 * merge with an earlier cluster of the same name.
 */
export function routeRequests(
  unlabelled: readonly UnlabelledRequest[],
  method: RoutingMethod = { kind: 'silhouette' },
  seed = 1,
  taken: Iterable<string> = [],
  /** One unit vector per request (a dense encoder's); default the hashed TF-IDF of the texts. */
  embedded?: readonly Float64Array[],
): RoutingResult {
  if (unlabelled.length === 0) return { routes: {}, clusters: 0, silhouette: 0, examples: {} };
  if (embedded && embedded.length !== unlabelled.length) throw new RangeError(`${embedded.length} embeddings for ${unlabelled.length} requests`);
  const vectors = embedded ?? embedRequests(unlabelled.map((r) => r.text));
  let c: Clustering;
  if (method.kind === 'kmeans') c = kMeans(vectors, method.k, seed);
  else if (method.kind === 'threshold') c = thresholdRoute(vectors, method.tau);
  else c = clusterBySilhouette(vectors, method.maxK ?? 20, seed);
  let offset = 0;
  for (const name of taken) {
    const n = /^cluster-(\d+)$/.exec(name);
    if (n) offset = Math.max(offset, Number(n[1]));
  }
  const width = Math.max(2, String(offset + c.k).length);
  // Keyed by trace ids and cluster names: no prototype, so an id like "__proto__" is an ordinary key.
  const routes = Object.create(null) as Record<string, string>;
  const examples = Object.create(null) as Record<string, string[]>;
  unlabelled.forEach((t, i) => {
    const name = `cluster-${String(offset + c.assignment[i]! + 1).padStart(width, '0')}`;
    routes[t.id] = name;
    const ex = (examples[name] ??= []);
    if (ex.length < 3) ex.push(t.text.slice(0, 160));
  });
  return { routes, clusters: c.k, silhouette: c.silhouette, examples };
}
