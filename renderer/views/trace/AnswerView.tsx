// The frozen answer with its scored tokens, shaded by the per-token log-prob change without the picked tool.
import { UNSCORED_REASON_TEXT, type TurnScoreDetail, type UnscoredReason } from '../../../shared/project/scores';
import type { CallStep } from '../../../shared/trace/schema';
import { fmtScore, fmtSigned } from '../../format';
import { TokenDeltaChart } from '../TokenDeltaChart';
import { CallList } from './CallList';

export function AnswerView({
  answer,
  call,
  unscored,
  gold,
  detail,
  tool,
  span,
  scored,
}: {
  answer: string;
  /** The call step that is the frozen target, when the turn ends in a call. */
  call?: CallStep;
  unscored?: UnscoredReason;
  gold?: string;
  detail: TurnScoreDetail | null;
  tool: string | null;
  span?: string;
  scored: boolean;
}) {
  const tokens = detail?.tokens;
  const base = detail?.baseTokenLogprobs;
  const removed = tool ? detail?.removedTokenLogprobs?.[tool] : undefined;
  const deltas = tokens && base && removed && removed.length === base.length ? base.map((b, i) => b - removed[i]!) : null;
  const maxAbs = deltas ? Math.max(1e-9, ...deltas.map(Math.abs)) : 1;
  return (
    <div className="block answer" data-testid="frozen-answer">
      <div className="block-title">
        Frozen answer{call ? ': a call' : ''}{' '}
        <span className="muted tiny">
          (teacher-forced, never regenerated{call ? ', scored in the model’s own tool-call format' : span ? ` · scored span: ${span}` : ''})
        </span>
      </div>
      {unscored && (
        <div className="callout warn small" data-testid="turn-unscored" style={{ marginBottom: 6 }}>
          This turn is not scored: {UNSCORED_REASON_TEXT[unscored]}.
        </div>
      )}
      {call && (
        <div style={{ marginBottom: 6 }}>
          {call.text && <div className="msg-text">{call.text}</div>}
          <CallList step={call} tool={tool} />
        </div>
      )}
      {gold !== undefined && (
        <div className="muted small" style={{ marginBottom: 4 }}>
          gold answer: <span className="mono">{gold}</span>
        </div>
      )}
      {tokens && tokens.length > 0 ? (
        <>
          <div className="answer-tokens">
            {tokens.map((t, i) => {
              const d = deltas?.[i];
              const style = d !== undefined ? { background: tokenColour(d / maxAbs) } : undefined;
              return (
                <span
                  key={i}
                  className="tok scored"
                  style={style}
                  title={`${JSON.stringify(t)}  log p = ${fmtScore(base?.[i], 3)}${removed ? `  without ${tool}: ${fmtScore(removed[i], 3)}  Δ = ${fmtSigned(d, 3)}` : ''}`}
                >
                  {t}
                </span>
              );
            })}
          </div>
          <div className="muted tiny" style={{ marginTop: 6 }}>
            Underlined: the scored tokens.{' '}
            {deltas ? (
              <>Shaded by Δ log p = log p(full) − log p(without {tool}): blue where the tool's evidence made the token more likely.</>
            ) : tool ? (
              <>No per-token log-probs for {tool} in this run.</>
            ) : (
              <>Pick a tool on the menu to see how removing its evidence changes each token.</>
            )}
          </div>
          {detail && (
            <div className="small tabular" style={{ marginTop: 6 }}>
              L(y | h) = {fmtScore(detail.base, 4)}
              {tool && detail.removed[tool] !== undefined && (
                <>
                  {' '}
                  · L(y | h<sup>−{tool}</sup>) = {fmtScore(detail.removed[tool], 4)} · I = {fmtSigned(detail.base - detail.removed[tool], 4)}
                </>
              )}
            </div>
          )}
          {deltas && tool && <TokenDeltaChart tokens={tokens} deltas={deltas} maxAbs={maxAbs} tool={tool} />}
        </>
      ) : unscored ? null : (
        <>
          {!call && (
            <div className="msg-text answer-text">
              <span className="tok scored">{answer}</span>
            </div>
          )}
          <div className="muted tiny" style={{ marginTop: 6 }}>
            {detail ? (
              <>
                L(y | h) = {fmtScore(detail.base, 4)}
                {tool && detail.removed[tool] !== undefined ? (
                  <>
                    {' '}
                    · without {tool}: {fmtScore(detail.removed[tool], 4)}
                  </>
                ) : null}
                . Per-token log-probs were not stored by this run.
              </>
            ) : scored ? (
              'These scores carry no per-token detail (imported scores, or a run that did not keep it).'
            ) : answer === '' && !call ? (
              <span data-testid="turn-never-scoreable">Can never be scored: the recorded answer is empty (nothing for a model to be teacher-forced on).</span>
            ) : (
              'Not scored yet: the whole answer is the scored span by default.'
            )}
          </div>
        </>
      )}
    </div>
  );
}

function tokenColour(t: number): string {
  const a = Math.min(1, Math.abs(t)) * 0.55;
  return t >= 0 ? `rgba(33, 102, 172, ${a})` : `rgba(214, 96, 24, ${a})`;
}
