// The Scoring server card's check result: one table row per endpoint and the summary callout.
import type { ScoringEndpointCheck, ScoringServerCheck } from '../../../shared/api';
import { fmtInt, fmtTime } from '../../format';

export function CheckResult({ check, edited, onJobs }: { check: ScoringServerCheck; edited: boolean; onJobs: () => void }) {
  return (
    <div style={{ marginTop: 12 }} data-testid="server-check">
      <table className="table small">
        <thead>
          <tr>
            <th>Endpoint</th>
            <th>Status</th>
            <th>Model</th>
            <th>Run key starts with</th>
            <th className="num">Slots</th>
            <th className="num">Context</th>
            <th className="num">Time</th>
          </tr>
        </thead>
        <tbody>
          {check.endpoints.map((e) => (
            <EndpointRows key={e.endpoint} e={e} />
          ))}
        </tbody>
      </table>
      <div className={`callout ${check.problem ? (check.identity ? 'warn' : 'bad') : 'good'} small`} style={{ marginTop: 10 }} data-testid="server-summary">
        {check.problem ? (
          <>
            <strong>{check.identity ? 'Partly usable' : 'Not usable yet'}</strong>: {check.problem}
          </>
        ) : (
          <>
            <strong>Ready</strong>: score jobs started on “the scoring server(s)” will store runs of <span className="mono">{check.identity}</span>.
          </>
        )}
        <div className="muted tiny" style={{ marginTop: 4 }}>
          Checked {fmtTime(check.checkedAt)}
          {edited ? ' · the fields were edited since: press Check to keep and check them' : ''}.{' '}
          {check.identity && (
            <button type="button" className="btn ghost small" onClick={onJobs}>
              Score on them from the Jobs view…
            </button>
          )}
        </div>
      </div>
    </div>
  );
}

function EndpointRows({ e }: { e: ScoringEndpointCheck }) {
  const status = e.reachable ? 'reachable' : e.error?.code === 'SERVER_UNAVAILABLE' ? 'unreachable' : e.model ? 'refused' : 'error';
  return (
    <>
      <tr data-endpoint={e.endpoint} data-reachable={String(e.reachable)}>
        <td className="mono">{e.endpoint}</td>
        <td>
          <span className={`pill ${e.reachable ? 'good' : 'bad'}`}>{status}</span>
        </td>
        <td
          title={
            [e.build ? `build ${e.build}` : '', e.probeTokens !== null ? `/tokenize: ${e.probeTokens} tokens for the probe text` : '']
              .filter(Boolean)
              .join(' · ') || undefined
          }
        >
          {e.model ?? '—'}
        </td>
        <td className="mono tiny" style={{ wordBreak: 'break-all' }}>
          {e.identity ?? '—'}
        </td>
        <td className="num">{e.slots !== null ? fmtInt(e.slots) : '—'}</td>
        <td className="num">{e.contextSize !== null ? fmtInt(e.contextSize) : '—'}</td>
        <td className="num muted">{fmtInt(e.ms)} ms</td>
      </tr>
      {e.error && (
        <tr className="dim">
          <td colSpan={7} className="small" role="status">
            <strong className="mono">{e.error.code}</strong>: <span data-testid="endpoint-error">{e.error.message}</span>
          </td>
        </tr>
      )}
    </>
  );
}
