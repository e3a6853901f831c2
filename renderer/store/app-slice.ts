// App-wide UI state: where the user is (route), theme, notices, the shortcut cheatsheet.
import type { AppInfo, StudioApi } from '../../shared/api';
import { toNotice } from './errors';
import type { Notice, Route, SliceCreator } from './types';

export type Theme = 'light' | 'dark';

export interface AppSlice {
  info: AppInfo | null;
  theme: Theme;
  route: Route;
  notices: Notice[];
  cheatsheet: boolean;
  boot(): Promise<void>;
  navigate(route: Partial<Route> & Pick<Route, 'view'>): void;
  setTask(task: string): void;
  setTheme(theme: Theme): void;
  toggleTheme(): void;
  notify(notice: Omit<Notice, 'id'>): void;
  fail(e: unknown, title: string): void;
  dismiss(id: number): void;
  setCheatsheet(open: boolean): void;
}

let nextNotice = 1;
const NOTICE_MS = 6000;

export const createAppSlice =
  (api: StudioApi, initial: { route?: Route; theme?: Theme } = {}): SliceCreator<AppSlice> =>
  (set, get) => ({
    info: null,
    theme: initial.theme ?? 'light',
    route: initial.route ?? { view: 'home' },
    notices: [],
    cheatsheet: false,

    async boot() {
      try {
        const info = await api.getAppInfo();
        set({ info }, false, 'app/info');
        // The view-only link may not list other projects (listRecentProjects is a write method: access.ts).
        await Promise.all([get().refreshProject(), info.viewOnly ? Promise.resolve() : get().loadRecent(), get().loadJobs()]);
        const { route, project } = get();
        // A task in the URL that the project no longer has falls back to the first task.
        if (project && route.task && !project.tasks.some((t) => t.task === route.task))
          set({ route: { ...route, task: project.tasks[0]?.task } }, false, 'app/route-fix');
        if (project && !route.task && project.tasks[0]) set({ route: { ...get().route, task: project.tasks[0].task } }, false, 'app/route-task');
      } catch (e) {
        get().fail(e, 'Cannot reach the engine');
      }
    },

    navigate(route) {
      const current = get().route;
      const task = route.task ?? current.task;
      // The last opened trace stays in the route (and the URL), so the Trace view reopens it after a reload.
      const trace = route.trace ?? current.trace;
      const tool = route.tool ?? (route.view === 'trace' ? current.tool : undefined);
      set({ route: { view: route.view, ...(task ? { task } : {}), ...(trace ? { trace } : {}), ...(tool ? { tool } : {}) } }, false, 'app/navigate');
    },

    setTask(task) {
      set({ route: { ...get().route, task, trace: undefined, tool: undefined } }, false, 'app/task');
    },

    setTheme(theme) {
      set({ theme }, false, 'app/theme');
    },

    toggleTheme() {
      set({ theme: get().theme === 'dark' ? 'light' : 'dark' }, false, 'app/toggle-theme');
    },

    notify(notice) {
      const id = nextNotice++;
      // The same message twice in a row is shown once.
      const notices = get().notices.filter((n) => !(n.title === notice.title && n.message === notice.message));
      set({ notices: [...notices, { ...notice, id }].slice(-4) }, false, 'app/notify');
      // Confirmations fade on their own; errors stay until dismissed (they say what to do).
      if (notice.kind !== 'error' && typeof setTimeout === 'function') setTimeout(() => get().dismiss(id), NOTICE_MS);
    },

    fail(e, title) {
      get().notify(toNotice(e, title));
    },

    dismiss(id) {
      set({ notices: get().notices.filter((n) => n.id !== id) }, false, 'app/dismiss');
    },

    setCheatsheet(open) {
      set({ cheatsheet: open }, false, 'app/cheatsheet');
    },
  });
