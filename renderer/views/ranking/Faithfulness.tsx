// The Ranking view's faithfulness check card: the top-K removed together against random, and the job that measures it.
import type { RankingData } from '../../../shared/api';
import { faithfulnessVerdict } from '../../../shared/lots/faithfulness';
import { parseRunKey } from '../../../shared/project/scores';
import { useViewOnly, VIEW_ONLY_REASON } from '../../components/ViewOnly';
import { fmtPercent, fmtScore } from '../../format';
import { useStudio } from '../../store/react';

/** The faithfulness check: each request loses its top-K tools together (or K random ones); a ranking that
 * found what the answers rely on loses much more likelihood than random. */
export function Faithfulness({ ranking }: { ranking: RankingData }) {
  const job = useStudio((s) =>
    s.jobs.find((j) => j.kind === 'faithfulness' && j.task === ranking.task && (j.status === 'running' || j.status === 'queued' || j.status === 'paused')),
  );
  const startFaithfulness = useStudio((s) => s.startFaithfulness);
  const viewOnly = useViewOnly();
  const jobAction = useStudio((s) => s.jobAction);
  const modelPath = useStudio((s) => s.modelPath);
  const navigate = useStudio((s) => s.navigate);
  const points = ranking.faithfulness;
  const k = ranking.k;
  const shown = points.find((p) => p.k === k) ?? points.at(-1);
  const imported = ranking.run != null && parseRunKey(ranking.run) === null; // imported scores (no model to recompute them)
  const model = ranking.checkModel ?? (modelPath.trim() || null);
  const pct = job && job.total > 0 ? Math.min(100, (100 * job.done) / job.total) : 0;
  return (
    <div className="card" data-testid="faithfulness">
      <div className="card-head">
        <h2>Faithfulness check</h2>
        {points.length > 0 && <span className="sub">{points[0]!.draws} random draws per request</span>}
      </div>
      <p className="small text-2" style={{ marginBottom: 6 }}>
        Removes each request's top-K tools <em>together</em> and measures how far the frozen answer's log-likelihood falls, next to what their single scores add
        up to and to the fall when K of the request's tools picked at random go instead. A faithful ranking falls much further than random.
      </p>
      {shown && (
        <p className="small" data-testid="faithfulness-verdict">
          {faithfulnessVerdict({ k: shown.k, n: shown.n, joint: shown.drop, random: shown.random })}
        </p>
      )}
      {points.length > 0 && (
        <div style={{ overflowX: 'auto' }}>
          <table className="table small faithfulness-table" data-testid="faithfulness-table">
            <thead>
              <tr>
                <th className="num">K</th>
                <th className="num" title="mean drop of L(y|h) with the top-K removed together">
                  top-K
                </th>
                <th className="num" title="mean sum of the removed tools' single scores (the additive surrogate)">
                  Σ singles
                </th>
                <th className="num" title="mean drop with K random scoreable tools removed together">
                  random
                </th>
                <th className="num" title="share of requests where the top-K drop exceeds the random drop">
                  beats
                </th>
                <th className="num">n</th>
              </tr>
            </thead>
            <tbody>
              {points.map((p) => (
                <tr
                  key={p.k}
                  className={p.stale ? 'dim' : ''}
                  title={
                    p.stale
                      ? 'measured on an earlier ranking (more requests scored since, or another top-K): run the check again'
                      : `top ${p.k}: ${p.tools.join(', ')}`
                  }
                >
                  <td className="num">
                    {p.k}
                    {p.stale ? '*' : ''}
                  </td>
                  {p.n === 0 ? (
                    <td colSpan={4} className="muted">
                      no request has {p.k} tools with evidence
                    </td>
                  ) : (
                    <>
                      <td className="num">{fmtScore(p.drop, 4)}</td>
                      <td className="num">{fmtScore(p.additive, 4)}</td>
                      <td className="num">{fmtScore(p.random, 4)}</td>
                      <td className="num">{fmtPercent(p.beatsRandom)}</td>
                    </>
                  )}
                  <td className="num">{p.n}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {points.length > 0 && (
        <p className="small muted" style={{ marginTop: 4 }}>
          Drops of the answer's mean log-probability per token. top-K: the request's best-ranked K tools removed together; Σ singles: what their single scores
          add up to; random: K of its tools picked at random; beats: requests where the top-K fell further; n: requests with K tools to remove.
        </p>
      )}
      {points.some((p) => p.stale) && <p className="small muted">* measured on an earlier ranking: run the check again.</p>}
      {job ? (
        <div style={{ marginTop: 8 }} data-testid="faithfulness-job">
          <div
            className={`progress ${job.status}`}
            role="progressbar"
            aria-valuemin={0}
            aria-valuemax={job.total}
            aria-valuenow={job.done}
            aria-label="faithfulness check progress"
          >
            <div style={{ width: `${pct}%` }} />
          </div>
          <div className="btn-row small" style={{ marginTop: 4, justifyContent: 'space-between' }}>
            <span className="muted">{job.status === 'queued' ? 'waiting for the job before it' : `${job.done} / ${job.total} requests`}</span>
            {job.canCancel && (
              <button className="btn small danger" onClick={() => void jobAction(job.id, 'cancel')}>
                Cancel
              </button>
            )}
          </div>
        </div>
      ) : imported ? (
        <p className="small muted">
          These scores were imported: the check recomputes likelihoods with the model that computed them, so score the task here first.
        </p>
      ) : (
        <div className="btn-row" style={{ marginTop: 8 }}>
          <button
            className="btn"
            data-testid="run-faithfulness"
            disabled={viewOnly || !model || k < 1}
            title={
              viewOnly
                ? VIEW_ONLY_REASON
                : model
                  ? `with ${model}`
                  : 'The model file this run was scored with is not on this machine: pick it on the Models view'
            }
            onClick={() =>
              void startFaithfulness({
                task: ranking.task,
                ...(ranking.run ? { run: ranking.run } : {}),
                ks: [k],
                ...(ranking.checkModel ? {} : model ? { model } : {}),
              })
            }
          >
            Run check at K = {k}
          </button>
          {!model && !viewOnly && (
            <button className="btn ghost" onClick={() => navigate({ view: 'models' })}>
              Pick the model…
            </button>
          )}
        </div>
      )}
    </div>
  );
}
