// Tool analytics of a task (issue 40): per tool, how often it was offered (exposed), how often the answer
// had its evidence (scored: it was called and its output was there to remove), its mean I with the
// ranking's interval, what its definition costs in prompt tokens on every request, and a flag — never
// used (offered, never any evidence) or never relied on (its interval lies at or below zero). The prune
// list observability tools are asked for, here backed by the attribution scores.
import type { RankingData } from '../../shared/api';
import { ownValue } from '../../shared/trace/own-record';
import { fmtInt, fmtSigned } from '../format';
import { useStudio } from '../store/react';

export function ToolAnalytics({ task, ranking }: { task: string; ranking: RankingData }) {
  // The budget's token counts when the Budget view has loaded them (read from the cache, never fetched here).
  const budget = useStudio((s) => s.budgets[task]?.value);
  const tokens = (tool: string): number | undefined => ownValue(budget?.toolSchemaTokens, tool);
  const rows = [
    ...ranking.rows.map((r) => ({
      tool: r.tool,
      offered: r.exposed,
      scored: r.n,
      mean: r.mean,
      lo: r.lo,
      hi: r.hi,
      flag: r.hi <= 0 ? 'never relied on' : r.lo > 0 ? 'relied on' : 'uncertain',
    })),
    ...ranking.unscored.map((tool) => ({ tool, offered: null, scored: 0, mean: null, lo: null, hi: null, flag: 'never used' })),
  ];
  const prune = rows.filter((r) => r.flag === 'never used' || r.flag === 'never relied on');
  const saved = prune.reduce((n, r) => n + (tokens(r.tool) ?? 0), 0);
  return (
    <div className="card" style={{ marginTop: 14 }} data-testid="tool-analytics">
      <div className="card-head">
        <h2>Tool analytics</h2>
        <span className="sub">
          {prune.length === 0
            ? 'every tool was relied on at least once'
            : `prune list: ${prune.length} tool${prune.length === 1 ? '' : 's'} never used or never relied on${budget ? `, ${fmtInt(saved)} definition tokens per request` : ''}`}
        </span>
      </div>
      <div className="table-wrap">
        <table className="table small">
          <thead>
            <tr>
              <th>Tool</th>
              <th className="num" title="requests whose menu offered the tool">
                Offered
              </th>
              <th className="num" title="requests whose answer had the tool's evidence (it was called and its output removable)">
                With evidence
              </th>
              <th className="num">Mean I [{Math.round(ranking.level * 100)}% interval]</th>
              <th className="num" title="tokens of its definition, paid on every request it is offered">
                Definition tokens
              </th>
              <th>Flag</th>
            </tr>
          </thead>
          <tbody>
            {rows.map((r) => (
              <tr key={r.tool} data-tool={r.tool} data-flag={r.flag}>
                <td className="mono">{r.tool}</td>
                <td className="num">{r.offered === null ? '—' : fmtInt(r.offered)}</td>
                <td className="num">
                  {fmtInt(r.scored)}
                  {r.offered ? <span className="muted"> ({Math.round((100 * r.scored) / r.offered)}%)</span> : null}
                </td>
                <td className="num tabular">{r.mean === null ? '—' : `${fmtSigned(r.mean, 3)} [${fmtSigned(r.lo, 3)}, ${fmtSigned(r.hi, 3)}]`}</td>
                <td className="num">{tokens(r.tool) === undefined ? '—' : fmtInt(tokens(r.tool))}</td>
                <td>
                  <span className={`pill ${r.flag === 'relied on' ? 'good' : r.flag === 'uncertain' ? '' : 'warn'}`}>{r.flag}</span>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </div>
  );
}
