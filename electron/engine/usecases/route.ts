// Use case "route": give the requests without a task label a task by clustering their text (paper D.1),
// and keep the routing with the project (the imported traces are never modified). Requests routed by an
// earlier run keep their task. Returns the routing; the caller says what it did.
import { requestText, routeRequests, type RoutingMethod, type RoutingResult, type UnlabelledRequest } from '../../../shared/routing/route';
import type { ProjectStore } from '../store';

export interface RouteResult extends RoutingResult {
  /** Routed requests per task, by task name. */
  sizes: Record<string, number>;
  /** Whether the routing was stored (not with dryRun, nor when there was nothing to route). */
  saved: boolean;
}

export function routeProject(store: ProjectStore, options: { method: RoutingMethod; seed?: number; dryRun?: boolean }): RouteResult {
  // Requests routed before keep their task; the new ones are routed among themselves, under new names.
  const earlier = store.readRoutes();
  const result = routeRequests(unlabelledRequests(store), options.method, options.seed ?? 1, Object.values(earlier));
  const sizes: Record<string, number> = {};
  for (const task of Object.values(result.routes)) sizes[task] = (sizes[task] ?? 0) + 1;
  const saved = !options.dryRun && Object.keys(result.routes).length > 0;
  if (saved) store.writeRoutes(Object.assign(Object.create(null) as Record<string, string>, earlier, result.routes), JSON.stringify(options.method));
  return { ...result, sizes, saved };
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
