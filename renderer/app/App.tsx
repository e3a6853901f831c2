// The shell: sidebar, top bar, the current view, status bar, notices, shortcuts, drag-drop import.
import { useCallback, useEffect, useLayoutEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import { importInput } from '../api/files';
import { useApi, useStudio, useStudioStore } from '../store/react';
import type { ViewName } from '../store/types';
import { BudgetView } from '../views/BudgetView';
import { DemoView } from '../views/DemoView';
import { ExportView } from '../views/ExportView';
import { HeatmapView } from '../views/HeatmapView';
import { GatewayView } from '../views/GatewayView';
import { HistoryView } from '../views/HistoryView';
import { HomeView } from '../views/HomeView';
import { JobsView } from '../views/JobsView';
import { ModelsView } from '../views/ModelsView';
import { RankingView } from '../views/RankingView';
import { SpaceView } from '../views/SpaceView';
import { TraceView } from '../views/TraceView';
import { Cheatsheet } from './Cheatsheet';
import { makeCommands } from './commands';
import { CommandsContext } from '../components/commands-context';
import { Notices } from './Notices';
import { PathPrompt } from './PathPrompt';
import { useGlobalShortcuts } from './shortcuts';
import { viewLabel } from '../store/views';
import { Sidebar } from './Sidebar';
import { StatusBar } from './StatusBar';
import { TopBar } from './TopBar';

const VIEWS: Record<ViewName, () => ReactNode> = {
  home: () => <HomeView />,
  heatmap: () => <HeatmapView />,
  trace: () => <TraceView />,
  ranking: () => <RankingView />,
  budget: () => <BudgetView />,
  space: () => <SpaceView />,
  history: () => <HistoryView />,
  export: () => <ExportView />,
  jobs: () => <JobsView />,
  gateway: () => <GatewayView />,
  models: () => <ModelsView />,
  demo: () => <DemoView />,
};

const FILL_VIEWS: readonly ViewName[] = ['heatmap'];

export function App() {
  const api = useApi();
  const store = useStudioStore();
  const view = useStudio((s) => s.route.view);
  const theme = useStudio((s) => s.theme);
  const [prompt, setPrompt] = useState<'open' | 'new' | null>(null);
  const [dragging, setDragging] = useState(false);
  const fileInput = useRef<HTMLInputElement>(null);
  const mainRef = useRef<HTMLElement>(null);
  // Each view opens at its top (issue 40): the scrolling element is shared by all views, so without this
  // a view would open at the previous view's offset.
  // A view change that took the focus with it (Alt+N, a button in the old view) puts it on the new view,
  // not on <body>, so Tab continues from there.
  const firstView = useRef(true);
  useLayoutEffect(() => {
    const main = mainRef.current;
    if (!main) return;
    main.scrollTop = 0;
    if (firstView.current) {
      firstView.current = false;
      return;
    }
    const active = document.activeElement;
    if (active === null || active === document.body || !active.isConnected) main.focus({ preventScroll: true });
  }, [view]);
  const focusSearch = useCallback(() => {
    requestAnimationFrame(() => document.getElementById('heatmap-search')?.focus());
  }, []);
  /* eslint-disable react-hooks/refs -- pickTraceFiles reads the ref when a command runs, never while rendering. */
  const commands = useMemo(
    () =>
      makeCommands(api, store, {
        promptPath: setPrompt,
        pickTraceFiles: () => fileInput.current?.click(),
        focusSearch,
      }),
    [api, store, focusSearch],
  );
  /* eslint-enable react-hooks/refs */
  useGlobalShortcuts(store, commands, focusSearch);
  useEffect(() => {
    document.documentElement.dataset.theme = theme;
  }, [theme]);
  useDropImport(setDragging);
  const submitPath = async (path: string): Promise<void> => {
    const ok = prompt === 'open' ? await store.getState().openProject(path) : await store.getState().createProject(path);
    if (ok) setPrompt(null);
  };
  const importPicked = async (input: HTMLInputElement): Promise<void> => {
    const files = input.files;
    if (files && files.length > 0) await store.getState().importTraces(await importInput(files));
    input.value = '';
  };

  return (
    <CommandsContext.Provider value={commands}>
      <div className="app">
        {/* The first Tab stop: straight to the view, past the sidebar's links (issue 40, keyboard-only use). */}
        <button className="skip-link" onClick={() => mainRef.current?.focus()} data-testid="skip-to-view">
          Skip to the view
        </button>
        <Sidebar />
        <div className="main">
          <TopBar />
          <main
            ref={mainRef}
            tabIndex={-1}
            aria-label={viewLabel(view)}
            className={`view${FILL_VIEWS.includes(view) ? ' fill' : ''}`}
            data-testid={`view-${view}`}
          >
            {VIEWS[view]()}
          </main>
        </div>
        <StatusBar />
      </div>
      <Notices />
      <Cheatsheet />
      {prompt && <PathPrompt mode={prompt} onClose={() => setPrompt(null)} onSubmit={(path) => void submitPath(path)} />}
      <input
        ref={fileInput}
        type="file"
        multiple
        accept=".jsonl,.json,.ndjson,.txt"
        className="sr-only"
        tabIndex={-1}
        aria-hidden="true"
        data-testid="trace-file-input"
        onChange={(e) => void importPicked(e.target)}
      />
      {dragging && (
        <div className="dropzone">
          <div>Drop trace files to import them</div>
        </div>
      )}
    </CommandsContext.Provider>
  );
}

/** Files dropped anywhere on the window are imported into the open project. */
function useDropImport(setDragging: (on: boolean) => void): void {
  const store = useStudioStore();
  useEffect(() => {
    let depth = 0;
    const hasFiles = (e: DragEvent) => Array.from(e.dataTransfer?.types ?? []).includes('Files');
    const enter = (e: DragEvent) => {
      if (!hasFiles(e)) return;
      depth++;
      setDragging(true);
    };
    const over = (e: DragEvent) => {
      if (!hasFiles(e)) return;
      e.preventDefault();
      if (e.dataTransfer) e.dataTransfer.dropEffect = 'copy';
    };
    const leave = (e: DragEvent) => {
      if (!hasFiles(e)) return;
      depth = Math.max(0, depth - 1);
      if (depth === 0) setDragging(false);
    };
    const drop = async (e: DragEvent) => {
      if (!hasFiles(e)) return;
      e.preventDefault();
      depth = 0;
      setDragging(false);
      const files = e.dataTransfer?.files;
      if (!files || files.length === 0) return;
      if (!store.getState().project) {
        store.getState().notify({
          kind: 'info',
          title: 'Open a project first',
          message: 'Dropped traces are imported into the open project.',
          hint: 'Open or create a project on the Project view, then drop the files again.',
        });
        return;
      }
      await store.getState().importTraces(await importInput(files));
    };
    const onDrop = (e: DragEvent) => void drop(e);
    window.addEventListener('dragenter', enter);
    window.addEventListener('dragover', over);
    window.addEventListener('dragleave', leave);
    window.addEventListener('drop', onDrop);
    return () => {
      window.removeEventListener('dragenter', enter);
      window.removeEventListener('dragover', over);
      window.removeEventListener('dragleave', leave);
      window.removeEventListener('drop', onDrop);
    };
  }, [store, setDragging]);
}
