// The Budget view's sweep card: the sweep's best K and the baselines, or the button that runs a sweep.
import type { BudgetData } from '../../../shared/api';
import { useViewOnly, VIEW_ONLY_REASON } from '../../components/ViewOnly';
import { fmtInt, fmtSigned } from '../../format';
import { useStudio } from '../../store/react';
import { fmtBaselineAccuracy } from './fmt-baseline';

export function SweepCard({ budget }: { budget: BudgetData }) {
  const startSweep = useStudio((s) => s.startSweep);
  const viewOnly = useViewOnly();
  const modelPath = useStudio((s) => s.modelPath);
  const navigate = useStudio((s) => s.navigate);
  return (
    <div className="card" style={{ marginTop: 14 }}>
      <div className="card-head">
        <h2>Budget sweep</h2>
        {budget.sweep && (
          <span className="sub">
            model {budget.sweep.model} · {budget.sweep.createdAt.slice(0, 16).replace('T', ' ')}
          </span>
        )}
      </div>
      {budget.sweep ? (
        <>
          <p className="small text-2">
            Best K by measured fitting accuracy: <strong>{budget.sweep.bestK ?? '—'}</strong> (the smallest K at the highest accuracy; labels are used only
            here).
          </p>
          {budget.baselines.length > 0 && (
            <table className="table small" style={{ marginTop: 8, maxWidth: 720 }}>
              <thead>
                <tr>
                  <th>Baseline</th>
                  <th>requests</th>
                  <th className="num">K</th>
                  <th className="num">accuracy</th>
                  <th className="num">prompt tokens</th>
                </tr>
              </thead>
              <tbody>
                {budget.baselines.map((b) => (
                  <tr key={`${b.name}${b.k}${b.split ?? ''}`}>
                    <td>{b.name}</td>
                    <td className="muted">{b.split === 'eval' ? 'evaluation' : 'fitting'}</td>
                    <td className="num">{b.k}</td>
                    <td className="num" title={b.accuracyStd !== undefined ? `mean over ${b.draws ?? '?'} draws; 95% interval of the mean` : undefined}>
                      {fmtBaselineAccuracy(b)}
                    </td>
                    <td className="num">{fmtInt(b.promptTokens)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          )}
        </>
      ) : (
        <div className="btn-row">
          <p className="small text-2" style={{ flex: 1, minWidth: 300 }}>
            A sweep re-serves the task's fitting requests under the top-K space for every K and measures accuracy against gold answers. It needs an executor for
            the tools (the built-in benchmark has one) and a model. Until then, the surrogate F̂ previews the curve: it is maximised by the top-K (Theorem 1)
            {budget.fullValue === null ? ', shown relative to the full menu' : ''}.
          </p>
          <button
            className="btn"
            disabled={viewOnly || !modelPath}
            onClick={() => void startSweep({ task: budget.task, model: modelPath })}
            title={viewOnly ? VIEW_ONLY_REASON : modelPath ? undefined : 'Pick a model on the Models view first'}
          >
            Run sweep
          </button>
          {!modelPath && !viewOnly && (
            <button className="btn ghost" onClick={() => navigate({ view: 'models' })}>
              Pick a model…
            </button>
          )}
        </div>
      )}
      <p className="muted tiny" style={{ marginTop: 8 }}>
        F̂ at K = {budget.ranking.length}: {fmtSigned(budget.points.at(-1)?.surrogate, 4)} (the full scored menu).
      </p>
    </div>
  );
}
