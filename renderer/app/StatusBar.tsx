// One line at the bottom: the engine connection, project size, the running job's progress.
import { useShallow } from 'zustand/react/shallow';
import { fmtDuration, fmtInt } from '../format';
import { useStudio } from '../store/react';

export function StatusBar() {
  const transport = useStudio((s) => s.info?.transport);
  const version = useStudio((s) => s.info?.version);
  const traces = useStudio((s) => s.project?.traces);
  const tasks = useStudio((s) => s.project?.tasks.length);
  const job = useStudio(useShallow((s) => s.jobs.find((j) => j.status === 'running') ?? null));
  const navigate = useStudio((s) => s.navigate);
  return (
    <footer className="statusbar">
      <span>
        {transport === 'electron' ? 'Desktop' : transport === 'web' ? 'Browser · local engine' : 'Connecting…'}
        {version ? ` · v${version}` : ''}
      </span>
      {traces !== undefined && (
        <span className="tabular">
          {fmtInt(traces)} traces · {tasks} tasks
        </span>
      )}
      <span className="grow" />
      {job && (
        <button className="btn ghost small" onClick={() => navigate({ view: 'jobs' })} title="Open Jobs">
          <span className="ellipsis" style={{ maxWidth: 260 }}>
            {job.title}
          </span>
          <span className="progress mini-progress">
            <div style={{ width: `${job.total ? (100 * job.done) / job.total : 0}%` }} />
          </span>
          <span className="tabular">
            {fmtInt(job.done)}/{fmtInt(job.total)} · ETA {fmtDuration(job.etaSeconds)}
          </span>
        </button>
      )}
    </footer>
  );
}
