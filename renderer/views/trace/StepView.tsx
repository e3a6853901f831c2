// One step of a trace: a call, an observation, the served tools' output lines, or a message.
import type { Step } from '../../../shared/trace/schema';
import { ObservationContent } from '../../components/ObservationContent';
import { Block } from './Block';
import { CallList } from './CallList';

export function StepView({
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
