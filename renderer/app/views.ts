// The views in navigation order, with their shortcut digit (Alt+N in a browser, Ctrl/Cmd+N in the app).
import type { ViewName } from '../store/types';

export interface ViewDef {
  name: ViewName;
  label: string;
  group: 'project' | 'task' | 'engine';
  needsTask: boolean;
}

export const VIEW_DEFS: ViewDef[] = [
  { name: 'home', label: 'Project', group: 'project', needsTask: false },
  { name: 'heatmap', label: 'Heatmap', group: 'task', needsTask: true },
  { name: 'trace', label: 'Trace', group: 'task', needsTask: true },
  { name: 'ranking', label: 'Ranking', group: 'task', needsTask: true },
  { name: 'budget', label: 'Budget', group: 'task', needsTask: true },
  { name: 'space', label: 'Space', group: 'task', needsTask: true },
  { name: 'history', label: 'History', group: 'task', needsTask: true },
  { name: 'export', label: 'Export', group: 'task', needsTask: true },
  { name: 'jobs', label: 'Jobs', group: 'engine', needsTask: false },
  { name: 'gateway', label: 'Gateway', group: 'engine', needsTask: false },
  { name: 'models', label: 'Models', group: 'engine', needsTask: false },
  { name: 'demo', label: 'Demo', group: 'engine', needsTask: false },
];

export function viewLabel(name: ViewName): string {
  return VIEW_DEFS.find((v) => v.name === name)?.label ?? name;
}
