// The tool calls of a call step, the picked tool's calls in focus.
import type { CallStep } from '../../../shared/trace/schema';

export function CallList({ step, tool }: { step: CallStep; tool: string | null }) {
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
