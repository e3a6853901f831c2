// Jobs: start scoring; queued / running / done jobs with progress, throughput, ETA, pause / resume /
// cancel; errors with what to do.
import { useShallow } from 'zustand/react/shallow';
import type { JobInfo } from '../../shared/api';
import { Empty } from '../components/Empty';
import { modelName } from '../components/run-name';
import { useCanWrite, useViewOnly, VIEW_ONLY_REASON, ViewOnlyNote } from '../components/ViewOnly';
import { fmtDuration, fmtInt, fmtTime, runLabel } from '../format';
import { useStudio } from '../store/react';
import { ScoreForm } from './jobs/ScoreForm';

export function JobsView() {
  const jobs = useStudio(useShallow((s) => [...s.jobs].reverse()));
  const project = useStudio((s) => s.project);
  const viewOnly = !useCanWrite();
  const runs = project?.runs.filter((r) => !r.run.startsWith('import:')) ?? [];
  return (
    <div style={{ maxWidth: 1200 }}>
      <ViewOnlyNote what="Scoring and steering jobs" />
      {project && !viewOnly ? <ScoreForm key={project.dir} /> : null}
      <div className="card" style={{ marginTop: project && !viewOnly ? 14 : 0 }}>
        <div className="card-head">
          <h2>Jobs</h2>
          <span className="sub">scoring runs in its own process: the UI stays responsive; a stopped job resumes where it left off</span>
        </div>
        {jobs.length === 0 ? (
          <Empty title={runs.length > 0 ? 'No job started in this session' : 'No jobs yet'}>
            {!project
              ? 'Open a project first; scoring and sweeps run as jobs.'
              : runs.length > 0
                ? `The project's ${runs.length === 1 ? 'scoring run is' : `${runs.length} scoring runs are`} finished and stored (below). A new job's progress, throughput and time left appear here.`
                : 'Start scoring above. Progress, throughput and the time left appear here.'}
          </Empty>
        ) : (
          <div className="jobs" data-testid="jobs-list">
            {jobs.map((j) => (
              <JobRow key={j.id} job={j} />
            ))}
          </div>
        )}
      </div>
      {runs.length > 0 && <StoredRuns />}
    </div>
  );
}

/** The scoring runs the project holds (finished in earlier sessions or by the CLI): not jobs of this session. */
function StoredRuns() {
  const runs = useStudio(useShallow((s) => (s.project?.runs ?? []).filter((r) => !r.run.startsWith('import:'))));
  return (
    <div className="card" style={{ marginTop: 14 }}>
      <div className="card-head">
        <h2>Scoring runs in the project</h2>
        <span className="sub">finished and stored; scoring again with the same model and intervention computes only what is missing</span>
      </div>
      <table className="table small" data-testid="stored-runs">
        <thead>
          <tr>
            <th>model</th>
            <th>intervention</th>
            <th>span</th>
            <th className="num">score rows</th>
            <th>last scores written</th>
          </tr>
        </thead>
        <tbody>
          {runs.map((r) => (
            <tr key={r.run} title={runLabel(r.run, r.model)}>
              <td className="mono">{r.model ? modelName(r.model) : '—'}</td>
              <td>{r.intervention ?? '—'}</td>
              <td>{r.span ?? '—'}</td>
              <td className="num tabular">{fmtInt(r.rows)}</td>
              <td className="tabular">{fmtTime(r.lastAt)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

function JobRow({ job }: { job: JobInfo }) {
  const act = useStudio((s) => s.jobAction);
  const viewOnly = useViewOnly();
  const why = viewOnly ? { disabled: true, title: VIEW_ONLY_REASON } : {};
  // Inside the traces being scored: their sequences done of their plans (a long trace takes minutes).
  const f = job.status === 'running' ? job.inFlight : undefined;
  const partial = f && f.sequences > 0 ? (f.traces * f.sequencesDone) / f.sequences : 0;
  const pct = job.total > 0 ? Math.min(100, (100 * (job.done + partial)) / job.total) : job.status === 'done' ? 100 : 0;
  return (
    <div className={`job ${job.status}`} data-job={job.id} data-kind={job.kind} data-status={job.status}>
      <div className="job-head">
        <div className="ellipsis">
          <strong>{job.title}</strong>{' '}
          <span className="muted small">
            · {job.kind} · {fmtTime(job.createdAt)}
          </span>
        </div>
        <span
          className={`pill ${job.status === 'done' ? 'good' : job.status === 'failed' ? 'bad' : job.status === 'paused' || job.status === 'interrupted' ? 'warn' : job.status === 'running' ? 'accent' : ''}`}
        >
          {job.status}
        </span>
      </div>
      <div
        className={`progress ${job.status}`}
        role="progressbar"
        aria-valuemin={0}
        aria-valuemax={job.total}
        aria-valuenow={job.done}
        aria-label={`${job.title} progress`}
      >
        <div style={{ width: `${pct}%` }} />
      </div>
      <div className="job-stats tabular">
        <span>
          {fmtInt(job.done)} / {fmtInt(job.total)} {job.unit}
        </span>
        {f && (
          <span
            className="muted"
            data-testid="job-in-flight"
            title="sequences (a base or an intervention at one turn) done of the plans of the traces being scored"
          >
            {fmtInt(f.sequencesDone)} / {fmtInt(f.sequences)} sequences in {f.traces === 1 ? 'the trace' : `${f.traces} traces`} being scored
          </span>
        )}
        <span>{job.throughput !== undefined ? `${job.throughput.toFixed(job.throughput < 10 ? 2 : 1)} ${job.unit}/s` : '—'}</span>
        <span>{job.tokensPerSecond !== undefined ? `${fmtInt(job.tokensPerSecond)} tok/s` : ''}</span>
        <span>{job.status === 'running' ? `ETA ${fmtDuration(job.etaSeconds)}` : ''}</span>
        <span className="muted ellipsis" title={job.message}>
          {job.message ?? ''}
        </span>
        <span className="btn-row" style={{ justifyContent: 'flex-end' }}>
          {job.canPause && (
            <button className="btn small" onClick={() => void act(job.id, 'pause')} {...why}>
              Pause
            </button>
          )}
          {job.canResume && (
            <button className="btn small" onClick={() => void act(job.id, 'resume')} {...why}>
              Resume
            </button>
          )}
          {job.canCancel && (
            <button className="btn small danger" onClick={() => void act(job.id, 'cancel')} {...why}>
              {job.status === 'interrupted' ? 'Dismiss' : 'Cancel'}
            </button>
          )}
        </span>
      </div>
      {job.error && (
        <div className="callout bad small" style={{ marginTop: 6 }}>
          <strong>{job.error.code}</strong>: {job.error.message}
          {job.error.hint && <div>→ {job.error.hint}</div>}
        </div>
      )}
    </div>
  );
}
