// What one LLM span saw and said: input messages, output messages, menu, model. Reads, in order of
// preference, OTel GenAI (`gen_ai.input.messages`), OpenInference (`llm.input_messages.N.message.…`),
// OpenLLMetry's indexed `gen_ai.prompt.N.…`, the deprecated per-message events, and Langfuse input/output.
import type { ToolDef } from '../../trace/schema';
import type { ConvItem } from '../conversation';
import { anyToolDef, toolDef, toolDefsOf } from '../tools';
import type { SpanRecord } from '../types';
import { contentText, idOf, isObj, str, tryJson, type Obj } from '../values';
import { indexed } from './attributes';
import { itemsOf, messageItem, messagesValue } from './messages';
import { GENAI_CONTENT_EVENT } from './sources';

export interface LlmExchange {
  input: ConvItem[];
  output: ConvItem[];
  tools: ToolDef[];
  model?: string;
}

const LLM_OPERATIONS = new Set(['chat', 'text_completion', 'generate_content', 'completion']);

export function isLlmSpan(s: SpanRecord): boolean {
  const a = s.attributes;
  if (s.observation) return s.observation.type === 'GENERATION';
  const op = str(a['gen_ai.operation.name']);
  if (op && LLM_OPERATIONS.has(op)) return true;
  if (a['openinference.span.kind'] === 'LLM') return true;
  if (s.fromLogs && s.events.some((e) => GENAI_CONTENT_EVENT.test(e.name))) return true;
  return a['gen_ai.input.messages'] !== undefined || a['gen_ai.prompt.0.role'] !== undefined || a['llm.input_messages.0.message.role'] !== undefined;
}

export function llmExchange(s: SpanRecord): LlmExchange {
  const a = s.attributes;
  const details = s.events.find((e) => e.name === 'gen_ai.client.inference.operation.details')?.attributes ?? {};
  const model =
    str(a['gen_ai.request.model']) ??
    str(a['gen_ai.response.model']) ??
    str(a['llm.model_name']) ??
    s.observation?.model ??
    str(details['gen_ai.request.model']) ??
    str(details['gen_ai.response.model']);
  if (s.observation) return { ...langfuseExchange(s.observation.input, s.observation.output), model };
  const tools = toolsOf(a);
  const genIn = messagesValue(a['gen_ai.input.messages'] ?? details['gen_ai.input.messages']);
  const genOut = messagesValue(a['gen_ai.output.messages'] ?? details['gen_ai.output.messages']);
  if (genIn || genOut) {
    const input = itemsOf(genIn ?? []);
    const instructions = a['gen_ai.system_instructions'] ?? details['gen_ai.system_instructions'];
    if (instructions !== undefined) {
      const text = contentText(messagesValue(instructions) ?? instructions);
      if (text) input.unshift({ role: 'system', text });
    }
    return { input, output: itemsOf(genOut ?? [], 'assistant'), tools, model };
  }
  const oiIn = indexed(a, 'llm.input_messages.');
  const oiOut = indexed(a, 'llm.output_messages.');
  if (oiIn.length || oiOut.length)
    return { input: oiIn.map((m) => openInferenceItem(m, 'user')), output: oiOut.map((m) => openInferenceItem(m, 'assistant')), tools, model };
  const legacyIn = indexed(a, 'gen_ai.prompt.');
  const legacyOut = indexed(a, 'gen_ai.completion.');
  if (legacyIn.length || legacyOut.length)
    return { input: legacyIn.map(legacyItem), output: legacyOut.map((m) => legacyItem({ role: 'assistant', ...m })), tools, model };
  return { ...eventExchange(s), tools, model };
}

function toolsOf(a: Obj): ToolDef[] {
  const out: ToolDef[] = [];
  const defs = a['gen_ai.tool.definitions'];
  if (defs !== undefined) out.push(...toolDefsOf(messagesValue(defs) ?? defs));
  for (const t of indexed(a, 'llm.tools.')) {
    const schema = t['tool.json_schema'];
    const parsed = typeof schema === 'string' ? tryJson(schema) : { ok: true as const, value: schema };
    const def = parsed.ok ? anyToolDef(parsed.value) : undefined;
    if (def) out.push(def);
  }
  for (const f of indexed(a, 'llm.request.functions.')) {
    const def = toolDef(f.name, f.description, f.parameters);
    if (def) out.push(def);
  }
  return out;
}

