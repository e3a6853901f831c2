// Actions shared by buttons, keyboard shortcuts and the native menu, so each does the same thing
// from everywhere.
import type { StudioApi } from '../../shared/api';
import type { StudioStore } from '../store/store';
import type { ViewName } from '../store/types';
import type { Commands } from '../components/commands-context';

export type { Commands };

/** `pickProjectPath`/`pickFiles` are supplied by the shell: native dialogs or the page's own prompts. */
export function makeCommands(
  api: StudioApi,
  store: StudioStore,
  ui: { promptPath(kind: 'open' | 'new'): void; pickTraceFiles(): void; focusSearch(): void },
): Commands {
  const native = () => store.getState().info?.nativeDialogs === true;
  const commands: Commands = {
    async openProject() {
      if (!native()) return ui.promptPath('open');
      const paths = await api.pickPath({ kind: 'project' }).catch((e) => (store.getState().fail(e, 'No dialog'), null));
      if (paths?.[0]) await store.getState().openProject(paths[0]);
    },
    async newProject() {
      if (!native()) return ui.promptPath('new');
      const paths = await api.pickPath({ kind: 'project' }).catch((e) => (store.getState().fail(e, 'No dialog'), null));
      if (paths?.[0]) await store.getState().createProject(paths[0]);
    },
    async importTraces() {
      if (!store.getState().project) {
        store.getState().notify({
          kind: 'info',
          title: 'Open a project first',
          message: 'Traces are imported into a project folder.',
          hint: 'Open or create a project on the Project view, then import.',
        });
        store.getState().navigate({ view: 'home' });
        return;
      }
      if (!native()) return ui.pickTraceFiles();
      const paths = await api.pickPath({ kind: 'traces' }).catch((e) => (store.getState().fail(e, 'No dialog'), null));
      if (paths && paths.length > 0) await store.getState().importTraces({ paths });
    },
    go(view) {
      store.getState().navigate({ view });
    },
    run(command) {
      const s = store.getState();
      switch (command) {
        case 'project/open':
          void commands.openProject();
          break;
        case 'project/new':
          void commands.newProject();
          break;
        case 'project/close':
          void s.closeProject();
          break;
        case 'traces/import':
          void commands.importTraces();
          break;
        case 'export/open':
          s.navigate({ view: 'export' });
          break;
        case 'demo/open':
          s.navigate({ view: 'demo' });
          break;
        case 'view/toggle-theme':
          s.toggleTheme();
          break;
        case 'view/find':
          s.navigate({ view: 'heatmap' });
          ui.focusSearch();
          break;
        case 'help/shortcuts':
          s.setCheatsheet(true);
          break;
        default:
          if (command.startsWith('view/')) s.navigate({ view: command.slice(5) as ViewName });
      }
    },
  };
  return commands;
}
