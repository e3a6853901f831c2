// The Gateway view's fold card: the committed gateway batches per task and the button that folds them (lots update).
import type { GatewayBatchState, GatewayFoldTask, GatewayViewData } from '../../../shared/api';
import { fmtInt, plural } from '../../format';
import { useStudio } from '../../store/react';

const STATE_LABEL: Record<GatewayBatchState, [string, string]> = {
  folded: ['folded', 'good'],
  ready: ['ready to fold', 'accent'],
  unscored: ['waiting for scores', 'warn'],
  audit: ['MCP audit: not folded', ''],
  unrouted: ['no task: route first', 'warn'],
};

export function FoldCard({ data }: { data: GatewayViewData }) {
  const folding = useStudio((s) => s.folding);
  const fold = useStudio((s) => s.foldGatewayBatches);
  const result = useStudio((s) => s.gatewayFold);
  const navigate = useStudio((s) => s.navigate);
  const ready = data.fold.filter((t) => t.ready > 0 && t.hasScores);
  const unscored = data.fold.some((t) => t.batches.some((b) => b.state === 'unscored'));
  const foldedNow = (result ?? []).filter((r) => (r.folded ?? 0) > 0);
  return (
    <div className="card" data-testid="gateway-fold">
      <div className="card-head">
        <h2>Fold the recorded traffic</h2>
        <span className="sub">each committed batch is an import of the project; once scored, lots update folds it into the task’s running scores</span>
      </div>
      {data.fold.length === 0 ? (
        <p className="small muted" style={{ margin: 0 }}>
          Nothing committed into the project yet: a gateway commits its batch every few minutes and when it stops.
        </p>
      ) : (
        <div className="table-wrap">
          <table className="table" data-testid="gateway-fold-tasks">
            <thead>
              <tr>
                <th>Task</th>
                <th>Gateway batches</th>
                <th className="num">Traces</th>
                <th className="num">Scored</th>
                <th>Approved</th>
                <th className="num">Last fold</th>
              </tr>
            </thead>
            <tbody>
              {data.fold.map((t) => (
                <FoldRow key={t.task} task={t} />
              ))}
            </tbody>
          </table>
        </div>
      )}
      <div className="btn-row gateway-fold-actions">
        <button
          className="btn primary"
          disabled={folding || ready.length === 0}
          onClick={() => void fold(ready.map((t) => t.task))}
          data-testid="fold-gateway-batches"
          title={ready.length === 0 ? 'no scored batch waits to be folded' : `lots update for ${ready.map((t) => t.task).join(', ')}`}
        >
          {folding
            ? 'Folding…'
            : ready.length > 0
              ? `Fold ${plural(
                  ready.reduce((n, t) => n + t.ready, 0),
                  'batch',
                  'batches',
                )} (lots update)`
              : 'Fold (lots update)'}
        </button>
        {unscored && (
          <>
            <span className="small text-2">Batches waiting for scores are folded once scored:</span>
            <button className="btn small" onClick={() => navigate({ view: 'jobs' })}>
              Score on the Jobs view
            </button>
          </>
        )}
      </div>
      {foldedNow.length > 0 && (
        <div className="callout good small gateway-fold-result" data-testid="gateway-fold-result">
          Folded {foldedNow.map((r) => `${plural(r.folded ?? 0, 'batch', 'batches')} of ${r.task}`).join(', ')}: a new proposal is ready; nothing was applied.{' '}
          {foldedNow.map((r) => (
            <button key={r.task} className="btn small primary" onClick={() => navigate({ view: 'space', task: r.task })} data-testid="open-space-proposal">
              Review the proposal of {r.task} on the Space view
            </button>
          ))}
        </div>
      )}
    </div>
  );
}

function FoldRow({ task: t }: { task: GatewayFoldTask }) {
  return (
    <tr data-task={t.task}>
      <td>{t.task}</td>
      <td>
        <div className="chips">
          {t.batches.map((b) => {
            const [label, tone] = STATE_LABEL[b.state];
            return (
              <span key={b.file} className="gateway-batch-chip" data-file={b.file} data-state={b.state} title={`recorded by ${b.kind} gateway ${b.gateway}`}>
                <code>{b.file}</code> <span className={`pill ${tone}`}>{label}</span>
              </span>
            );
          })}
        </div>
      </td>
      <td className="num">{fmtInt(t.traces)}</td>
      <td className="num">{fmtInt(t.scored)}</td>
      <td>{t.approvedVersion !== null ? <span className="pill good">v{t.approvedVersion}</span> : <span className="muted">none</span>}</td>
      <td className="num">{t.lastFold !== null ? `batch ${t.lastFold}` : '—'}</td>
    </tr>
  );
}
