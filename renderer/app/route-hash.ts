// The route lives in the URL hash (#/heatmap?task=fx_settle), so a reload returns to the same place.
import { VIEWS, type Route, type ViewName } from '../store/types';

export function routeFromHash(hash: string): Route {
  const [path, query = ''] = hash.replace(/^#\/?/, '').split('?');
  const view = (VIEWS as readonly string[]).includes(path ?? '') ? (path as ViewName) : 'home';
  const params = new URLSearchParams(query);
  const route: Route = { view };
  const task = params.get('task');
  const trace = params.get('trace');
  const tool = params.get('tool');
  if (task) route.task = task;
  if (trace) route.trace = trace;
  if (tool) route.tool = tool;
  return route;
}

export function hashFromRoute(route: Route): string {
  const params = new URLSearchParams();
  if (route.task) params.set('task', route.task);
  if (route.trace) params.set('trace', route.trace);
  if (route.tool) params.set('tool', route.tool);
  const q = params.toString();
  return `#/${route.view}${q ? `?${q}` : ''}`;
}
