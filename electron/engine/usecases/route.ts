// Use case "route": give the requests without a task label a task by clustering their text (paper D.1),
// and keep the routing with the project (the imported traces are never modified). Requests routed by an
// earlier run keep their task. And "route --evaluate": how well the router recovers the labels the
// project already has (purity, NMI, ARI over seeds, Table 10). Requests are embedded by the hashed
// TF-IDF of their text, or densely by a GGUF's own embeddings. Returns the result; the caller says what it did.
import { requestText, routeRequests, type RoutingMethod, type RoutingResult, type UnlabelledRequest } from '../../../shared/routing/route';
import { DEFAULT_QUALITY_SEEDS, evaluateRouting, type LabelledRequest, type RoutingEvaluation } from '../../../shared/routing/evaluate';
import { ExpectedError } from '../../../shared/api/errors';
import { isServedTrace } from '../benchmark/project';
import type { GpuChoice } from '../llama/runtime';
import { embedWithModel } from '../routing/model-embeddings';
import type { ProjectStore } from '../store';

export interface RouteResult extends RoutingResult {
  /** Routed requests per task, by task name. */
  sizes: Record<string, number>;
  /** Whether the routing was stored (not with dryRun, nor when there was nothing to route). */
  saved: boolean;
}

/** How requests are embedded: hashed TF-IDF of their text, or a GGUF's own embeddings (node-llama-cpp). */
export type RoutingEmbedding = { kind: 'tfidf' } | { kind: 'model'; path: string; gpu?: GpuChoice; threads?: number };

export interface RouteOptions {
  method: RoutingMethod;
  seed?: number;
  dryRun?: boolean;
}

export function routeProject(store: ProjectStore, options: RouteOptions, vectors?: (requests: readonly UnlabelledRequest[]) => Float64Array[]): RouteResult {
  // Requests routed before keep their task; the new ones are routed among themselves, under new names.
  const earlier = store.readRoutes();
  const requests = unlabelledRequests(store);
  const result = routeRequests(requests, options.method, options.seed ?? 1, Object.values(earlier), vectors?.(requests));
  const sizes: Record<string, number> = {};
  for (const task of Object.values(result.routes)) sizes[task] = (sizes[task] ?? 0) + 1;
  const saved = !options.dryRun && Object.keys(result.routes).length > 0;
  if (saved) store.writeRoutes(Object.assign(Object.create(null) as Record<string, string>, earlier, result.routes), JSON.stringify(options.method));
  return { ...result, sizes, saved };
}

/** routeProject with the embedding asked for (a model's embeddings are computed first, one request at a time). */
export async function routeProjectWith(
  store: ProjectStore,
  options: RouteOptions & { embedding: RoutingEmbedding; onProgress?: (done: number, total: number) => void },
): Promise<RouteResult> {
  if (options.embedding.kind === 'tfidf') return routeProject(store, options);
  const requests = unlabelledRequests(store);
  const { vectors } = requests.length ? await embed(options.embedding, requests, options.onProgress) : { vectors: [] };
  return routeProject(store, options, () => vectors);
}

/**
 * The requests to route: traces with no task label that no earlier routing gave one, as their id and
 * request text only. Read one trace at a time (only those are read): memory holds the texts, not the
 * traces, whatever the project's size.
 */
export function unlabelledRequests(store: ProjectStore): UnlabelledRequest[] {
  const requests: UnlabelledRequest[] = [];
  for (const trace of store.iterTraces((t) => !t.routed && !t.task)) requests.push({ id: trace.id, text: requestText(trace) });
  return requests;
}

/**
 * The requests whose task label the source gave (not an earlier routing), each once: a built-in
 * benchmark project's served copies of its requests are left out. Read one trace at a time.
 */
export function labelledRequests(store: ProjectStore): LabelledRequest[] {
  const out: LabelledRequest[] = [];
  for (const trace of store.iterTraces((t) => !t.routed && t.task !== undefined)) {
    if (isServedTrace(trace)) continue;
    out.push({ id: trace.id, text: requestText(trace), label: trace.task!, ...(trace.split ? { split: trace.split } : {}) });
  }
  return out;
}

export interface RoutingQualityReport extends RoutingEvaluation {
  embedding: 'tfidf' | 'model';
  /** The embedding model's file, for `model`. */
  model?: string;
  dimensions: number;
  /** Seconds spent embedding (a model's embeddings; 0 for TF-IDF). */
  embedSeconds: number;
}

/** Route the project's labelled requests as if they had none, and measure the routing against their labels. */
export async function evaluateProjectRouting(
  store: ProjectStore,
  options: { method: RoutingMethod; seeds?: readonly number[]; embedding: RoutingEmbedding; onProgress?: (done: number, total: number) => void },
): Promise<RoutingQualityReport> {
  const requests = labelledRequests(store);
  if (requests.length === 0) {
    throw new ExpectedError(
      'NOT_FOUND',
      `${store.dir} has no requests with a task label to measure the routing against (--evaluate compares the clusters with the labels the source gave: benchmark families, BFCL classes, --task-field)`,
    );
  }
  const seeds = options.seeds ?? DEFAULT_QUALITY_SEEDS;
  if (options.embedding.kind === 'tfidf') return { ...evaluateRouting(requests, options.method, seeds), embedding: 'tfidf', dimensions: 1024, embedSeconds: 0 };
  const embedded = await embed(options.embedding, requests, options.onProgress);
  return {
    ...evaluateRouting(requests, options.method, seeds, embedded.vectors),
    embedding: 'model',
    model: options.embedding.path,
    dimensions: embedded.dimensions,
    embedSeconds: embedded.seconds,
  };
}

async function embed(
  embedding: Extract<RoutingEmbedding, { kind: 'model' }>,
  requests: readonly { text: string }[],
  onProgress?: (done: number, total: number) => void,
) {
  return embedWithModel(
    embedding.path,
    requests.map((r) => r.text),
    {
      ...(embedding.gpu ? { gpu: embedding.gpu } : {}),
      ...(embedding.threads !== undefined ? { threads: embedding.threads } : {}),
      ...(onProgress ? { onProgress } : {}),
    },
  );
}
