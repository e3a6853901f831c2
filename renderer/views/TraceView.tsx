// The trace inspector: request, menu, every call and observation, the frozen answer with its scored
// tokens; pick a tool to see which evidence its intervention removes and the per-token log-prob change.
import { useEffect, useMemo } from 'react';
import { scoreableTools, type RemovedStep } from '../../shared/trace/interventions';
import { UNSCORED_REASON_TEXT, type StoredScore, type TurnScoreDetail, type UnscoredReason } from '../../shared/project/scores';
import type { CallStep, Step, Trace } from '../../shared/trace/schema';
import { stepsBeforeTarget, targetCall } from '../../shared/trace/target';
import { Empty } from '../components/Empty';
import { fmtScore, fmtSigned, runLabel } from '../format';
import { useStudio } from '../store/react';
import { ownValue } from '../../shared/trace/own-record';
import { ObservationContent } from '../components/ObservationContent';
import { TokenDeltaChart } from './TokenDeltaChart';
import { INTERVENTION_LABEL, interventionOf, previewIntervention } from './trace-intervention';

export function TraceView() {
  const detail = useStudio((s) => s.traceDetail);
  const loading = useStudio((s) => s.traceLoading);
  const routeTrace = useStudio((s) => s.route.trace);
  const tool = useStudio((s) => s.traceTool);
  const turnIndex = useStudio((s) => s.traceTurn);
  const selectTool = useStudio((s) => s.selectTraceTool);
  const selectTurn = useStudio((s) => s.selectTraceTurn);
  const openTrace = useStudio((s) => s.openTrace);
  const routeTool = useStudio((s) => s.route.tool);
  const runPref = useStudio((s) => (s.route.task ? s.runByTask[s.route.task] : undefined));
  const navigate = useStudio((s) => s.navigate);

  // A reload lands here with only the id in the URL.
  useEffect(() => {
    if (!detail && routeTrace && !loading) void openTrace(routeTrace, routeTool ?? null);
  }, [detail, routeTrace, routeTool, loading, openTrace]);
  if (!detail) {
    return loading ? (
      <p className="muted">Opening the trace…</p>
    ) : (
      <Empty
        title="No trace open"
        actions={
          <button className="btn" onClick={() => navigate({ view: 'heatmap' })}>
            Go to the heatmap
          </button>
        }
      >
        Click a cell (or a request) in the heatmap to inspect that trace.
      </Empty>
    );
  }
  const { trace } = detail;
  const score = pickScore(detail.scores, runPref);
  const turn = Math.min(turnIndex, trace.turns.length - 1);
  return <TraceBody trace={trace} score={score} turn={turn} tool={tool} onTool={selectTool} onTurn={selectTurn} />;
}

function pickScore(scores: StoredScore[], run: string | undefined): StoredScore | null {
  if (scores.length === 0) return null;
  return (run ? scores.find((s) => s.run === run) : undefined) ?? scores[scores.length - 1]!;
}

interface BodyProps {
  trace: Trace;
  score: StoredScore | null;
  turn: number;
  tool: string | null;
  onTool(tool: string | null): void;
  onTurn(turn: number): void;
}

