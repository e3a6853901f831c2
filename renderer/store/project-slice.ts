// The open project (summary from the engine), recent projects, imports.
import { ApiError, type ApiInput, type ImportReport, type ProjectSummary, type RecentProject, type StudioApi } from '../../shared/api';
import type { SliceCreator } from './types';
import { plural } from '../format';

export interface ProjectSlice {
  project: ProjectSummary | null;
  projectLoaded: boolean;
  recent: RecentProject[];
  importing: boolean;
  lastImport: ImportReport | null;
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
        set({ project: null, lastImport: null, drafts: {}, traceDetail: null, route: { view: 'home' } }, false, 'project/close');
      } catch (e) {
        get().fail(e, 'Cannot close the project');
      }
    },

    async importTraces(input) {
      set({ importing: true }, false, 'project/import-start');
      try {
        const report = await api.importTraces(input);
        // The summary comes with the reply; the views' data is refreshed once, by the engine's
        // projectChanged event (store.ts), which every import that changed the project sends.
        set({ lastImport: report, project: report.project, importing: false }, false, 'project/import');
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
      set({ lastImport: null }, false, 'project/clear-import');
    },

    projectOpened(project) {
      get().invalidateData();
      set(
        {
          project,
          projectLoaded: true,
          lastImport: null,
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