/** OpenInference: `message.role`, `message.content` / `message.contents.N.message_content.text`, `message.tool_calls.K.tool_call.…`. */
function openInferenceItem(m: Obj, defaultRole: string): ConvItem {
  const contents = indexed(m, 'message.contents.').map((c) => {
    const type = str(c['message_content.type']);
    return str(c['message_content.text']) ?? (type ? `[${type}]` : '');
  });
  const content = m['message.content'] !== undefined ? contentText(m['message.content']) : contents.join('\n');
  const toolCalls = indexed(m, 'message.tool_calls.').map((tc) => ({
    id: idOf(tc['tool_call.id']),
    function: { name: tc['tool_call.function.name'], arguments: tc['tool_call.function.arguments'] },
  }));
  const fnName = str(m['message.function_call_name']);
  return (
    messageItem(
      {
        role: m['message.role'],
        content,
        tool_calls: toolCalls,
        function_call: fnName ? { name: fnName, arguments: m['message.function_call_arguments_json'] } : undefined,
        tool_call_id: m['message.tool_call_id'],
        name: m['message.name'],
      },
      defaultRole,
    ) ?? { role: 'user', text: content }
  );
}

/** OpenLLMetry: `gen_ai.prompt.N.role`, `.content`, `.tool_calls.K.{id,name,arguments}`, `.tool_call_id`. */
function legacyItem(m: Obj): ConvItem {
  const toolCalls = indexed(m, 'tool_calls.').map((tc) => ({ id: idOf(tc.id), function: { name: tc.name, arguments: tc.arguments } }));
  return (
    messageItem({ role: m.role, content: m.content, tool_calls: toolCalls, tool_call_id: m.tool_call_id, name: m.name }) ?? {
      role: 'user',
      text: contentText(m.content),
    }
  );
}

/** Deprecated events: gen_ai.{system,user,assistant,tool}.message and gen_ai.choice. */
function eventExchange(s: SpanRecord): { input: ConvItem[]; output: ConvItem[] } {
  const input: ConvItem[] = [];
  const output: ConvItem[] = [];
  for (const e of s.events) {
    const m = /^gen_ai\.(system|user|assistant|tool)\.message$/.exec(e.name);
    const at = e.attributes;
    const toolCalls = messagesValue(at.tool_calls) ?? [];
    if (m) {
      const item = messageItem({ role: m[1], content: at.content, tool_calls: toolCalls, tool_call_id: at.id });
      if (item) input.push(item);
    } else if (e.name === 'gen_ai.choice') {
      // One answer per request: further choices (n > 1) are alternatives to the first, not later turns.
      if (typeof at.index === 'number' && at.index > 0) continue;
      const msg = isObj(at.message) ? at.message : typeof at.message === 'string' ? (tryJson(at.message) as { ok: boolean; value?: unknown }).value : at;
      const item = messageItem({ role: 'assistant', ...(isObj(msg) ? msg : { content: msg }) });
      if (item) output.push(item);
    }
  }
  return { input, output };
}

/** Langfuse GENERATION input/output: message arrays, `{messages, tools}`, a prompt string, or a response object. */
function langfuseExchange(inputRaw: unknown, outputRaw: unknown): { input: ConvItem[]; output: ConvItem[]; tools: ToolDef[] } {
  const input = inputRaw;
  const output = outputRaw;
  let tools: ToolDef[] = [];
  let inMessages: unknown[] = [];
  if (Array.isArray(input)) inMessages = input;
  else if (isObj(input)) {
    if (Array.isArray(input.messages)) inMessages = input.messages;
    else if (input.role !== undefined) inMessages = [input];
    tools = toolDefsOf(input.tools);
  } else if (typeof input === 'string') inMessages = [{ role: 'user', content: input }];
  let outMessages: unknown[] = [];
  if (Array.isArray(output)) outMessages = output;
  else if (isObj(output)) {
    const choice = Array.isArray(output.choices) && isObj(output.choices[0]) ? output.choices[0].message : undefined;
    outMessages = [choice ?? { role: 'assistant', ...output }];
  } else if (typeof output === 'string') outMessages = [{ role: 'assistant', content: output }];
  return { input: itemsOf(inMessages), output: itemsOf(outMessages, 'assistant'), tools };
}
