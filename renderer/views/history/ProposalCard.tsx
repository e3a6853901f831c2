// The History view's proposal card: the folded space against the approved version, not applied.
import type { HistoryData } from '../../../shared/api';
import { diffSpaces } from '../../../shared/project/spaces';
import { describeRule as describeSpaceRule } from '../../../shared/export/space-report';
import { useStudio } from '../../store/react';

export function ProposalCard({ history }: { history: HistoryData }) {
  const navigate = useStudio((s) => s.navigate);
  const { approved } = history;
  const diff = diffSpaces(approved?.tools ?? [], history.proposal);
  const same = approved !== null && diff.added.length === 0 && diff.removed.length === 0;
  const list = (tools: string[]) => tools.join(', ');
  return (
    <div className="card" data-testid="history-proposal">
      <div className="card-head">
        <h2>Proposal after batch {history.updates!.batches.at(-1)!.batch}</h2>
        <span className="sub" data-testid="history-proposal-status">
          {!approved
            ? 'no version approved yet · not applied'
            : same
              ? `the same tools as the deployed v${approved.version}: nothing to apply`
              : `differs from the deployed v${approved.version} · not applied`}
        </span>
      </div>
      {approved && !same && (
        <div className="callout warn small" style={{ marginBottom: 10 }} data-testid="history-differs">
          The folded space is not the deployed one. The gateways and exports serve approved v{approved.version}
          {` (${describeSpaceRule(approved.rule)})`}; the fold over the batches
          {diff.added.length > 0 ? (
            <>
              {' '}
              would add <span className="mono">{list(diff.added)}</span>
            </>
          ) : null}
          {diff.added.length > 0 && diff.removed.length > 0 ? ' and' : ''}
          {diff.removed.length > 0 ? (
            <>
              {' '}
              would drop <span className="mono">{list(diff.removed)}</span>, which v{approved.version} keeps
            </>
          ) : null}
          . Check the dropped tools on the Trace and Ranking views before approving the fold.
        </div>
      )}
      <div className="chips">
        {history.proposal.length === 0 && <span className="muted small">The rule keeps no tool.</span>}
        {history.proposal.map((t) => (
          <span
            key={t}
            className={`chip${diff.added.includes(t) ? ' added' : ''}`}
            title={diff.added.includes(t) ? 'new against the approved version' : 'kept'}
          >
            {t}
          </span>
        ))}
        {diff.removed.map((t) => (
          <span key={t} className="chip removed" title="in the approved version, not in the proposal">
            {t}
          </span>
        ))}
      </div>
      <div className="btn-row" style={{ marginTop: 10 }}>
        <button className="btn" onClick={() => navigate({ view: 'space' })}>
          Review and approve on the Space view…
        </button>
      </div>
    </div>
  );
}
