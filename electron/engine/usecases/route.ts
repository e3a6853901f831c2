// Use case "route": give the requests without a task label a task by clustering their text (paper D.1),
// and keep the routing with the project (the imported traces are never modified). Returns the routing;
// the caller says what it did.
import { routeUnlabelled, type RoutingMethod, type RoutingResult } from '../../../shared/routing/route';
import type { ProjectStore } from '../store';

export interface RouteResult extends RoutingResult {
  /** Routed requests per task, by task name. */
  sizes: Record<string, number>;
  /** Whether the routing was stored (not with dryRun, nor when there was nothing to route). */
  saved: boolean;
}

export function routeProject(store: ProjectStore, options: { method: RoutingMethod; seed?: number; dryRun?: boolean }): RouteResult {
  // Routed traces count as unlabelled again: a rerun replaces the previous routing.
  const traces = store.listTraces((t) => !t.routed);
  const result = routeUnlabelled(traces, options.method, options.seed ?? 1);
  const sizes: Record<string, number> = {};
  for (const task of Object.values(result.routes)) sizes[task] = (sizes[task] ?? 0) + 1;
  const saved = !options.dryRun && Object.keys(result.routes).length > 0;
  if (saved) store.writeRoutes(result.routes, JSON.stringify(options.method));
  return { ...result, sizes, saved };
}
