// The views in navigation order, with their shortcut digit (Alt+N in a browser, Ctrl/Cmd+N in the app).
import type { ViewName } from '../store/types';

export interface ViewDef {
  name: ViewName;
  label: string;
  group: 'project' | 'task' | 'engine';
  needsTask: boolean;
  /** The key after Alt (browser) beyond the digits 1…9 of the first nine views (issue 40: every view has one). */
  key?: { code: string; label: string };
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
  { name: 'gateway', label: 'Gateway', group: 'engine', needsTask: false, key: { code: 'KeyG', label: 'G' } },
  { name: 'models', label: 'Models', group: 'engine', needsTask: false, key: { code: 'KeyM', label: 'M' } },
  { name: 'demo', label: 'Demo', group: 'engine', needsTask: false, key: { code: 'Digit0', label: '0' } },
];

export function viewLabel(name: ViewName): string {
  return VIEW_DEFS.find((v) => v.name === name)?.label ?? name;
}
