// The Trace view's body: the trace's card and menu on the side; the intervention note, the steps and the frozen answer.
import { useMemo } from 'react';
import { scoreableTools, type RemovedStep } from '../../../shared/trace/interventions';
import type { StoredScore } from '../../../shared/project/scores';
import type { Trace } from '../../../shared/trace/schema';
import { stepsBeforeTarget, targetCall } from '../../../shared/trace/target';
import { fmtSigned, runLabel } from '../../format';
import { ownValue } from '../../../shared/trace/own-record';
import { INTERVENTION_LABEL, interventionOf, previewIntervention } from '../trace-intervention';
import { AnswerView } from './AnswerView';
import { Block } from './Block';
import { StepView } from './StepView';

interface BodyProps {
  trace: Trace;
  score: StoredScore | null;
  turn: number;
  tool: string | null;
  onTool(tool: string | null): void;
  onTurn(turn: number): void;
}

export function TraceBody({ trace, score, turn, tool, onTool, onTurn }: BodyProps) {
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
