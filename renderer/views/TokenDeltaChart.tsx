// The per-token chart under a frozen answer: Δ log p = log p(full) − log p(without the tool) per scored
// token, as bars up (the tool's evidence made the token more likely) or down, with a y axis (its scale
// in nats) and each token's value written under it, so the chart is read without hovering (issue 40).
import { fmtSigned } from '../format';

export function TokenDeltaChart({ tokens, deltas, maxAbs, tool }: { tokens: string[]; deltas: number[]; maxAbs: number; tool: string }) {
  const total = deltas.reduce((a, b) => a + b, 0);
  const top = deltas.reduce((best, d, i) => (Math.abs(d) > Math.abs(deltas[best] ?? 0) ? i : best), 0);
  const label =
    `Per-token change in log-probability without ${tool}, in nats: ` +
    deltas.map((d, i) => `${JSON.stringify(tokens[i])} ${fmtSigned(d, 2)}`).join(', ') +
    `. Sum ${fmtSigned(total, 2)}.`;
  return (
    <figure className="token-chart" role="img" aria-label={label} data-testid="token-delta-chart">
      <div className="token-axis" aria-hidden="true">
        <div className="tick">
          <span>{fmtSigned(maxAbs, 2)}</span>
          <span>0</span>
        </div>
        <div className="tick" style={{ justifyContent: 'flex-end' }}>
          <span>{fmtSigned(-maxAbs, 2)}</span>
        </div>
        <div className="name">Δ log p</div>
      </div>
      <div className="token-strip" aria-hidden="true">
        {deltas.map((d, i) => (
          <div key={i} className="token-col" title={`${JSON.stringify(tokens[i])}: Δ log p = ${fmtSigned(d, 3)}`}>
            <div className="token-up">
              <span className="up" style={{ height: `${d > 0 ? Math.max(1, (d / maxAbs) * 100) : 0}%` }} />
            </div>
            <div className="token-down">
              <span className="down" style={{ height: `${d < 0 ? Math.max(1, (-d / maxAbs) * 100) : 0}%` }} />
            </div>
            <div className="token-text">{visibleToken(tokens[i]!)}</div>
            <div className={`token-value ${d > 0 ? 'pos' : d < 0 ? 'neg' : ''}`} data-testid="token-delta">
              {fmtSigned(d, 2)}
            </div>
          </div>
        ))}
      </div>
      <figcaption className="sr-only">
        Largest change at {JSON.stringify(tokens[top])} ({fmtSigned(deltas[top], 2)}); sum over the answer {fmtSigned(total, 2)} nats.
      </figcaption>
    </figure>
  );
}

export function visibleToken(t: string): string {
  return t.replace(/ /g, '·').replace(/\n/g, '⏎') || '∅';
}
