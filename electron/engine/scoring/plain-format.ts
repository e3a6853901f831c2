// The plain transcript format for models without a chat template (the generated fixtures, base
// models). Deterministic and readable; the answer is the text after the last "Assistant: ".
//
//   <system>
//
//   Tools:
//   - name: description {parameters JSON}
//
//   User: <request>
//   <Tool>: <output>                 (lines steps and unpaired observations)
//   Assistant: <text>
//   Call: name(<arguments JSON>)
//   Result name: <content>
//   Assistant: <answer>
//
// A turn whose target is a call ends, when scored, with "Assistant: " and then the call
// (`plainCallTarget`); as an earlier turn, its call is a step like any other and no answer line follows.
import type { ToolCall, Trace, Turn } from '../../../shared/trace/schema';
import { stepsBeforeTarget, targetCall } from '../../../shared/trace/target';
import { deferredMenuText } from '../../../shared/trace/render-hints';
import { formatLines } from './chat-history';

export function plainTranscript(trace: Trace, turnIndex: number, answerText: string): string {
  const parts: string[] = [];
  if (trace.system) parts.push(`${trace.system}\n\n`);
  if (trace.tools.length > 0) {
    const menu = trace.tools.map((t) => `- ${t.name}${t.description ? `: ${t.description}` : ''}${t.parameters ? ` ${JSON.stringify(t.parameters)}` : ''}`);
    parts.push(`Tools:\n${menu.join('\n')}\n\n`);
  }
  const deferred = deferredMenuText(trace);
  if (deferred) parts.push(`${deferred}\n\n`);
  for (let t = 0; t <= turnIndex; t++) {
    const turn = trace.turns[t]!;
    if (t === turnIndex) {
      parts.push(turnText({ ...turn, steps: turn.steps.slice(0, stepsBeforeTarget(turn)) }));
      parts.push(`Assistant: ${answerText}`);
    } else {
      parts.push(turnText(turn));
      if (turn.target !== 'call') parts.push(`Assistant: ${turn.answer}\n`);
    }
  }
  return parts.join('');
}

/** The transcript of turn `turnIndex` followed by its target call: its text, then one `Call:` line per call. */
export function plainCallTarget(trace: Trace, turnIndex: number): string {
  const step = targetCall(trace.turns[turnIndex]!)?.step;
  if (!step) throw new Error(`trace "${trace.id}" turn ${turnIndex} has no call target`);
  const text = step.text ? `${step.text}\n` : '';
  return plainTranscript(trace, turnIndex, text + step.calls.map(callLine).join('\n'));
}

function callLine(c: ToolCall): string {
  return `Call: ${c.name}(${c.arguments === undefined ? '' : JSON.stringify(c.arguments)})`;
}

function turnText(turn: Turn): string {
  let out = `User: ${turn.request}\n`;
  for (const step of turn.steps) {
    switch (step.kind) {
      case 'lines':
        out += `${formatLines(step)}\n`;
        break;
      case 'call':
        if (step.text) out += `Assistant: ${step.text}\n`;
        for (const c of step.calls) out += `${callLine(c)}\n`;
        break;
      case 'observation':
        out += `Result ${step.name}: ${step.content}\n`;
        break;
      case 'message':
        out += `${step.role === 'assistant' ? 'Assistant' : step.role === 'user' ? 'User' : 'System'}: ${step.content}\n`;
        break;
    }
  }
  return out;
}
