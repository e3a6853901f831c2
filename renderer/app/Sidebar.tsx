// Navigation between views; task views are disabled until a project with tasks is open.
import { useShallow } from 'zustand/react/shallow';
import { useStudio } from '../store/react';
import { VIEW_DEFS } from '../store/views';

const GROUPS: { id: 'project' | 'task' | 'engine'; label: string }[] = [
  { id: 'project', label: 'Project' },
  { id: 'task', label: 'Task' },
  { id: 'engine', label: 'Engine' },
];

export function Sidebar() {
  const view = useStudio((s) => s.route.view);
  const hasTask = useStudio((s) => Boolean(s.project && s.route.task));
  const disabledTitle = useStudio((s) => (!s.project ? 'Open a project first' : s.project.tasks.length === 0 ? 'Import traces first' : 'Pick a task first'));
  const navigate = useStudio((s) => s.navigate);
  const active = useStudio(useShallow((s) => s.jobs.filter((j) => j.status === 'running' || j.status === 'queued').length));
  const theme = useStudio((s) => s.theme);
  const toggleTheme = useStudio((s) => s.toggleTheme);
  const setCheatsheet = useStudio((s) => s.setCheatsheet);
  const isMac = typeof navigator !== 'undefined' && /Mac/.test(navigator.platform);
  const mod = useStudio((s) => (s.info?.transport === 'electron' ? (isMac ? '⌘' : 'Ctrl+') : 'Alt+'));

  return (
    <aside className="sidebar">
      <div className="brand">
        <div className="brand-mark" aria-hidden="true" />
        <div>
          <div className="brand-name">LOTS Studio</div>
          <div className="brand-sub">tool spaces from traces</div>
        </div>
      </div>
      <nav className="nav" aria-label="Views">
        {GROUPS.map((g) => (
          <div key={g.id}>
            <div className="nav-group">{g.label}</div>
            {VIEW_DEFS.filter((v) => v.group === g.id).map((v) => {
              const index = VIEW_DEFS.indexOf(v) + 1;
              return (
                <button
                  key={v.name}
                  className="nav-item"
                  aria-current={view === v.name ? 'page' : undefined}
                  disabled={v.needsTask && !hasTask}
                  title={v.needsTask && !hasTask ? disabledTitle : undefined}
                  onClick={() => navigate({ view: v.name })}
                  data-view={v.name}
                >
                  <span>{v.label}</span>
                  {v.name === 'jobs' && active > 0 ? (
                    <span className="nav-badge">{active}</span>
                  ) : index <= 9 ? (
                    <span className="nav-key">
                      {mod}
                      {index}
                    </span>
                  ) : v.key && mod === 'Alt+' ? (
                    <span className="nav-key">
                      {mod}
                      {v.key.label}
                    </span>
                  ) : null}
                </button>
              );
            })}
          </div>
        ))}
      </nav>
      <div className="sidebar-foot">
        <button className="btn ghost small" onClick={toggleTheme} aria-label="Toggle dark theme">
          {theme === 'dark' ? '☀ Light' : '☾ Dark'}
        </button>
        <button className="btn ghost small" onClick={() => setCheatsheet(true)} aria-label="Keyboard shortcuts">
          <kbd>?</kbd> Keys
        </button>
      </div>
    </aside>
  );
}
