// The Ranking view's rank stability card: how firm the top-K is over the bootstrap resamples.
import { fmtShare } from '../../format';
import type { Row } from './columns';

/** How firm is the top-K? Tools of the top K that stay there in nearly every resample, and the shakiest one. */
export function StabilityCard({ rows, k, resamples }: { rows: Row[]; k: number; resamples: number }) {
  const top = rows.slice(0, k).filter((r) => r.topKShare !== null);
  if (k === 0 || top.length === 0) return null;
  const firm = top.filter((r) => r.topKShare! >= 0.95).length;
  const shakiest = [...top].sort((a, b) => a.topKShare! - b.topKShare!)[0]!;
  const challenger = rows
    .slice(k)
    .filter((r) => r.topKShare !== null)
    .sort((a, b) => b.topKShare! - a.topKShare!)[0];
  return (
    <div className="card" data-testid="rank-stability">
      <div className="card-head">
        <h2>Rank stability at K = {k}</h2>
        <span className="sub">{resamples} resamples</span>
      </div>
      <p className="small">
        <strong className="tabular">
          {firm} of {top.length}
        </strong>{' '}
        top-{k} tools stay in the top {k} in at least 95% of resamples.
        {shakiest.topKShare! < 0.95 && (
          <>
            {' '}
            Least stable: <span className="mono">{shakiest.tool}</span> ({fmtShare(shakiest.topKShare)}).
          </>
        )}
        {challenger && challenger.topKShare! > 0.05 && (
          <>
            {' '}
            Closest outside: <span className="mono">{challenger.tool}</span> ({fmtShare(challenger.topKShare)}).
          </>
        )}
      </p>
    </div>
  );
}
