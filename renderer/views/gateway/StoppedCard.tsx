// The Gateway view's table of the gateways that served the project before and stopped.
import type { GatewayInfo } from '../../../shared/api';
import { fmtInt, fmtTime, plural } from '../../format';
import { StatusPill } from './StatusPill';

export function StoppedCard({ gateways, now }: { gateways: GatewayInfo[]; now: string }) {
  const shown = gateways.slice(0, 8);
  return (
    <div className="card" data-testid="gateway-stopped">
      <div className="card-head">
        <h2>Stopped gateways</h2>
        <span className="sub">{plural(gateways.length, 'gateway')} served this project before</span>
      </div>
      <div className="table-wrap">
        <table className="table">
          <thead>
            <tr>
              <th>Gateway</th>
              <th>Status</th>
              <th className="num">Requests</th>
              <th className="num">Tools hidden</th>
              <th className="num">~Tokens saved</th>
              <th className="num" title="traces it committed into the project">
                Committed
              </th>
              <th className="num" title="traces it held in memory and had not committed when it was last seen: a killed gateway loses them">
                Not committed
              </th>
            </tr>
          </thead>
          <tbody>
            {shown.map((g) => {
              const left = g.batch.queued + g.batch.open;
              return (
                <tr
                  key={g.id}
                  data-gateway={g.id}
                  data-status={g.status}
                  title={`started ${fmtTime(g.startedAt)} · session ${g.id} · ${g.url} → ${g.upstream} · pid ${g.pid} on ${g.hostname}`}
                >
                  <td className="nowrap">{g.kind === 'openai' ? 'OpenAI' : `MCP · task ${g.task ?? '?'}`}</td>
                  <td>
                    <StatusPill gateway={g} now={now} />
                  </td>
                  <td className="num">{fmtInt(g.totals.requests)}</td>
                  <td className="num">{fmtInt(g.totals.toolsHidden)}</td>
                  <td className="num">{g.totals.tokensSaved > 0 ? `~${fmtInt(g.totals.tokensSaved)}` : '0'}</td>
                  <td className="num">{fmtInt(g.batch.committed)}</td>
                  <td className={`num${left > 0 && g.status === 'lost' ? ' bad' : ''}`}>{left > 0 ? fmtInt(left) : '—'}</td>
                </tr>
              );
            })}
          </tbody>
        </table>
      </div>
      {gateways.length > shown.length && <p className="small muted">and {plural(gateways.length - shown.length, 'earlier one')}</p>}
    </div>
  );
}
