// The Gateway view's table of the requests the router left without a task.
import type { GatewayInfo } from '../../../shared/api';
import { plural } from '../../format';
import { clock } from './format';

/** Requests the router left without a task (under its threshold): passed through whole, for `lots route` to make tasks of. */
export function UnroutedTable({ gateway: g, now }: { gateway: GatewayInfo; now: string }) {
  const u = g.unrouted!;
  const recent = [...u.recent].reverse();
  return (
    <details className="gateway-unrouted" data-testid="gateway-unrouted" open={u.count <= 5}>
      <summary className="small">
        <strong>{plural(u.count, 'request')} unrouted</strong>: unlike every task (similarity under the router’s threshold), so passed through with the whole
        menu and recorded without a task. <code>lots route</code> makes tasks of them. {u.count > recent.length ? `The latest ${recent.length}:` : ''}
      </summary>
      <div className="table-wrap">
        <table className="table small" data-testid="gateway-unrouted-table">
          <thead>
            <tr>
              <th>When</th>
              <th>Request</th>
              <th>Nearest task</th>
              <th className="num" title="cosine similarity to the nearest task's centre, against the router's threshold">
                Similarity / threshold
              </th>
            </tr>
          </thead>
          <tbody>
            {recent.map((r, i) => (
              <tr key={`${r.at}${i}`}>
                <td className="nowrap">{clock(r.at, now)}</td>
                <td className="gateway-unrouted-text">{r.text}</td>
                <td>{r.nearest}</td>
                <td className="num tabular">
                  {r.similarity.toFixed(3)} &lt; {r.threshold.toFixed(3)}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </details>
  );
}
