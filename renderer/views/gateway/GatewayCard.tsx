// The Gateway view's card of one running gateway: route, totals, upstream failures, tasks, unrouted requests, batch.
import type { GatewayInfo } from '../../../shared/api';
import { fmtInt, fmtTime, plural } from '../../format';
import { ago, clock, kindLabel } from './format';
import { StatusPill } from './StatusPill';
import { TaskTable } from './TaskTable';
import { UnroutedTable } from './UnroutedTable';

export function GatewayCard({ gateway: g, now }: { gateway: GatewayInfo; now: string }) {
  const b = g.batch;
  return (
    <div className="card gateway-card" data-testid="gateway-card" data-gateway={g.id} data-status={g.status}>
      <div className="card-head">
        <h2>
          {kindLabel(g)} <StatusPill gateway={g} now={now} />
        </h2>
        <span className="sub">since {fmtTime(g.startedAt)}</span>
      </div>
      <div className="gateway-route small">
        <span className="mono">{g.url}</span>
        <span className="muted"> → </span>
        <span className="mono">{g.upstream}</span>
        <span className="muted">
          {' '}
          · session {g.id} · pid {g.pid}
          {g.hostname ? ` on ${g.hostname}` : ''}
        </span>
      </div>
      {g.upstreamFailures && <UpstreamFailures gateway={g} now={now} />}
      <div className="stats gateway-stats" data-testid="gateway-totals">
        <Stat label="Requests" value={fmtInt(g.totals.requests)} test="requests" />
        <Stat label="Passed through" value={fmtInt(g.totals.noSpace + (g.tasks.find((t) => t.task === null)?.requests ?? 0))} test="passed" />
        {g.kind === 'openai' && <Stat label="Unrouted" value={fmtInt(g.unrouted?.count ?? 0)} test="unrouted" />}
        <Stat label="Refused" value={fmtInt(g.refused)} test="refused" />
        <Stat label="Tools hidden" value={fmtInt(g.totals.toolsHidden)} test="hidden" />
        {g.kind === 'openai' && <Stat label="Called while deferred" value={fmtInt(g.calledWhileDeferred)} test="deferred-calls" />}
        <Stat label="Prompt tokens saved" value={`~${fmtInt(g.totals.tokensSaved)}`} test="saved" />
        <Stat label="Prompt tokens sent" value={g.kind === 'mcp' ? '—' : fmtInt(g.totals.promptTokens)} test="prompt" />
      </div>
      <TaskTable gateway={g} />
      {g.unrouted && <UnroutedTable gateway={g} now={now} />}
      {g.passedThrough !== null && g.passedThrough > 0 && (
        <p className="small muted" data-testid="gateway-passed-other">
          {plural(g.passedThrough, 'other request')} (not chat, responses or messages: models, embeddings, files…) passed through as sent: nothing cut or
          recorded.
        </p>
      )}
      <div className="gateway-batch small" data-testid="gateway-batch">
        <strong>Recording</strong> <span className="mono">{b.source}</span>: {plural(b.recorded, 'trace')} recorded, {fmtInt(b.queued)} waiting for the next
        commit
        {b.open > 0 ? `, ${plural(b.open, 'answer')} calling tools waiting for the agent’s next request` : ''};{' '}
        {b.files.length > 0 ? (
          <>
            {fmtInt(b.committed)} committed into{' '}
            {b.files.map((f, i) => (
              <span key={f}>
                {i > 0 ? ', ' : ''}
                <code>{f}</code>
              </span>
            ))}
            {b.lastCommitAt ? `, last at ${fmtTime(b.lastCommitAt)}` : ''}
          </>
        ) : (
          'nothing committed yet (every few minutes, and when the gateway stops)'
        )}
        .
      </div>
    </div>
  );
}

function Stat({ label, value, test }: { label: string; value: string; test: string }) {
  return (
    <div className="stat" data-stat={test}>
      <span className="label">{label}</span>
      <span className="value">{value}</span>
    </div>
  );
}

/** The MCP upstream's failures while serving: how many, the restarts that followed, the last reason. */
function UpstreamFailures({ gateway: g, now }: { gateway: GatewayInfo; now: string }) {
  const f = g.upstreamFailures!;
  return (
    <div className={`callout small ${g.upstreamDown ? 'bad' : 'warn'} gateway-upstream-failures`} data-testid="gateway-upstream-failures">
      <strong>
        The upstream failed {f.count === 1 ? 'once' : `${f.count} times`}
        {f.restarts > 0 ? `, started again ${f.restarts === 1 ? 'once' : `${f.restarts} times`}` : ''}
      </strong>
      {g.upstreamDown ? (g.status === 'running' ? ' — not serving until it starts again' : '') : ' — serving again'}. Last, {clock(f.at, now)} ({ago(f.at, now)}
      ): {f.last}
    </div>
  );
}