function TraceBody({ trace, score, turn, tool, onTool, onTurn }: BodyProps) {
  // The intervention the shown score was computed with (issue 40): the preview shows that one.
  const kind = interventionOf(score);
  const scoreable = useMemo(() => new Set(scoreableTools(trace, turn, kind === 'line' ? 'line' : 'evidence')), [trace, turn, kind]);
  const removal = useMemo(() => (tool && scoreable.has(tool) ? previewIntervention(trace, turn, tool, kind) : null), [trace, turn, tool, kind, scoreable]);
  const removedKey = useMemo(() => new Set((removal?.removed ?? []).map(stepKey)), [removal]);
  const turnDetail = score?.turns?.find((t) => t.turn === turn) ?? null;
  const correct = trace.turns[turn]!.correct;

  return (
    <div className="trace-layout">
      <aside className="trace-side">
        <div className="card">
          <div className="card-head">
            <h2 className="mono ellipsis" title={trace.id}>
              {trace.id}
            </h2>
            {correct === true ? <span className="pill good">correct</span> : correct === false ? <span className="pill bad">wrong</span> : null}
          </div>
          <div className="small text-2">
            task <strong>{trace.task ?? '(unrouted)'}</strong>
            {trace.model ? <> · model {trace.model}</> : null}
            {trace.split ? <> · {trace.split}</> : null}
          </div>
          <div className="small muted" style={{ marginTop: 4 }}>
            {score ? <>scores: {runLabel(score.run, score.modelName)}</> : 'not scored yet'}
          </div>
          {trace.turns.length > 1 && (
            <label className="field" style={{ marginTop: 8 }}>
              <span>Turn scored</span>
              <select value={turn} onChange={(e) => onTurn(Number(e.target.value))}>
                {trace.turns.map((_, i) => (
                  <option key={i} value={i}>
                    turn {i + 1} of {trace.turns.length}
                  </option>
                ))}
              </select>
            </label>
          )}
        </div>
        <div className="card">
          <div className="card-head">
            <h2>Menu</h2>
            <span className="sub">{trace.tools.length} tools · pick one</span>
          </div>
          <ul className="menu-list" role="listbox" aria-label="Tools on the menu">
            {[...trace.tools]
              .sort((a, b) => (ownValue(score?.scores, b.name) ?? -Infinity) - (ownValue(score?.scores, a.name) ?? -Infinity) || (a.name < b.name ? -1 : 1))
              .map((def) => {
                const v = ownValue(score?.scores, def.name);
                const can = scoreable.has(def.name);
                return (
                  <li key={def.name}>
                    <button
                      role="option"
                      aria-selected={tool === def.name}
                      className={`menu-item${tool === def.name ? ' selected' : ''}${can ? '' : ' dim'}`}
                      onClick={() => onTool(tool === def.name ? null : def.name)}
                      title={def.description ?? ''}
                      data-tool={def.name}
                    >
                      <span className="mono ellipsis">{def.name}</span>
                      <span className={`num small ${v === undefined ? 'muted' : v >= 0 ? 'pos' : 'neg'}`}>
                        {v !== undefined ? fmtSigned(v, 3) : can ? 'no score' : 'no evidence'}
                      </span>
                    </button>
                  </li>
                );
              })}
          </ul>
        </div>
      </aside>

      <section className="trace-main">
        {tool && (
          <div className={`callout ${removal ? 'warn' : ''}`} data-testid="intervention-note">
            {removal ? (
              <>
                {score ? 'Scored with intervention' : 'Intervention'} <strong data-testid="intervention-kind">{INTERVENTION_LABEL[kind]}</strong> on{' '}
                <strong className="mono">{tool}</strong>
                {kind === 'reexecute' ? (
                  <>
                    : the request runs again without it; {removal.removed.length === 1 ? '1 line goes' : `${removal.removed.length} lines go`}
                    {removal.changed.size > 0 && (
                      <>
                        {' '}
                        and {removal.changed.size} other tool{removal.changed.size === 1 ? '' : 's'} now answer{removal.changed.size === 1 ? 's' : ''}{' '}
                        differently
                      </>
                    )}{' '}
                    (highlighted)
                    {removal.error && <> — not re-executed here ({removal.error}); the highlighted steps are its evidence</>}.
                  </>
                ) : (
                  <>
                    {' '}
                    removes {removal.removed.length} step
                    {removal.removed.length === 1 ? '' : 's'} (highlighted)
                    {removal.sharedWith.length > 0 && <> — shared with {removal.sharedWith.join(', ')}: a removed message also called them</>}.
                  </>
                )}
                {ownValue(score?.scores, tool) !== undefined && (
                  <>
                    {' '}
                    I = <strong className="tabular">{fmtSigned(ownValue(score?.scores, tool), 4)}</strong>.
                  </>
                )}
              </>
            ) : (
              <>
                <strong className="mono">{tool}</strong> has no evidence before this answer: nothing to remove, so it is not scored here.
              </>
            )}
          </div>
        )}
        {trace.system && (
          <Block title="System">
            <pre className="msg-text">{trace.system}</pre>
          </Block>
        )}
        {trace.turns.slice(0, turn + 1).map((t, ti) => (
          <div key={ti} className="turn">
            <Block title={`Request${trace.turns.length > 1 ? ` · turn ${ti + 1}` : ''}`} tone="request">
              <div className="msg-text">{t.request}</div>
            </Block>
            {(ti === turn ? t.steps.slice(0, stepsBeforeTarget(t)) : t.steps).map((step, si) => (
              <StepView key={si} step={step} turn={ti} index={si} removedKey={removedKey} changed={removal?.changed} tool={tool} />
            ))}
            {ti < turn && t.target !== 'call' && (
              <Block title="Answer (earlier turn, context)">
                <div className="msg-text">{t.answer}</div>
              </Block>
            )}
          </div>
        ))}
        <AnswerView
          answer={trace.turns[turn]!.answer}
          call={targetCall(trace.turns[turn]!)?.step}
          unscored={score?.unscoredTurns?.find((u) => u.turn === turn)?.reason}
          gold={trace.turns[turn]!.gold}
          detail={turnDetail}
          tool={tool}
          span={score?.span}
          scored={score !== null}
        />
      </section>
    </div>
  );
}

