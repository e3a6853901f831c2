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
import type { Trace, Turn } from '../../../shared/trace/schema';
import { formatLines } from './chat-history';

export function plainTranscript(trace: Trace, turnIndex: number, answerText: string): string {
  const parts: string[] = [];
  if (trace.system) parts.push(`${trace.system}\n\n`);
  if (trace.tools.length > 0) {
    const menu = trace.tools.map((t) => `- ${t.name}${t.description ? `: ${t.description}` : ''}${t.parameters ? ` ${JSON.stringify(t.parameters)}` : ''}`);
    parts.push(`Tools:\n${menu.join('\n')}\n\n`);
  }
  for (let t = 0; t <= turnIndex; t++) {
    const turn = trace.turns[t]!;
    parts.push(turnText(turn));
    parts.push(`Assistant: ${t === turnIndex ? answerText : `${turn.answer}\n`}`);
  }
  return parts.join('');
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
        for (const c of step.calls) out += `Call: ${c.name}(${c.arguments === undefined ? '' : JSON.stringify(c.arguments)})\n`;
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
