// The History view's update card: the fold form (α, rule, K or φ) and the batches not folded yet.
import { useState } from 'react';
import type { HistoryData } from '../../../shared/api';
import { describeUpdateRule as describeRule } from '../../../shared/project/updates';
import { runName } from '../../components/run-name';
import { useViewOnly, VIEW_ONLY_REASON } from '../../components/ViewOnly';
import { fmtInt } from '../../format';
import { useStudio } from '../../store/react';

export function UpdateCard({ history }: { history: HistoryData }) {
  const { task, updates, waiting, stream } = history;
  const folding = useStudio((s) => s.folding);
  const fold = useStudio((s) => s.foldBatches);
  const runs = useStudio((s) => s.project?.runs);
  const viewOnly = useViewOnly();
  const [alpha, setAlpha] = useState(String(updates?.alpha ?? 0.2));
  const [rule, setRule] = useState<'topk' | 'support'>(updates?.rule.kind ?? 'topk');
  const [k, setK] = useState(String(updates?.rule.kind === 'topk' ? updates.rule.k : (history.approved?.tools.length ?? 3)));
  const [phi, setPhi] = useState(String(updates?.rule.kind === 'support' ? updates.rule.phi : 0.05));
  const alphaN = Number(alpha);
  const kN = Number(k);
  const phiN = Number(phi);
  const valid = alphaN > 0 && alphaN <= 1 && (rule === 'topk' ? Number.isInteger(kN) && kN >= 1 : phiN >= 0 && phiN <= 1);
  return (
    <div className="card">
      <div className="card-head">
        <h2>Updates of {task}</h2>
        <span className="sub" data-testid="history-summary">
          {updates && updates.batches.length > 0
            ? `${updates.batches.length} batch${updates.batches.length === 1 ? '' : 'es'} folded · α = ${updates.alpha} · ${describeRule(updates.rule)} · run: ${runName(updates.run, runs)}`
            : 'no batch folded yet'}
        </span>
      </div>
      <p className="small text-2" style={{ marginTop: 0 }}>
        Each import of the task is a batch. A scored batch updates the running scores, Ĩ ← α·Ī + (1−α)·Ĩ (a tool a batch did not score keeps its own), and the
        rule proposes the next space. Nothing is applied here: approve the proposal on the Space view.
      </p>
      {stream ? (
        <p className="small muted" style={{ marginBottom: 0 }}>
          This project is a benchmark stream ({stream.modelName}): its history comes from the stream's updated arm.
        </p>
      ) : (
        <form
          className="fold-form"
          onSubmit={(e) => {
            e.preventDefault();
            if (valid) void fold(task, { alpha: alphaN, rule, ...(rule === 'topk' ? { k: kN } : { phi: phiN }) });
          }}
        >
          <label>
            α <input type="number" min={0.01} max={1} step="any" value={alpha} onChange={(e) => setAlpha(e.target.value)} aria-label="EMA weight alpha" />
          </label>
          <label>
            rule{' '}
            <select value={rule} onChange={(e) => setRule(e.target.value as 'topk' | 'support')} aria-label="Update rule">
              <option value="topk">top-K</option>
              <option value="support">support frequency</option>
            </select>
          </label>
          {rule === 'topk' ? (
            <label>
              K <input type="number" min={1} step={1} value={k} onChange={(e) => setK(e.target.value)} aria-label="Budget K" />
            </label>
          ) : (
            <label>
              φ <input type="number" min={0} max={1} step="any" value={phi} onChange={(e) => setPhi(e.target.value)} aria-label="Minimum running support phi" />
            </label>
          )}
          <button
            type="submit"
            className="btn primary"
            disabled={viewOnly || folding || !valid}
            title={viewOnly ? VIEW_ONLY_REASON : undefined}
            data-testid="fold-batches"
          >
            {folding ? 'Folding…' : 'Fold new batches'}
          </button>
          {viewOnly && <span className="small muted">Folding is off: {VIEW_ONLY_REASON}.</span>}
          {!valid && <span className="bad small">α must be in (0, 1]; K a positive integer; φ in [0, 1].</span>}
        </form>
      )}
      {waiting.length > 0 && (
        <div className="callout warn small" style={{ marginTop: 10 }} data-testid="history-waiting">
          Not folded yet: {waiting.map((w) => `${w.source} (${fmtInt(w.traces)} traces)`).join(', ')}. A batch is folded once its traces are scored (Jobs view,
          or <code>lots score</code>).
        </div>
      )}
    </div>
  );
}
