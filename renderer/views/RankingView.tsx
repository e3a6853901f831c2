// Ranking of a task: Ī_t(s) per tool with support n and a bootstrap interval, a bar chart, rank
// stability at the current K, and the faithfulness check (run from here as a job).
import { useEffect, useMemo, useState } from 'react';
import { useShallow } from 'zustand/react/shallow';
import { createColumnHelper } from '@tanstack/react-table';
import { Bar, BarChart, CartesianGrid, Cell, ErrorBar, ReferenceLine, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import type { RankingData, RankingRow } from '../../shared/api';
import { faithfulnessVerdict } from '../../shared/lots/faithfulness';
import { parseRunKey } from '../../shared/project/scores';
import { DataTable, sortableFeatures } from '../components/DataTable';
import { ToolAnalytics } from './ToolAnalytics';
import { Empty } from '../components/Empty';
import { fmtPercent, fmtScore, fmtShare, fmtSigned, plural, runLabel } from '../format';
import { selectKept } from '../store/draft-slice';
import { useDraft, useStudio } from '../store/react';
import { useRanking } from '../store/use-ranking';
import { useChartColors } from './chart-colors';
import { comparisonKey } from '../store/history-slice';
import { useViewOnly, VIEW_ONLY_REASON } from '../components/ViewOnly';

type Row = RankingRow & { kept: boolean };
const helper = createColumnHelper<typeof sortableFeatures, Row>();
const columns = [
  helper.accessor('rank', { header: '#', cell: (c) => c.getValue() }),
  helper.accessor('tool', { header: 'Tool', cell: (c) => <span className="mono">{c.getValue()}</span>, sortFn: 'alphanumeric' }),
  helper.accessor('mean', { header: 'Ī', cell: (c) => <span className={c.getValue() >= 0 ? 'pos' : 'neg'}>{fmtSigned(c.getValue(), 4)}</span> }),
  helper.accessor((r) => r.hi - r.lo, {
    id: 'interval',
    header: '95% interval',
    cell: (c) => `${fmtScore(c.row.original.lo, 3)} … ${fmtScore(c.row.original.hi, 3)}`,
  }),
  helper.accessor('n', { header: 'n', cell: (c) => c.getValue() }),
  helper.accessor('exposed', { header: 'exposed', cell: (c) => c.getValue() }),
  helper.accessor((r) => r.topKShare ?? -1, { id: 'stability', header: 'in top-K', cell: (c) => <Stability share={c.row.original.topKShare} /> }),
  helper.accessor((r) => r.meanRank ?? Infinity, { id: 'meanRank', header: 'mean rank', cell: (c) => fmtScore(c.row.original.meanRank, 1) }),
  helper.accessor('kept', { header: 'space', cell: (c) => (c.getValue() ? <span className="pill good">kept</span> : <span className="muted small">—</span>) }),
];
const NUMERIC = new Set(['rank', 'mean', 'interval', 'n', 'exposed', 'stability', 'meanRank']);

export function RankingView() {
  const task = useStudio((s) => s.route.task);
  const { draft } = useDraft(task);
  const ranking = useRanking(task, draft?.k);
  const kept = useStudio((s) => selectKept(s, task));
  const navigate = useStudio((s) => s.navigate);
  const colors = useChartColors();
  const keptSet = useMemo(() => new Set(kept ?? []), [kept]);
  const rows = useMemo<Row[]>(() => (ranking?.rows ?? []).map((r) => ({ ...r, kept: keptSet.has(r.tool) })), [ranking, keptSet]);
  const chartData = useMemo(
    () => rows.map((r) => ({ tool: r.tool, mean: r.mean, err: [r.mean - r.lo, r.hi - r.mean] as [number, number], kept: r.kept })),
    [rows],
  );

  if (!task) return <Empty title="No task selected">Pick a task on the project view.</Empty>;
  if (!ranking) return <p className="muted">Ranking {task}…</p>;
  if (ranking.rows.length === 0) {
    return (
      <Empty
        title="Nothing ranked yet"
        actions={
          <button className="btn primary" onClick={() => navigate({ view: 'jobs' })}>
            Score the project…
          </button>
        }
      >
        The ranking needs attribution scores. Score the task's traces with a local model (Jobs view) or import scores with <code>lots scores import</code>.
      </Empty>
    );
  }
  const chartH = Math.max(180, rows.length * 22 + 40);
  return (
    <div>
      <div className="view-header">
        <div>
          <p className="lede">
            Ī<sub>t</sub>(s) is the mean of I<sub>x</sub>(s) over the requests that exposed <em>and</em> scored the tool (n); a request that did not expose it
            contributes nothing. Interval: {Math.round(ranking.level * 100)}% bootstrap over {plural(ranking.scoredRequests, 'request')} ({ranking.resamples}{' '}
            resamples). "In top-K": how often the tool stays in the top {ranking.k} when the requests are resampled.
          </p>
        </div>
        <span className="muted small">{runLabel(ranking.run)}</span>
      </div>
      <div className="ranking-layout">
        <div className="card chart-card" style={{ maxHeight: 640, overflow: 'auto' }}>
          <div className="card-head">
            <h2>Task scores</h2>
            <span className="sub">kept tools in colour · whiskers: interval</span>
          </div>
          <div style={{ height: chartH }} data-testid="ranking-chart">
            <ResponsiveContainer width="100%" height="100%">
              <BarChart data={chartData} layout="vertical" margin={{ top: 4, right: 24, bottom: 4, left: 8 }}>
                <CartesianGrid horizontal={false} stroke={colors.grid} />
                <XAxis type="number" tick={{ fontSize: 11, fill: colors.text }} stroke={colors.axis} tickFormatter={(v: number) => fmtScore(v, 2)} />
                <YAxis type="category" dataKey="tool" width={150} tick={{ fontSize: 11, fill: colors.text }} stroke={colors.axis} interval={0} />
                <Tooltip formatter={(v) => fmtSigned(Number(v), 4)} contentStyle={colors.tooltip} />
                <ReferenceLine x={0} stroke={colors.axis} />
                <Bar dataKey="mean" name="Ī" isAnimationActive={false}>
                  {chartData.map((d) => (
                    <Cell key={d.tool} fill={d.kept ? (d.mean >= 0 ? colors.pos : colors.neg) : colors.muted} />
                  ))}
                  <ErrorBar dataKey="err" width={4} stroke={colors.text} direction="x" />
                </Bar>
              </BarChart>
            </ResponsiveContainer>
          </div>
        </div>
        <div className="ranking-side">
          <StabilityCard rows={rows} k={ranking.k} resamples={ranking.resamples} />
          <Faithfulness ranking={ranking} />
          <CompareRuns task={task} run={ranking.run} k={ranking.k} />
          {ranking.unscored.length > 0 && (
            <div className="card">
              <div className="card-head">
                <h2>Exposed, never scored</h2>
                <span className="sub">{ranking.unscored.length}</span>
              </div>
              <p className="small text-2" style={{ marginBottom: 6 }}>
                No evidence to remove on any request: not eligible, never added to a space by the rule (you can still add one by hand).
              </p>
              <div className="chips">
                {ranking.unscored.map((t) => (
                  <span key={t} className="chip">
                    {t}
                  </span>
                ))}
              </div>
            </div>
          )}
        </div>
      </div>
      <div className="table-wrap" style={{ marginTop: 14 }}>
        <DataTable columns={columns} data={rows} rowKey={(r) => r.tool} rowClass={(r) => (r.kept ? '' : 'dim')} numeric={NUMERIC} testId="ranking-table" />
      </div>
      <ToolAnalytics task={task} ranking={ranking} />
    </div>
  );
}

function Stability({ share }: { share: number | null }) {
  if (share === null) return <span className="muted">—</span>;
  return (
    <span className="stability" title="share of bootstrap resamples keeping the tool in the top-K">
      <span className="stability-bar">
        <span style={{ width: `${share * 100}%` }} />
      </span>
      {fmtShare(share)}
    </span>
  );
}

/** How firm is the top-K? Tools of the top K that stay there in nearly every resample, and the shakiest one. */
function StabilityCard({ rows, k, resamples }: { rows: Row[]; k: number; resamples: number }) {
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

/** The faithfulness check: each request loses its top-K tools together (or K random ones); a ranking that
 * found what the answers rely on loses much more likelihood than random. */
function Faithfulness({ ranking }: { ranking: RankingData }) {
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

/** Two scoring runs of the task (two models, two setups): do they rank its tools alike? (paper C.1) */
function CompareRuns({ task, run, k }: { task: string; run: string | null; k: number }) {
  const runs = useStudio(
    useShallow((s) => {
      const mine = new Set(s.project?.tasks.find((t) => t.task === task)?.runs ?? []);
      return (s.project?.runs ?? []).filter((r) => mine.has(r.run));
    }),
  );
  const others = runs.filter((r) => r.run !== run);
  const [other, setOther] = useState<string>('');
  const chosen = others.some((r) => r.run === other) ? other : (others[0]?.run ?? '');
  const comparison = useStudio((s) => (run && chosen ? s.comparisons[comparisonKey(task, run, chosen, k)] : undefined));
  const load = useStudio((s) => s.loadComparison);
  const version = useStudio((s) => s.dataVersion);
  useEffect(() => {
    if (run && chosen) void load(task, run, chosen, k);
  }, [task, run, chosen, k, load, version]);
  if (!run || others.length === 0) return null;
  return (
    <div className="card" data-testid="compare-runs">
      <div className="card-head">
        <h2>Compare with another run</h2>
        <span className="sub">reuse across models</span>
      </div>
      <label className="small">
        against{' '}
        <select value={chosen} onChange={(e) => setOther(e.target.value)} aria-label="Run to compare with">
          {others.map((r) => (
            <option key={r.run} value={r.run}>
              {runLabel(r.run, r.model)}
            </option>
          ))}
        </select>
      </label>
      {comparison && (
        <>
          <p className="small" style={{ marginTop: 8 }} data-testid="compare-summary">
            Kendall τ <strong className="tabular">{comparison.tau === null ? '—' : comparison.tau.toFixed(3)}</strong> over {plural(comparison.common, 'tool')}{' '}
            both runs scored; top-{comparison.k} overlap{' '}
            <strong className="tabular">
              {Math.round(comparison.topKOverlap * comparison.k)} of {comparison.k}
            </strong>
            .
          </p>
          {comparison.moved.length > 0 ? (
            <table className="table small">
              <thead>
                <tr>
                  <th>moved most</th>
                  <th className="num">this run</th>
                  <th className="num">other</th>
                </tr>
              </thead>
              <tbody>
                {comparison.moved.slice(0, 5).map((m) => (
                  <tr key={m.tool}>
                    <td className="mono">{m.tool}</td>
                    <td className="num tabular">
                      #{m.rankA} ({fmtSigned(m.meanA, 3)})
                    </td>
                    <td className="num tabular">
                      #{m.rankB} ({fmtSigned(m.meanB, 3)})
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          ) : (
            <p className="small muted">Both runs order the common tools the same way.</p>
          )}
          {(comparison.onlyA.length > 0 || comparison.onlyB.length > 0) && (
            <p className="tiny muted">
              Scored by one run only: {[...comparison.onlyA.map((t) => `${t} (this)`), ...comparison.onlyB.map((t) => `${t} (other)`)].join(', ')}.
            </p>
          )}
        </>
      )}
    </div>
  );
}
