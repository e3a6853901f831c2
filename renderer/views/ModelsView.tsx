// Models: pick a GGUF, see size / architecture / context and whether it fits (node-llama-cpp's estimate),
// the GPU, and downloads — which need a network; offline, the view says so plainly.
import { useEffect } from 'react';
import { fmtBytes, fmtInt, fmtTime } from '../format';
import { useApi, useStudio } from '../store/react';

export function ModelsView() {
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
  const useReference = useStudio((s) => s.useReferenceModel);
  const download = useStudio((s) => s.downloadModel);
  const fail = useStudio((s) => s.fail);
  const navigate = useStudio((s) => s.navigate);
  useEffect(() => {
    void load();
  }, [load]);

  const browse = async () => {
    const picked = await api.pickPath({ kind: 'model' }).catch((e) => (fail(e, 'No dialog'), null));
    if (picked?.[0]) await inspect(picked[0]);
  };
  const online = models?.network.online ?? false;

  return (
    <div style={{ maxWidth: 1200 }}>
      <div className="card">
        <div className="card-head"><h2>Scoring model</h2><span className="sub">any GGUF file on the engine's machine</span></div>
        <form className="field-row" onSubmit={(e) => { e.preventDefault(); void inspect(); }}>
          <input className="grow" type="text" value={path} onChange={(e) => setPath(e.target.value)} placeholder="/models/model.gguf" aria-label="Model path" data-testid="model-path" />
          {native && <button type="button" className="btn" onClick={() => void browse()}>Browse…</button>}
          <button className="btn primary" type="submit" disabled={!path.trim() || busy} data-testid="inspect-model">{busy ? <span className="spinner" /> : null} Inspect</button>
          <button type="button" className="btn" disabled={busy} onClick={() => void useReference()} title="A tiny generated model that copies evidence from its context: for demos and tests, not for real scoring">Built-in reference model</button>
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
              <div className="small text-2" style={{ marginTop: 4 }}>{info.fit.note}</div>
            </div>
            <div className="btn-row" style={{ marginTop: 10 }}>
              <button className="btn" onClick={() => navigate({ view: 'jobs' })}>Score with this model…</button>
            </div>
          </div>
        ) : (
          <p className="muted small" style={{ marginTop: 10 }}>Type or browse to a <code>.gguf</code> file and press Inspect to see what it is and whether it fits this machine.</p>
        )}
      </div>

      <div className="grid-2" style={{ marginTop: 14 }}>
        <div className="card">
          <div className="card-head"><h2>Compute</h2></div>
          {gpu ? (
            <div className="stats">
              <Stat label="Backend" value={gpu.type === false ? 'CPU only' : gpu.type.toUpperCase()} />
              <Stat label="Devices" value={gpu.devices.join(', ') || '—'} />
              <Stat label="VRAM" value={gpu.vramTotal !== null ? `${fmtBytes(gpu.vramFree)} free of ${fmtBytes(gpu.vramTotal)}` : '—'} />
              <Stat label="Supported" value={gpu.supported.join(', ') || 'CPU'} />
            </div>
          ) : <p className="muted">Reading the GPU…</p>}
        </div>
        <div className="card" data-testid="downloads">
          <div className="card-head"><h2>Download a model</h2><span className={`pill ${online ? 'good' : ''}`}>{models ? (online ? 'online' : 'offline') : '…'}</span></div>
          {models && !online && (
            <p className="text-2" style={{ marginBottom: 8 }}>
              <strong>No network here</strong>, so models cannot be downloaded ({models.network.detail}). Copy a GGUF file to this machine and pick it above.
            </p>
          )}
          {models && models.recommended.length > 0 && (
            <table className="table small">
              <tbody>
                {models.recommended.map((m) => (
                  <tr key={m.uri}>
                    <td><strong>{m.name}</strong><div className="muted tiny">{m.note}</div></td>
                    <td className="num">{fmtBytes(m.sizeBytes)}</td>
                    <td className="num"><button className="btn small" disabled={!online} onClick={() => void download(m.uri)}>Download</button></td>
                  </tr>
                ))}
              </tbody>
            </table>
          )}
          {models && <p className="muted tiny" style={{ marginTop: 8 }}>Downloads go to <span className="mono">{models.downloadDir}</span>.</p>}
        </div>
      </div>

      {models && models.recent.length > 0 && (
        <div className="card" style={{ marginTop: 14 }}>
          <div className="card-head"><h2>Recently used</h2></div>
          <table className="table small">
            <tbody>
              {models.recent.map((m) => (
                <tr key={m.path} className="clickable" onClick={() => void inspect(m.path)}>
                  <td><strong>{m.name}</strong></td><td className="mono muted ellipsis">{m.path}</td><td className="num muted">{fmtTime(m.usedAt)}</td>
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
  return <div className="stat" style={{ minWidth: 110 }}><span className="label">{label}</span><span className="value" style={{ fontSize: 15 }}>{value}</span></div>;
}
