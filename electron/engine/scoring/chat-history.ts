// Trace turn → node-llama-cpp chat history, so the model's own chat wrapper (or Jinja template)
// renders it exactly as the agent saw it: tool menu as available functions, calls with their
// observations as functionCall items, `lines` steps as `<Tool>: <output>` text in the user part.
// The turn being scored ends with an open model response holding the (possibly partial) answer; where
// its target is a call, its steps stop before that call (chat-template.ts appends the call itself).
import type { ChatHistoryItem, ChatModelFunctionCall, ChatModelFunctions, ChatModelResponse } from 'node-llama-cpp';
import { menuIsInline, renderedSystem } from '../../../shared/trace/render-hints';
import type { Step, Trace, Turn } from '../../../shared/trace/schema';
import { stepsBeforeTarget } from '../../../shared/trace/target';

export interface RenderedChat {
  history: ChatHistoryItem[];
  functions: ChatModelFunctions | undefined;
}

/** History for scoring turn `turnIndex`: turns before it in full, then its request, steps and `answerText`. */
export function turnChatHistory(trace: Trace, turnIndex: number, answerText: string): RenderedChat {
  const history: ChatHistoryItem[] = [];
  const inline = menuIsInline(trace);
  const system = renderedSystem(trace);
  if (system) history.push({ type: 'system', text: system });
  for (let t = 0; t <= turnIndex; t++) {
    const turn = trace.turns[t]!;
    if (t === turnIndex) appendTurn(history, { ...turn, steps: turn.steps.slice(0, stepsBeforeTarget(turn)) }, answerText);
    else appendTurn(history, turn, turn.answer);
  }
  return { history, functions: inline ? undefined : toolFunctions(trace) };
}

export function toolFunctions(trace: Trace): ChatModelFunctions | undefined {
  if (trace.tools.length === 0) return undefined;
  const functions: Record<string, { description?: string; params?: never }> = {};
  for (const tool of trace.tools) {
    functions[tool.name] = {
      ...(tool.description !== undefined ? { description: tool.description } : {}),
      // Tool parameters are JSON Schema; node-llama-cpp documents them as its GBNF subset of it.
      ...(tool.parameters !== undefined ? { params: tool.parameters as never } : {}),
    };
  }
  return functions;
}

/** `<Tool>: <output>` lines (paper B.2's single-step protocol). */
export function formatLines(step: Extract<Step, { kind: 'lines' }>): string {
  return step.lines.map((l) => `${l.tool}: ${l.output}`).join('\n');
}

function appendTurn(history: ChatHistoryItem[], turn: Turn, answer: string): void {
  history.push({ type: 'user', text: turn.request });
  const results = new Map<string, string>();
  for (const step of turn.steps) if (step.kind === 'observation') results.set(step.callId, step.content);
  const paired = new Set<string>();
  for (const step of turn.steps) {
    switch (step.kind) {
      case 'lines':
        appendUserText(history, formatLines(step));
        break;
      case 'call': {
        const response = openResponse(history);
        if (step.text) response.response.push(step.text);
        step.calls.forEach((call, i) => {
          const result = results.get(call.id);
          if (result !== undefined) paired.add(call.id);
          const item: ChatModelFunctionCall = {
            type: 'functionCall',
            name: call.name,
            params: call.arguments ?? {},
            result: result === undefined ? '' : observationValue(result),
            ...(i === 0 ? { startsNewChunk: true } : {}),
          };
          response.response.push(item);
        });
        break;
      }
      case 'observation':
        // An observation with no call in this turn (the call was lost in the source) is still
        // evidence the model read: it is shown as text, like a `lines` entry.
        if (!paired.has(step.callId) && !turnHasCall(turn, step.callId)) appendUserText(history, `${step.name}: ${step.content}`);
        break;
      case 'message':
        if (step.role === 'assistant') openResponse(history).response.push(step.content);
        else if (step.role === 'user') history.push({ type: 'user', text: step.content });
        else history.push({ type: 'system', text: step.content });
        break;
    }
  }
  openResponse(history).response.push(answer);
}

function turnHasCall(turn: Turn, callId: string): boolean {
  return turn.steps.some((s) => s.kind === 'call' && s.calls.some((c) => c.id === callId));
}

/** Observations recorded as JSON objects/arrays render as JSON (as the agent's framework sent them);
 * anything else stays the recorded string. */
function observationValue(content: string): unknown {
  const trimmed = content.trim();
  if (trimmed.startsWith('{') || trimmed.startsWith('[')) {
    try {
      return JSON.parse(trimmed);
    } catch {
      return content;
    }
  }
  return content;
}

function appendUserText(history: ChatHistoryItem[], text: string): void {
  const last = history[history.length - 1];
  if (last && last.type === 'user') last.text = last.text ? `${last.text}\n\n${text}` : text;
  else history.push({ type: 'user', text });
}

function openResponse(history: ChatHistoryItem[]): ChatModelResponse {
  const last = history[history.length - 1];
  if (last && last.type === 'model') return last;
  const response: ChatModelResponse = { type: 'model', response: [] };
  history.push(response);
  return response;
}
