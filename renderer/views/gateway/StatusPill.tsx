// The Gateway view's status pill of one gateway: running, upstream down, failed, lost or stopped.
import type { GatewayInfo } from '../../../shared/api';
import { fmtTime } from '../../format';
import { ago, clock } from './format';

export function StatusPill({ gateway, now }: { gateway: GatewayInfo; now: string }) {
  if (gateway.status === 'running' && gateway.upstreamDown)
    return (
      <span className="pill bad" data-testid="gateway-upstream-down" title={gateway.upstreamFailures?.last}>
        ✕ upstream down: not serving
      </span>
    );
  if (gateway.status === 'running')
    return <span className={`pill ${gateway.stopping ? 'warn' : 'good'}`}>{gateway.stopping ? 'stopping: committing its batch' : 'running'}</span>;
  if (gateway.failure !== null)
    return (
      <span className="pill bad" title={gateway.failure}>
        ✕ failed, stopped {clock(gateway.stoppedAt ?? gateway.updatedAt, now)}
      </span>
    );
  if (gateway.status === 'lost')
    return (
      <span className="pill warn" title={`its record was last rewritten ${fmtTime(gateway.updatedAt)}; its process is gone or its heartbeat stopped`}>
        stopped (not seen since {clock(gateway.updatedAt, now)}, {ago(gateway.updatedAt, now)})
      </span>
    );
  return <span className="pill">stopped {clock(gateway.stoppedAt ?? gateway.updatedAt, now)}</span>;
}
