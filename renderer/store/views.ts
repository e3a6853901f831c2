// The Studio's views, in navigation order: the one registry the store (names, task views), the sidebar,
// the shortcuts (Alt+N in a browser, Ctrl/Cmd+N in the app) and the cheat sheet read. A new view is one
// entry here, its component in the map of renderer/app/App.tsx (typed by ViewName, so it cannot be
// forgotten) and its file in renderer/views/.

export interface ViewDef<N extends string = string> {
  name: N;
  label: string;
  group: 'project' | 'task' | 'engine';
  /** A task view: the task picker and K slider appear in the top bar. */
  needsTask: boolean;
  /** The key after Alt (browser) beyond the digits 1…9 of the first nine views (issue 40: every view has one). */
  key?: { code: string; label: string };
}

const DEFS = [
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
] as const satisfies readonly ViewDef[];

export type ViewName = (typeof DEFS)[number]['name'];
export const VIEW_DEFS: readonly ViewDef<ViewName>[] = DEFS;
export const VIEWS: readonly ViewName[] = DEFS.map((d) => d.name);
/** Views that show one task (the task picker and K slider appear in the top bar). */
export const TASK_VIEWS: readonly ViewName[] = DEFS.filter((d) => d.needsTask).map((d) => d.name);

export function viewLabel(name: ViewName): string {
  return VIEW_DEFS.find((v) => v.name === name)?.label ?? name;
}
