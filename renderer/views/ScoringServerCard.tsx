// The Models view's "Scoring server" card: the scoring servers (llama.cpp's `llama-server` or vLLM, one of
// the registry's backends) a score job can use instead of this machine. The user picks the server kind, enters one or more endpoint URLs (and, optionally, the name of the
// environment variable holding an API key and the model name the servers must serve); Check keeps them
// for this user and asks each server what it serves: the model, the run-key identity its scores would
// carry, its slots — or the exact error. The Jobs view's "Score on" choice then offers the servers.
import { useEffect, useState, type FormEvent } from 'react';
import { useStudio } from '../store/react';
import { CheckResult } from './models/ScoringServerCheck';
import { DEFAULT_SCORING_BACKEND, SCORING_BACKENDS, scoringBackend, type ScoringServerBackend } from '../../shared/scoring/backends';

/** URLs as typed: one per line (commas and spaces separate them too). */
export function parseEndpoints(text: string): string[] {
  return text
    .split(/[\s,]+/)
    .map((u) => u.trim())
    .filter(Boolean);
}

export function ScoringServerCard() {
  const state = useStudio((s) => s.scoringServer);
  const busy = useStudio((s) => s.scoringServerBusy);
  const progress = useStudio((s) => s.scoringServerProgress);
  const load = useStudio((s) => s.loadScoringServer);
  const check = useStudio((s) => s.checkScoringServer);
  const forget = useStudio((s) => s.forgetScoringServer);
  const navigate = useStudio((s) => s.navigate);
  const [backendId, setBackendId] = useState<ScoringServerBackend>(DEFAULT_SCORING_BACKEND.id);
  const backend = scoringBackend(backendId);
  const [endpoints, setEndpoints] = useState('');
  const [apiKeyEnv, setApiKeyEnv] = useState('');
  const [servedModel, setServedModel] = useState('');
  const [touched, setTouched] = useState(false);
  useEffect(() => {
    void load();
  }, [load]);
  // The saved settings fill the fields until the user types.
  const saved = state?.settings ?? null;
  // (adjusted while rendering when new settings arrive, not in an effect: no extra render with stale fields)
  const [shown, setShown] = useState<typeof saved>(null);
  if (!touched && saved && saved !== shown) {
    setShown(saved);
    setBackendId(saved.backend);
    setEndpoints(saved.endpoints.join('\n'));
    setApiKeyEnv(saved.apiKeyEnv ?? '');
    setServedModel(saved.servedModel ?? '');
  }

  const urls = parseEndpoints(endpoints);
  const submit = (e?: FormEvent) => {
    e?.preventDefault();
    if (urls.length === 0 || busy) return;
    setTouched(false);
    void check({
      ...(backendId !== DEFAULT_SCORING_BACKEND.id ? { backend: backendId } : {}),
      endpoints: urls,
      ...(apiKeyEnv.trim() ? { apiKeyEnv: apiKeyEnv.trim() } : {}),
      ...(servedModel.trim() ? { servedModel: servedModel.trim() } : {}),
    });
  };
  const edit = (set: (v: string) => void) => (v: string) => {
    setTouched(true);
    set(v);
  };
  const lastCheck = state?.lastCheck ?? null;

  return (
    <div className="card" style={{ marginTop: 14 }} data-testid="scoring-server">
      <div className="card-head">
        <h2>Scoring server</h2>
        <span className="sub">
          {backend.project}'s <span className="mono">{backend.program}</span> on other machines: a score job shards its traces across the endpoints
        </span>
      </div>
      <form onSubmit={submit} aria-label="Scoring server settings">
        <label className="field" style={{ width: 240, marginBottom: 10 }}>
          <span>Server</span>
          <select value={backendId} onChange={(e) => edit((v) => setBackendId(v as ScoringServerBackend))(e.target.value)} data-testid="server-backend">
            {SCORING_BACKENDS.map((b) => (
              <option key={b.id} value={b.id}>
                {b.project} ({b.program})
              </option>
            ))}
          </select>
        </label>
        <label className="field">
          <span>Endpoints (one URL per line)</span>
          <textarea
            rows={2}
            value={endpoints}
            onChange={(e) => edit(setEndpoints)(e.target.value)}
            onKeyDown={(e) => {
              if (e.key === 'Enter' && (e.ctrlKey || e.metaKey)) submit();
            }}
            placeholder={'http://gpu-node-1:8080\nhttp://gpu-node-2:8080'}
            spellCheck={false}
            className="mono"
            style={{ width: '100%', fontSize: 12.5 }}
            data-testid="server-endpoints"
          />
        </label>
        <div className="field-row" style={{ marginTop: 10 }}>
          <label className="field" style={{ width: 240 }}>
            <span>API key variable (optional)</span>
            <input
              type="text"
              value={apiKeyEnv}
              onChange={(e) => edit(setApiKeyEnv)(e.target.value)}
              placeholder="LOTS_SERVER_KEY"
              spellCheck={false}
              data-testid="server-api-key-env"
            />
          </label>
          <label className="field" style={{ width: 240 }}>
            <span>Served model (optional)</span>
            <input
              type="text"
              value={servedModel}
              onChange={(e) => edit(setServedModel)(e.target.value)}
              placeholder="what /v1/models lists"
              spellCheck={false}
              data-testid="server-served-model"
            />
          </label>
          <div className="btn-row">
            <button className="btn primary" type="submit" disabled={urls.length === 0 || busy} data-testid="check-server">
              {busy ? <span className="spinner" /> : null} Check
            </button>
            {busy && progress && progress.total > 1 && (
              <span className="muted small" role="status" data-testid="server-check-progress">
                checking endpoint {progress.done + 1} of {progress.total}…
              </span>
            )}
            {saved && (
              <button
                className="btn"
                type="button"
                disabled={busy}
                onClick={() => {
                  setTouched(true);
                  setBackendId(DEFAULT_SCORING_BACKEND.id);
                  setEndpoints('');
                  setApiKeyEnv('');
                  setServedModel('');
                  void forget();
                }}
                data-testid="forget-server"
              >
                Forget
              </button>
            )}
          </div>
        </div>
      </form>
      {lastCheck ? (
        <CheckResult check={lastCheck} edited={touched} onJobs={() => navigate({ view: 'jobs' })} />
      ) : (
        <p className="muted small" style={{ marginTop: 10 }}>
          Start a server with <span className="mono">{backend.startAliased}</span> on each machine, list them here and press Check (Ctrl+Enter in the list).
          {saved ? ' The saved servers have not been checked in this session.' : ''}
        </p>
      )}
      <p className="muted tiny" style={{ marginTop: 8 }}>
        Kept for this user in <span className="mono">{state?.file ?? 'the config folder'}</span>, not in the project. The API key itself is never stored: only
        the name of the variable, read from the engine's environment. The GGUF picked for a job is still read here, for its chat template and vocabulary (no
        weights are loaded).
      </p>
    </div>
  );
}
