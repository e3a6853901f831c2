// The "Run the demo" card's progress: the demo job's steps, message, error, actions and log.
import type { JobInfo, JobStep } from '../../../shared/api';
import { useStudio } from '../../store/react';

const STATUS_WORD: Record<JobStep['status'], string> = { done: 'done', running: 'running', waiting: 'waiting' };

export function DemoRunProgress({ job, onAnother }: { job: JobInfo; onAnother: () => void }) {
  const act = useStudio((s) => s.jobAction);
  const openDemoProject = useStudio((s) => s.openDemoProject);
  const projectDir = useStudio((s) => s.project?.dir);
  const dir = typeof job.result?.dir === 'string' ? job.result.dir : null;
  const ended = job.status !== 'running' && job.status !== 'queued';
  return (
    <div className="demo-run-progress" data-testid="demo-run-progress" data-status={job.status}>
      <div className="job-head">
        <div className="ellipsis">
          <strong>{job.title}</strong>
          {dir ? (
            <span className="small muted">
              {' '}
              · in <code>{dir}</code>
            </span>
          ) : null}
        </div>
        <span
          className={`pill ${job.status === 'done' ? 'good' : job.status === 'failed' ? 'bad' : job.status === 'cancelled' || job.status === 'interrupted' ? 'warn' : 'accent'}`}
          data-testid="demo-run-status"
        >
          {job.status}
        </span>
      </div>
      {job.steps?.length ? (
        <ol className="run-steps" aria-label="Demo steps" data-testid="demo-run-steps">
          {job.steps.map((step) => (
            <li key={step.id} className={`run-step ${step.status}`} data-step={step.id} data-status={step.status}>
              <span className="run-step-icon" aria-hidden="true">
                {step.status === 'done' ? '✓' : step.status === 'running' && !ended ? <span className="spinner" /> : '○'}
              </span>
              <span className="run-step-label">{step.label}</span>
              <span className="run-step-counts tabular">{step.unit && step.total > 0 ? `${step.done} / ${step.total} ${step.unit}` : ''}</span>
              <span className="run-step-state small">{step.status === 'running' && ended ? 'stopped' : STATUS_WORD[step.status]}</span>
              {step.detail ? <span className="run-step-detail small muted">{step.detail}</span> : null}
            </li>
          ))}
        </ol>
      ) : (
        <p className="small muted">Starting the demo process (it loads the engine, then the model)…</p>
      )}
      <p className="small text-2 demo-run-message" aria-live="polite" data-testid="demo-run-message">
        {job.message ?? ''}
      </p>
      {job.error && (
        <div className="callout bad small">
          <strong>{job.error.code}</strong>: {job.error.message}
          {job.error.hint && <div>→ {job.error.hint}</div>}
        </div>
      )}
      <div className="btn-row" style={{ marginTop: 8 }}>
        {job.canCancel && (
          <button className="btn danger" onClick={() => void act(job.id, 'cancel')} data-testid="demo-run-cancel">
            {job.status === 'interrupted' ? 'Dismiss' : 'Cancel'}
          </button>
        )}
        {job.canResume && (
          <button className="btn primary" onClick={() => void act(job.id, 'resume')} data-testid="demo-run-resume">
            Resume
          </button>
        )}
        {job.status === 'done' && dir && dir !== projectDir && (
          <button className="btn primary" onClick={() => void openDemoProject(dir)} data-testid="demo-run-open">
            Open the demo project
          </button>
        )}
        {ended && (
          <button className="btn ghost" onClick={onAnother} data-testid="demo-run-another">
            Run another demo…
          </button>
        )}
      </div>
      {job.log?.length ? (
        <details className="demo-run-log">
          <summary className="small">
            Log ({job.log.length} lines, what <code>lots demo</code> prints)
          </summary>
          <pre>{job.log.join('\n')}</pre>
        </details>
      ) : null}
    </div>
  );
}
