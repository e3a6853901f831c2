// Ranking of a task: Ī_t(s) per tool with support n and a bootstrap interval, a bar chart, rank
// stability at the current K, and the faithfulness check (run from here as a job).
import { useMemo } from 'react';
import { Bar, BarChart, CartesianGrid, Cell, ErrorBar, ReferenceLine, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import { DataTable } from '../components/DataTable';
import { ToolAnalytics } from './ToolAnalytics';
import { Empty } from '../components/Empty';
import { fmtScore, fmtSigned, plural, runLabel } from '../format';
import { selectKept } from '../store/draft-slice';
import { useDraft, useStudio } from '../store/react';
import { useRanking } from '../store/use-ranking';
import { useChartColors } from './chart-colors';
import { columns, NUMERIC, type Row } from './ranking/columns';
import { CompareRuns } from './ranking/CompareRuns';
import { Faithfulness } from './ranking/Faithfulness';
import { StabilityCard } from './ranking/StabilityCard';

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