function stepKey(r: RemovedStep): string {
  return `${r.turn}.${r.step}${r.line !== undefined ? `.${r.line}` : ''}`;
}

function Block({ title, tone, removed, children }: { title: string; tone?: string; removed?: boolean; children: React.ReactNode }) {
  return (
    <div className={`block${tone ? ` ${tone}` : ''}${removed ? ' removed' : ''}`}>
      <div className="block-title">
        {title}
        {removed && (
          <span className="pill bad" style={{ marginLeft: 8 }}>
            removed by the intervention
          </span>
        )}
      </div>
      {children}
    </div>
  );
}

function StepView({
  step,
  turn,
  index,
  removedKey,
  changed,
  tool,
}: {
  step: Step;
  turn: number;
  index: number;
  removedKey: Set<string>;
  changed?: Map<string, string> | undefined;
  tool: string | null;
}) {
  const removed = removedKey.has(`${turn}.${index}`);
  switch (step.kind) {
    case 'call':
      return (
        <Block title={`Assistant calls ${step.calls.length === 1 ? 'a tool' : `${step.calls.length} tools`}`} tone="call" removed={removed}>
          {step.text && (
            <div className="msg-text" style={{ marginBottom: 6 }}>
              {step.text}
            </div>
          )}
          <CallList step={step} tool={tool} />
        </Block>
      );
    case 'observation':
      return (
        <Block title={`Observation · ${step.name}${step.isError ? ' · error' : ''}`} tone={step.isError ? 'obs error' : 'obs'} removed={removed}>
          <ObservationContent content={step.content} />
          {step.pairing !== 'id' && (
            <div className="muted tiny">
              paired to {step.callId} by {step.pairing}
            </div>
          )}
        </Block>
      );
    case 'lines':
      return (
        <Block title="Tool outputs (one line per served tool)" tone="obs">
          {step.lines.map((l, li) => {
            const gone = removedKey.has(`${turn}.${index}.${li}`);
            const rerun = changed?.get(`${turn}.${index}.${li}`);
            return (
              <div key={li} className={`line-row${gone ? ' removed' : ''}${rerun !== undefined ? ' changed' : ''}${l.tool === tool ? ' focus' : ''}`}>
                <span className="mono line-tool">{l.tool}:</span> <span className="mono">{l.output}</span>
                {gone && (
                  <span className="pill bad" style={{ marginLeft: 8 }}>
                    removed
                  </span>
                )}
                {rerun !== undefined && (
                  <div className="mono small" data-testid="reexecuted-line">
                    <span className="pill warn">re-executed</span> {rerun}
                  </div>
                )}
              </div>
            );
          })}
        </Block>
      );
    case 'message':
      return (
        <Block title={step.role === 'assistant' ? 'Assistant' : step.role === 'user' ? 'User' : 'System'}>
          <div className="msg-text">{step.content}</div>
        </Block>
      );
  }
}

function CallList({ step, tool }: { step: CallStep; tool: string | null }) {
  return (
    <>
      {step.calls.map((c) => (
        <div key={c.id} className={`call${c.name === tool ? ' focus' : ''}`}>
          <span className="mono">
            <strong>{c.name}</strong>
          </span>{' '}
          <span className="muted tiny">{c.id}</span>
          {c.arguments !== undefined && <pre className="args">{typeof c.arguments === 'string' ? c.arguments : JSON.stringify(c.arguments, null, 2)}</pre>}
        </div>
      ))}
    </>
  );
}

function AnswerView({
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
