// The Gateway view's table of one gateway's requests per task, with the space served and the deferred tools called.
import type { GatewayInfo, GatewayTaskRow } from '../../../shared/api';
import { fmtInt, plural } from '../../format';

export function TaskTable({ gateway: g }: { gateway: GatewayInfo }) {
  if (g.tasks.length === 0) return <p className="small muted">No request yet.</p>;
  // The column of upstream failures only when there are some (the table fits a 1280-wide window).
  const anyFailed = g.tasks.some((t) => t.failed > 0);
  return (
    <div className="table-wrap gateway-tasks">
      <table className="table" data-testid="gateway-tasks">
        <thead>
          <tr>
            <th>Task</th>
            <th>Space served</th>
            <th className="num">Requests</th>
            <th className="num" title="passed through: requests of a task without an approved space, or without a task: their whole menu was forwarded">
              Passed
            </th>
            <th className="num" title="tools cut from the menus, summed over the requests">
              Tools hidden
            </th>
            <th title="deferred tools the answers called (they stay callable), from the traces the gateway recorded">Deferred, called</th>
            <th className="num" title="the hidden tools' JSON and the deferred tools' schemas, at four characters a token">
              ~Tokens saved
            </th>
            <th className="num" title="prompt tokens sent: usage.prompt_tokens as the upstream reported it">
              Prompt tokens
            </th>
            {anyFailed && (
              <th className="num" title="requests the upstream answered with an error">
                Failed
              </th>
            )}
          </tr>
        </thead>
        <tbody>
          {g.tasks.map((t) => {
            const passed = t.task === null ? t.requests : t.noSpace;
            return (
              <tr key={t.task ?? '\u0000'} data-task={t.task ?? ''}>
                <td>
                  {t.task ?? (
                    <span className="muted" title="no x-lots-task header, no metadata.lots_task, and the project is not routed (lots route)">
                      no task
                    </span>
                  )}
                </td>
                <td>{t.spaceVersion !== undefined ? <SpaceServed task={t} /> : t.task === null ? '—' : <span className="pill warn">none approved</span>}</td>
                <td className="num">{fmtInt(t.requests)}</td>
                <td className="num">{passed > 0 ? fmtInt(passed) : '—'}</td>
                <td className="num">{fmtInt(t.toolsHidden)}</td>
                <td>
                  <DeferredCalls task={t} />
                </td>
                <td className="num">{t.tokensSaved > 0 ? `~${fmtInt(t.tokensSaved)}` : '0'}</td>
                <td className="num">{g.kind === 'mcp' ? '—' : fmtInt(t.promptTokens)}</td>
                {anyFailed && <td className="num">{t.failed > 0 ? fmtInt(t.failed) : '—'}</td>}
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}

/** The version served and its three states: "v2 · 2 pinned · 1 deferred · 5 hidden". */
function SpaceServed({ task: t }: { task: GatewayTaskRow }) {
  return (
    <span className="gateway-space" data-testid="gateway-space-states">
      <span className="pill good">v{t.spaceVersion}</span>
      {t.states && (
        <span className="tiny text-2 gateway-space-states">
          {' '}
          {t.states.pinned} pinned · {t.states.deferred} deferred · {t.states.hidden} hidden
        </span>
      )}
    </span>
  );
}

function DeferredCalls({ task: t }: { task: GatewayTaskRow }) {
  const calls = t.calledWhileDeferred ?? [];
  if (calls.length > 0)
    return (
      <span className="gateway-deferred-calls" data-testid="gateway-deferred-calls">
        {calls.map((c, i) => (
          <span key={c.tool}>
            {i > 0 ? ', ' : ''}
            <code>{c.tool}</code> <span className="muted">×{c.traces}</span>
          </span>
        ))}
      </span>
    );
  if (t.recorded === undefined) return <span className="muted">{t.states?.deferred ? 'nothing recorded yet' : '—'}</span>;
  return <span className="muted">{t.deferredServed ? `none in ${plural(t.deferredServed, 'trace')} served with deferred tools` : '—'}</span>;
}
