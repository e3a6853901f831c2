// The Jobs view's "Score" form: model, intervention, span, GPU and where the log-probs come from.
import { useEffect, useState } from 'react';
import { latestRun, modelName } from '../../components/run-name';
import { useStudio } from '../../store/react';
import type { ScoreSpan } from '../../../shared/project/scores';

type Intervention = 'evidence' | 'line' | 'reexecute';
const isIntervention = (x: string | undefined): x is Intervention => x === 'evidence' || x === 'line' || x === 'reexecute';

export function ScoreForm() {
  const modelPath = useStudio((s) => s.modelPath);
  const setModelPath = useStudio((s) => s.setModelPath);
  const startScoring = useStudio((s) => s.startScoring);
  const chooseReference = useStudio((s) => s.useReferenceModel);
  const busy = useStudio((s) => s.modelBusy);
  const navigate = useStudio((s) => s.navigate);
  // The project's latest run sets the defaults (issue 40): scoring again the way the project was scored.
  const last = useStudio((s) => latestRun(s.project?.runs));
  const [intervention, setIntervention] = useState<Intervention>(isIntervention(last?.intervention) ? last.intervention : 'evidence');
  const [span, setSpan] = useState<ScoreSpan>(last?.span === 'expression' || last?.span === 'answer-eot' ? last.span : 'answer');
  const [gpu, setGpu] = useState<'auto' | 'cpu' | 'cuda' | 'vulkan' | 'metal'>('auto');
  // Where the log-probs come from: this machine (the default) or the scoring server(s) kept on the Models view.
  const [backend, setBackend] = useState<'local' | 'server'>('local');
  const server = useStudio((s) => s.scoringServer);
  const loadScoringServer = useStudio((s) => s.loadScoringServer);
  useEffect(() => {
    void loadScoringServer();
  }, [loadScoringServer]);
  const servers = server?.settings ?? null;
  const remote = backend === 'server' && servers !== null;
  return (
    <div className="card">
      <div className="card-head">
        <h2>Score the project</h2>
        <span className="sub">
          I<sub>x</sub>(s) = L(y | h) − L(y | h<sup>−s</sup>) on the frozen answers; nothing already scored is computed again
        </span>
      </div>
      <div className="field-row">
        <label className="field grow">
          <span>Model (GGUF on the engine's machine)</span>
          <input
            type="text"
            value={modelPath}
            onChange={(e) => setModelPath(e.target.value)}
            placeholder="/models/qwen2.5-7b-instruct-q4_k_m.gguf"
            data-testid="score-model"
          />
        </label>
        <label className="field">
          <span>Intervention</span>
          <select value={intervention} onChange={(e) => setIntervention(e.target.value as typeof intervention)} data-testid="score-intervention">
            <option value="evidence">evidence (calls + observations)</option>
            <option value="line">line (single-step traces)</option>
            <option value="reexecute">re-execute (needs an executor)</option>
          </select>
        </label>
        <label className="field">
          <span>Scored span</span>
          <select value={span} onChange={(e) => setSpan(e.target.value as typeof span)} data-testid="score-span">
            <option value="answer">whole answer</option>
            <option value="expression">answer expression</option>
            <option value="answer-eot">whole answer and its end</option>
          </select>
        </label>
        <label className="field">
          <span>Score on</span>
          <select value={remote ? 'server' : 'local'} onChange={(e) => setBackend(e.target.value as typeof backend)} data-testid="score-backend">
            <option value="local">this machine (llama.cpp)</option>
            <option value="server" disabled={!servers}>
              {servers ? `the scoring server${servers.endpoints.length === 1 ? '' : 's'} (${servers.endpoints.length})` : 'the scoring server(s): none set'}
            </option>
          </select>
        </label>
        <label className="field">
          <span>GPU</span>
          <select
            value={gpu}
            disabled={remote}
            title={remote ? 'the servers use their own GPUs' : undefined}
            onChange={(e) => setGpu(e.target.value as typeof gpu)}
          >
            <option value="auto">auto</option>
            <option value="cuda">CUDA</option>
            <option value="vulkan">Vulkan</option>
            <option value="metal">Metal</option>
            <option value="cpu">CPU only</option>
          </select>
        </label>
        <button
          className="btn primary"
          disabled={!modelPath.trim()}
          title={modelPath.trim() ? undefined : NO_MODEL}
          aria-describedby={modelPath.trim() ? undefined : 'score-why'}
          onClick={() => void startScoring({ model: modelPath.trim(), intervention, span, gpu, ...(remote ? { backend: 'server' as const } : {}) })}
          data-testid="start-scoring"
        >
          Score
        </button>
      </div>
      {!modelPath.trim() && (
        <p className="small text-2" id="score-why" data-testid="score-why" style={{ marginTop: 6 }}>
          {NO_MODEL}.
        </p>
      )}
      {last && (
        <p className="small muted" data-testid="score-defaults" style={{ marginTop: 6 }}>
          Intervention and span default to the project's latest run ({last.intervention ?? 'evidence'}, {last.span ?? 'answer'}
          {last.model ? ` with ${modelName(last.model)}` : ''}); another intervention starts a separate run.
        </p>
      )}
      {remote && servers && (
        <p className="small text-2" style={{ marginTop: 8 }} data-testid="score-backend-note">
          On <span className="mono">{servers.endpoints.join(', ')}</span> ({servers.backend}
          {server?.lastCheck?.identity ? (
            <>
              , serving <span className="mono">{server.lastCheck.identity}</span>
            </>
          ) : (
            ', not checked in this session'
          )}
          ): the traces are sharded across them; the model file above is read only for its chat template and vocabulary.
        </p>
      )}
      <div className="btn-row" style={{ marginTop: 8 }}>
        <button className="btn ghost small" onClick={() => navigate({ view: 'models' })}>
          Check the model (or the scoring server) on the Models view…
        </button>
        <button className="btn ghost small" disabled={busy} onClick={() => void chooseReference()} data-testid="use-reference-model">
          Use the built-in reference model (for demos)
        </button>
      </div>
    </div>
  );
}

const NO_MODEL = 'Score needs a model: type the path of a GGUF file, or use the built-in reference model below';
