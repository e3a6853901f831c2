// OpenAI logs: Chat Completions requests (optionally with the logged response) and Responses API
// requests/responses, one per record. Either kind may appear in the same file.
import type { ConvItem, TraceDraft } from './conversation';
import { chatMessagesToItems } from './openai-chat';
import { responseItemsToItems } from './openai-responses';
import { fromDraft } from './record-outcome';
import { pickTask } from './task';
import { toolDefsOf } from './tools';
import type { ImportOptions, RecordFormat, RecordOutcome, SourceRecord } from './types';
import { arr, callLikeBlock, contentText, idOf, isObj, str, typeName, type Obj } from './values';

export const openaiFormat: RecordFormat = {
  id: 'openai',
  kind: 'record',
  label: 'OpenAI Chat Completions / Responses API',
  recognize: recognizeOpenAI,
  parseRecord: parseOpenAIRecord,
};

export function recognizeOpenAI(value: unknown): { score: number; reason: string } | null {
  if (Array.isArray(value)) {
    return value.some((m) => isObj(m) && typeof m.role === 'string' && (Array.isArray(m.tool_calls) || m.role === 'tool'))
      ? { score: 8, reason: 'records are arrays of chat messages with tool_calls / role "tool"' }
      : null;
  }
  if (!isObj(value)) return null;
  const req = requestOf(value);
  const messages = arr(req.messages);
  if (messages.length > 0) {
    // Calls inside content blocks (LLaMA-Factory's tool_call, Anthropic's tool_use): not this format's calls.
    if (messages.some((m) => isObj(m) && callLikeBlock(m.content) !== undefined)) return null;
    const hasTool = messages.some((m) => isObj(m) && (Array.isArray(m.tool_calls) || isObj(m.function_call) || m.role === 'tool' || m.role === 'function'));
    const fnTools = arr(req.tools).some((t) => isObj(t) && isObj(t.function));
    if (hasTool || fnTools) return { score: 10, reason: 'records have "messages" with tool_calls / role "tool" messages (tool_call_id) or tools[].function' };
    const blocks = messages.some(
      (m) => isObj(m) && Array.isArray(m.content) && m.content.some((b) => isObj(b) && typeof b.type === 'string' && b.type.includes('tool_')),
    );
    if (blocks) return null;
    if (messages.every((m) => isObj(m) && typeof m.role === 'string' && typeof m.from !== 'string'))
      return { score: 3, reason: 'records have "messages" with role/content (plain chat, no tool calls)' };
    return null;
  }
  const items = [...arr(req.input), ...arr(responseOf(value)?.output ?? value.output)];
  if (items.some((it) => isObj(it) && typeof it.type === 'string' && (it.type === 'function_call' || it.type === 'function_call_output'))) {
    return { score: 10, reason: 'records have Responses API "input"/"output" items of type function_call / function_call_output (call_id)' };
  }
  const output = responseOf(value)?.output ?? value.output;
  if (
    value.object === 'response' ||
    (isObj(value.response) && value.response.object === 'response') ||
    (typeof req.input === 'string' && Array.isArray(output))
  ) {
    return { score: 6, reason: 'records are Responses API requests/responses' };
  }
  return null;
}

/** The request body: the record itself, or its `request` / `body` (batch input) wrapper. */
function requestOf(value: Obj): Obj {
  if (isObj(value.request)) return value.request;
  if (isObj(value.body) && (Array.isArray(value.body.messages) || value.body.input !== undefined)) return value.body;
  return value;
}

function responseOf(value: Obj): Obj | undefined {
  const r = value.response;
  if (!isObj(r)) return undefined;
  return isObj(r.body) ? r.body : r;
}

export function parseOpenAIRecord(record: SourceRecord, options: ImportOptions): RecordOutcome {
  return fromDraft(openaiDraft(record, options), record, options);
}

function openaiDraft(record: SourceRecord, options: ImportOptions): TraceDraft | string {
  const value = record.value;
  if (Array.isArray(value)) {
    const conv = chatMessagesToItems(value, '');
    if (!conv.ok) return conv.message;
    return { idPrefix: 'openai', format: 'openai-chat', items: conv.items, task: pickTask([], options.taskField, undefined) };
  }
  if (!isObj(value)) return `expected a JSON object (an OpenAI request or response), got ${typeName(value)}`;
  const req = requestOf(value);
  const res = responseOf(value);
  const base = {
    id: idOf(value.id) ?? idOf(value.custom_id) ?? idOf(res?.id),
    idPrefix: 'openai',
    model: str(req.model) ?? str(res?.model) ?? str(value.model),
    task: pickTask([value, req, res], options.taskField, undefined),
  };
  if (Array.isArray(req.messages)) {
    const conv = chatMessagesToItems(req.messages, req === value ? 'messages' : 'request.messages');
    if (!conv.ok) return conv.message;
    const items = conv.items;
    const choice = firstChoiceMessage(res) ?? firstChoiceMessage(value);
    if (choice) {
      const more = chatMessagesToItems([choice], 'choices[0].message');
      if (!more.ok) return more.message;
      items.push(...more.items);
    }
    return { ...base, format: 'openai-chat', tools: toolDefsOf([...arr(req.tools), ...arr(req.functions)]), items };
  }
  const input = req.input;
  const output = res?.output ?? value.output;
  if (input === undefined && !Array.isArray(output)) {
    return 'not an OpenAI record: expected "messages" (Chat Completions) or "input"/"output" items (Responses API)';
  }
  const items: ConvItem[] = [];
  const instructions = contentText(req.instructions ?? res?.instructions);
  if (instructions) items.push({ role: 'system', text: instructions });
  if (typeof input === 'string') items.push({ role: 'user', text: input });
  else if (Array.isArray(input)) {
    const conv = responseItemsToItems(input, 'input', items);
    if (!conv.ok) return conv.message;
  } else if (input !== undefined) return `input: expected a string or an array of items, got ${typeName(input)}`;
  if (Array.isArray(output)) {
    const conv = responseItemsToItems(output, 'output', items);
    if (!conv.ok) return conv.message;
  }
  // A background response still `queued` / `in_progress` has produced nothing: its turn has no answer.
  const status = str(res?.status) ?? (value.object === 'response' ? str(value.status) : undefined);
  const pending = (status === 'queued' || status === 'in_progress') && !arr(output).length;
  // The states a background response was seen in, in file order (its later retrievals folded in).
  const states = Array.isArray(value.responseStates) ? { responseStates: value.responseStates } : {};
  return {
    ...base,
    format: 'openai-responses',
    tools: toolDefsOf(req.tools ?? res?.tools),
    items,
    ...(pending ? { pending: true, meta: { responseStatus: status, ...states } } : Object.keys(states).length ? { meta: states } : {}),
  };
}

function firstChoiceMessage(v: Obj | undefined): unknown {
  if (!v) return undefined;
  const choice = arr(v.choices)[0];
  return isObj(choice) ? choice.message : undefined;
}
