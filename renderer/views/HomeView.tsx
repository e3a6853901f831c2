// Project home: open/create a project, or — with one open — its tasks, scoring and space status,
// import, recent activity, and the import report with rejected lines.
import { useEffect, useRef } from 'react';
import { fmtInt, plural } from '../format';
import { useCommands } from '../components/commands-context';
import { ImportTaskField } from '../components/ImportTasks';
import { useStudio } from '../store/react';
import { useViewOnly, VIEW_ONLY_REASON } from '../components/ViewOnly';
import { NoProject } from './home/NoProject';
import { ImportReport } from './home/ImportReport';
import { TaskTable } from './home/TaskTable';
import { RecentActivity } from './home/RecentActivity';

export function HomeView() {
  const project = useStudio((s) => s.project);
  const loaded = useStudio((s) => s.projectLoaded);
  if (!loaded) return <p className="muted">Connecting to the engine…</p>;
  return project ? <ProjectHome /> : <NoProject />;
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
  const closeProject = useStudio((s) => s.closeProject);
  const eligible = project.tasks.reduce((n, t) => n + t.eligible, 0);
  const approved = project.tasks.filter((t) => t.space.status === 'approved').length;
  const scored = project.tasks.reduce((n, t) => n + t.scored, 0);

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

      <TaskTable />

      <RecentActivity />
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
