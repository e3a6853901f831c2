// The Ranking view's comparison of two scoring runs of the task: Kendall τ, top-K overlap, the tools that moved most.
import { useEffect, useState } from 'react';
import { useShallow } from 'zustand/react/shallow';
import { fmtSigned, plural, runLabel } from '../../format';
import { comparisonKey } from '../../store/history-slice';
import { useStudio } from '../../store/react';

/** Two scoring runs of the task (two models, two setups): do they rank its tools alike? (paper C.1) */
export function CompareRuns({ task, run, k }: { task: string; run: string | null; k: number }) {
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
