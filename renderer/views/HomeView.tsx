// Project home: open/create a project, or — with one open — its tasks, scoring and space status,
// import, recent activity, and the import report with rejected lines.
import { useEffect, useRef, useState } from 'react';
import { useShallow } from 'zustand/react/shallow';
import { fmtInt, fmtTime, plural, runLabel } from '../format';
import { useCommands } from '../components/commands-context';
import { Empty } from '../components/Empty';
import { ImportTaskField, ImportUnlabelled } from '../components/ImportTasks';
import { SpacePill } from '../components/SpacePill';
import { useStudio } from '../store/react';
import { useViewOnly, VIEW_ONLY_REASON } from '../components/ViewOnly';

export function HomeView() {
  const project = useStudio((s) => s.project);
  const loaded = useStudio((s) => s.projectLoaded);
  if (!loaded) return <p className="muted">Connecting to the engine…</p>;
  return project ? <ProjectHome /> : <NoProject />;
}

function NoProject() {
  const commands = useCommands();
  const recent = useStudio(useShallow((s) => s.recent));
  const openProject = useStudio((s) => s.openProject);
  const navigate = useStudio((s) => s.navigate);
  const openSample = useStudio((s) => s.openSampleProject);
  const sampleBusy = useStudio((s) => s.sampleBusy);
  return (
    <div style={{ maxWidth: 980 }}>
      <div className="view-header">
        <div>
          <h1>Start with your agent's traces</h1>
          <p className="lede">
            A project is a folder holding imported traces, their scores and every approved tool space. Open one, create one and drop trace files on the window,
            or open the sample project to see the whole loop on a real run of the built-in benchmark.
          </p>
        </div>
      </div>
      <div className="grid-3 action-cards">
        <div className="card">
          <div className="card-head">
            <h2>Open a project</h2>
          </div>
          <p className="text-2" style={{ marginBottom: 12 }}>
            A folder that holds a <code>project.json</code>.
          </p>
          <button className="btn primary" onClick={() => void commands.openProject()} data-testid="open-project">
            Open project…
          </button>
        </div>
        <div className="card">
          <div className="card-head">
            <h2>New project</h2>
          </div>
          <p className="text-2" style={{ marginBottom: 12 }}>
            Create an empty project folder, then import trace files into it.
          </p>
          <button className="btn" onClick={() => void commands.newProject()} data-testid="new-project">
            New project…
          </button>
        </div>
        <div className="card">
          <div className="card-head">
            <h2>Demo</h2>
          </div>
          <p className="text-2" style={{ marginBottom: 12 }}>
            A real run of the built-in benchmark on a local model, already scored: heatmap, ranking, budget curve and approved spaces, no model needed.
          </p>
          <div className="field-row">
            <button className="btn primary" onClick={() => void openSample()} disabled={sampleBusy} data-testid="open-sample">
              {sampleBusy ? <span className="spinner" /> : null}Open the sample project
            </button>
            <button className="btn ghost" onClick={() => navigate({ view: 'demo' })}>
              Build a demo…
            </button>
          </div>
        </div>
      </div>
      <div className="card" style={{ marginTop: 14 }}>
        <div className="card-head">
          <h2>Recent projects</h2>
        </div>
        {recent.length === 0 ? (
          <p className="muted">None yet: projects you open appear here.</p>
        ) : (
          <table className="table">
            <tbody>
              {recent.map((r) => (
                <tr
                  key={r.dir}
                  className="clickable"
                  onClick={() => void openProject(r.dir)}
                  tabIndex={0}
                  onKeyDown={(e) => e.key === 'Enter' && void openProject(r.dir)}
                >
                  <td style={{ width: '28%' }}>
                    <strong>{r.name}</strong>
                  </td>
                  <td className="mono ellipsis muted">{r.dir}</td>
                  <td className="num muted">{fmtTime(r.openedAt)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </div>
    </div>
  );
}

function ProjectHome() {
  const viewOnly = useViewOnly();
  const commands = useCommands();
  const project = useStudio((s) => s.project!);
  const importing = useStudio((s) => s.importing);
  const importJob = useStudio((s) => s.jobs.find((j) => j.kind === 'import' && j.status === 'running'));
  const jobAction = useStudio((s) => s.jobAction);
  const cancelRef = useRef<HTMLButtonElement>(null);
  // The import button is disabled while an import runs: keyboard focus moves to its Cancel instead of being lost.
  const hasImportJob = importJob !== undefined;
  useEffect(() => {
    if (hasImportJob && document.activeElement === document.body) cancelRef.current?.focus();
  }, [hasImportJob]);
  const navigate = useStudio((s) => s.navigate);
  const selectedTask = useStudio((s) => s.route.task);
  const setTask = useStudio((s) => s.setTask);
  const closeProject = useStudio((s) => s.closeProject);
  const eligible = project.tasks.reduce((n, t) => n + t.eligible, 0);
  const approved = project.tasks.filter((t) => t.space.status === 'approved').length;
  const scored = project.tasks.reduce((n, t) => n + t.scored, 0);

  const openTask = (task: string, view: 'heatmap' | 'space' = 'heatmap') => {
    setTask(task);
    navigate({ view, task });
  };

  return (
    <div>
      <div className="view-header">
        <div>
          <h1>{project.name}</h1>
          <p className="lede mono small">{project.dir}</p>
        </div>
        <div className="btn-row">
          {!viewOnly && <ImportTaskField />}
          <button
            className="btn primary"
            onClick={() => void commands.importTraces()}
            disabled={importing || viewOnly}
            title={viewOnly ? VIEW_ONLY_REASON : undefined}
            data-testid="import-traces"
          >
            {importing ? <span className="spinner" /> : null} Import traces…
          </button>
          {importJob && (
            <button
              ref={cancelRef}
              className="btn danger"
              onClick={() => void jobAction(importJob.id, 'cancel')}
              data-testid="cancel-import"
              aria-label={`Cancel: ${importJob.title}`}
            >
              Cancel import
            </button>
          )}
          {!viewOnly && (
            <button className="btn" onClick={() => navigate({ view: 'jobs' })} disabled={project.traces === 0}>
              Score…
            </button>
          )}
          <button className="btn ghost" onClick={() => void closeProject()} disabled={viewOnly} title={viewOnly ? VIEW_ONLY_REASON : undefined}>
            Close
          </button>
        </div>
      </div>

      <div className="card">
        <div className="stats">
          <Stat label="Traces" value={fmtInt(project.traces)} />
          <Stat label="Tasks" value={fmtInt(project.tasks.length)} />
          <Stat label="Scored requests" value={fmtInt(scored)} />
          <Stat label="Scored tools (Σ|Aₜ|)" value={fmtInt(eligible)} />
          <Stat label="Approved spaces" value={`${approved} / ${project.tasks.length}`} />
          <Stat label="Scoring runs" value={fmtInt(project.runs.length)} />
        </div>
      </div>

      {importJob?.message && (
        <div className="callout small" role="status" aria-live="polite" style={{ marginTop: 14 }} data-testid="import-status">
          <strong>{importJob.title}</strong>: {importJob.message}
        </div>
      )}

      <ImportReport />

      {project.warnings.length > 0 && (
        <div className="callout warn" style={{ marginTop: 14 }}>
          <strong>{plural(project.warnings.length, 'problem')} while reading the project</strong> (records skipped, nothing else lost):
          <ul style={{ margin: '6px 0 0', paddingLeft: 18 }}>
            {project.warnings.slice(0, 8).map((w) => (
              <li key={w} className="mono small">
                {w}
              </li>
            ))}
          </ul>
        </div>
      )}

      <div className="card" style={{ marginTop: 14 }}>
        <div className="card-head">
          <h2>Tasks</h2>
          <span className="sub">Click a task to inspect its heatmap. Drop trace files anywhere to import more.</span>
        </div>
        {project.tasks.length === 0 ? (
          <Empty
            title="No traces yet"
            actions={
              <button className="btn primary" onClick={() => void commands.importTraces()}>
                Import traces…
              </button>
            }
          >
            Import trace files (our JSONL, OpenAI chat, Anthropic messages, …) with the button or by dropping them on the window. Every rejected line is
            reported with its line number.
          </Empty>
        ) : (
          <div className="table-wrap">
            <table className="table" data-testid="task-table">
              <thead>
                <tr>
                  <th>Task</th>
                  <th className="num">Requests</th>
                  <th className="num">Scored</th>
                  <th className="num" title="Tools scored on this task (|Aₜ|) of the tools on its menus">
                    Scored tools
                  </th>
                  <th className="num">Answers</th>
                  <th>Space</th>
                  <th>Models</th>
                  <th />
                </tr>
              </thead>
              <tbody>
                {project.tasks.map((t) => (
                  <tr
                    key={t.task}
                    className={`clickable${t.task === selectedTask ? ' selected' : ''}`}
                    aria-current={t.task === selectedTask ? 'true' : undefined}
                    tabIndex={0}
                    onClick={() => openTask(t.task)}
                    onKeyDown={(e) => e.target === e.currentTarget && e.key === 'Enter' && openTask(t.task)}
                    data-task={t.task}
                  >
                    <td>
                      <strong>{t.task}</strong>
                      {t.swept ? (
                        <span className="pill" style={{ marginLeft: 6 }}>
                          swept
                        </span>
                      ) : null}
                    </td>
                    <td className="num">{fmtInt(t.requests)}</td>
                    <td className="num">{t.scored === 0 ? <span className="muted">—</span> : fmtInt(t.scored)}</td>
                    <td className="num" data-testid="task-tools">
                      {t.eligible === 0 ? <span className="muted">—</span> : fmtInt(t.eligible)} <span className="muted">of {fmtInt(t.tools)}</span>
                    </td>
                    <td className="num" data-testid="task-answers">
                      <span className="good">{t.correct} right</span> · <span className="bad">{t.wrong} wrong</span>
                      {t.unlabeled ? <span className="muted"> · {t.unlabeled} unlabelled</span> : null}
                    </td>
                    <td>
                      <SpacePill status={t.space.status} version={t.space.version} />
                      {t.space.size !== undefined ? <span className="muted small"> {plural(t.space.size, 'tool')}</span> : null}
                    </td>
                    <td className="small muted ellipsis" style={{ maxWidth: 200 }}>
                      {t.models.join(', ') || '—'}
                    </td>
                    <td className="num">
                      <button
                        className="btn small"
                        onClick={(e) => {
                          e.stopPropagation();
                          openTask(t.task, 'space');
                        }}
                      >
                        Review space
                      </button>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
      </div>

      <div className="grid-2" style={{ marginTop: 14 }}>
        <div className="card">
          <div className="card-head">
            <h2>Recent activity</h2>
          </div>
          {project.activity.length === 0 ? (
            <p className="muted">Nothing yet.</p>
          ) : (
            <table className="table small">
              <tbody>
                {project.activity.slice(0, 10).map((a, i) => (
                  <tr key={`${a.at}${i}`}>
                    <td className="muted nowrap tabular" style={{ width: 150 }}>
                      {fmtTime(a.at)}
                    </td>
                    <td>
                      <span className="pill">{a.kind}</span>
                    </td>
                    <td>{a.message}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          )}
        </div>
        <div className="card">
          <div className="card-head">
            <h2>Scoring runs</h2>
          </div>
          {project.runs.length === 0 ? (
            <p className="muted">
              No scores yet. Pick a model on the Models view and press Score on the Jobs view, or import scores with <code>lots scores import</code>.
            </p>
          ) : (
            <div className="table-wrap">
              <table className="table small">
                <thead>
                  <tr>
                    <th>Run</th>
                    <th className="num">Rows</th>
                    <th className="num">Last</th>
                  </tr>
                </thead>
                <tbody>
                  {project.runs.map((r) => (
                    <tr key={r.run}>
                      <td className="ellipsis" style={{ maxWidth: 320 }} title={r.run}>
                        {runLabel(r.run, r.model)}
                      </td>
                      <td className="num">{fmtInt(r.rows)}</td>
                      <td className="num muted">{fmtTime(r.lastAt)}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          )}
        </div>
      </div>
    </div>
  );
}

function Stat({ label, value }: { label: string; value: string }) {
  return (
    <div className="stat">
      <span className="label">{label}</span>
      <span className="value">{value}</span>
    </div>
  );
}

function ImportReport() {
  const report = useStudio((s) => s.lastImport);
  const clear = useStudio((s) => s.clearImport);
  const [open, setOpen] = useState(true);
  if (!report) return null;
  const rejected = report.files.flatMap((f) => f.rejected.map((r) => ({ file: f.file, ...r })));
  const more = report.files.reduce((n, f) => n + f.moreRejected, 0);
  const conflicts = report.files.flatMap((f) => f.conflicts);
  return (
    <div className={`callout ${rejected.length || conflicts.length ? 'warn' : 'good'}`} style={{ marginTop: 14 }} data-testid="import-report">
      <div style={{ display: 'flex', justifyContent: 'space-between', gap: 12 }}>
        <div>
          <strong>Last import:</strong> {report.files.map((f) => `${f.file} (${f.format}): ${f.added} added, ${f.duplicates} already there`).join(' · ')}
        </div>
        <div className="btn-row">
          {(rejected.length > 0 || conflicts.length > 0) && (
            <button className="btn small" onClick={() => setOpen(!open)}>
              {open ? 'Hide' : 'Show'} problems
            </button>
          )}
          <button className="btn ghost small" onClick={clear} aria-label="Dismiss the import report">
            ✕
          </button>
        </div>
      </div>
      <ImportUnlabelled />
      {open && (rejected.length > 0 || conflicts.length > 0) && (
        <ul className="mono small" style={{ margin: '8px 0 0', paddingLeft: 18, maxHeight: 180, overflow: 'auto' }}>
          {rejected.map((r) => (
            <li key={`${r.file}:${r.line}:${r.message}`}>
              {r.line > 0 ? `${r.file}:${r.line}` : r.file}: {r.message}
            </li>
          ))}
          {more > 0 && <li>… and {more} more rejected lines</li>}
          {conflicts.map((c) => (
            <li key={c.id}>{c.message}</li>
          ))}
        </ul>
      )}
    </div>
  );
}
