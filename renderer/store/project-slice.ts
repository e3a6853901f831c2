// The open project (summary from the engine), recent projects, imports.
import { ApiError, type ApiInput, type ImportReport, type ProjectSummary, type RecentProject, type RouteReport, type StudioApi } from '../../shared/api';
import type { SliceCreator } from './types';
import { plural } from '../format';

export interface ProjectSlice {
  project: ProjectSummary | null;
  projectLoaded: boolean;
  recent: RecentProject[];
  importing: boolean;
  lastImport: ImportReport | null;
  /** Dotted path of the task label in each record (`lots import --task-field`), sent with every import; '' for none. */
  importTaskField: string;
  setImportTaskField(field: string): void;
  routing: boolean;
  /** The last routing run of the traces imported without a task (shown with the import report). */
  lastRoute: RouteReport | null;
  /** Route the traces without a task (`lots route`), then show the project as it is after. */
  routeTraces(): Promise<RouteReport | null>;
  refreshProject(): Promise<void>;
  loadRecent(): Promise<void>;
  openProject(dir: string): Promise<boolean>;
  createProject(dir: string): Promise<boolean>;
  closeProject(): Promise<void>;
  importTraces(input: ApiInput<'importTraces'>): Promise<ImportReport | null>;
  clearImport(): void;
  /** A project was opened (here or by the engine: menu, demo): every cached view of the old one goes. */
  projectOpened(project: ProjectSummary): void;
}

export const createProjectSlice =
  (api: StudioApi): SliceCreator<ProjectSlice> =>
  (set, get) => ({
    project: null,
    projectLoaded: false,
    recent: [],
    importing: false,
    lastImport: null,
    importTaskField: '',
    routing: false,
    lastRoute: null,

    setImportTaskField(field) {
      set({ importTaskField: field }, false, 'project/task-field');
    },

    async routeTraces() {
      set({ routing: true }, false, 'project/route-start');
      try {
        const report = await api.routeTraces({});
        set({ lastRoute: report, project: report.project, routing: false }, false, 'project/route');
        const tasks = Object.keys(report.sizes).length;
        get().notify(
          report.routed > 0
            ? { kind: 'success', title: `Routed ${plural(report.routed, 'trace')} into ${plural(tasks, 'task')}`, message: routeLine(report) }
            : { kind: 'info', title: 'Nothing to route', message: 'Every trace already has a task.' },
        );
        return report;
      } catch (e) {
        set({ routing: false }, false, 'project/route-failed');
        get().fail(e, 'Routing failed');
        return null;
      }
    },

    async refreshProject() {
      try {
        const project = await api.getProject();
        set({ project, projectLoaded: true }, false, 'project/refresh');
      } catch (e) {
        set({ projectLoaded: true }, false, 'project/refresh-failed');
        get().fail(e, 'Cannot read the project');
      }
    },

    async loadRecent() {
      try {
        set({ recent: await api.listRecentProjects() }, false, 'project/recent');
      } catch (e) {
        get().fail(e, 'Cannot list recent projects');
      }
    },

    async openProject(dir) {
      try {
        const project = await api.openProject({ dir });
        get().projectOpened(project);
        return true;
      } catch (e) {
        get().fail(e, `Cannot open ${dir}`);
        return false;
      }
    },

    async createProject(dir) {
      try {
        const project = await api.createProject({ dir });
        get().projectOpened(project);
        return true;
      } catch (e) {
        get().fail(e, `Cannot create a project in ${dir}`);
        return false;
      }
    },

    async closeProject() {
      try {
        await api.closeProject();
        get().invalidateData();
        set({ project: null, lastImport: null, lastRoute: null, drafts: {}, traceDetail: null, route: { view: 'home' } }, false, 'project/close');
      } catch (e) {
        get().fail(e, 'Cannot close the project');
      }
    },

    async importTraces(input) {
      set({ importing: true }, false, 'project/import-start');
      try {
        const taskField = input.taskField ?? (get().importTaskField.trim() || undefined);
        const report = await api.importTraces(taskField ? { ...input, taskField } : input);
        // The summary comes with the reply; the views' data is refreshed once, by the engine's
        // projectChanged event (store.ts), which every import that changed the project sends.
        set({ lastImport: report, lastRoute: null, project: report.project, importing: false }, false, 'project/import');
        const added = report.files.reduce((n, f) => n + f.added, 0);
        const rejected = report.files.reduce((n, f) => n + f.rejected.length + f.moreRejected, 0);
        if (!get().route.task && report.project.tasks[0]) get().setTask(report.project.tasks[0].task);
        get().notify({
          kind: rejected > 0 ? 'info' : 'success',
          title: rejected > 0 ? `Imported ${plural(added, 'trace')}; ${plural(rejected, 'line')} rejected` : `Imported ${plural(added, 'trace')}`,
          message: report.files
            .map(
              (f) =>
                `${f.file}: ${f.added} added, ${f.duplicates} already there${f.rejected.length + f.moreRejected ? `, ${f.rejected.length + f.moreRejected} rejected` : ''}`,
            )
            .join('\n'),
          ...(rejected > 0
            ? {
                hint: 'The rejected lines are listed on the project home with their line numbers; fix them and import the file again (the good lines are not duplicated).',
              }
            : {}),
        });
        return report;
      } catch (e) {
        set({ importing: false }, false, 'project/import-failed');
        if (e instanceof ApiError && e.code === 'CANCELLED') {
          // (Files imported before the cancelled one are kept: the engine's projectChanged event refreshes.)
          get().notify({ kind: 'info', title: 'Import cancelled', message: e.message });
        } else get().fail(e, 'Import failed');
        return null;
      }
    },

    clearImport() {
      set({ lastImport: null, lastRoute: null }, false, 'project/clear-import');
    },

    projectOpened(project) {
      get().invalidateData();
      set(
        {
          project,
          projectLoaded: true,
          lastImport: null,
          lastRoute: null,
          drafts: {},
          traceDetail: null,
          route: { view: 'home', ...(project.tasks[0] ? { task: project.tasks[0].task } : {}) },
        },
        false,
        'project/opened',
      );
      void get().loadRecent();
    },
  });

/** `cluster-01 (12), cluster-02 (7), …`: the tasks a routing made, largest first. */
export function routeLine(report: RouteReport): string {
  const sizes = Object.entries(report.sizes).sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]));
  return sizes
    .slice(0, 8)
    .map(([task, n]) => `${task} (${n})`)
    .join(', ')
    .concat(sizes.length > 8 ? `, and ${sizes.length - 8} more` : '');
}
