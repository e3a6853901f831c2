// Models: pick a GGUF, see size / architecture / context and whether it fits (node-llama-cpp's estimate),
// the GPU, and pulling models into the models folder (pypi: wheels, or the model hub where it can be
// reached) with progress and cancel, and the scoring server(s) a job can use instead (ScoringServerCard).
import { useEffect } from 'react';
import { fmtBytes, fmtInt, fmtTime } from '../format';
import { useApi, useStudio } from '../store/react';
import { ScoringServerCard } from './ScoringServerCard';
import { PullCard } from './models/PullCard';
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
