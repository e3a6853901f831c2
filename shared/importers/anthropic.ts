// Anthropic Messages API requests (optionally with the logged response): `tool_use` / `tool_result`
// blocks pair by id, `is_error` marks failures, server tools keep their results inside the assistant turn.
import type { ConvItem, NCall, NResult } from './conversation';
import { fromDraft, failed } from './record-outcome';
import { pickTask } from './task';
import { toolDefsOf } from './tools';
import type { ImportOptions, RecordFormat, RecordOutcome, SourceRecord } from './types';
import { arr, contentText, idOf, isObj, quote, str, typeName, type Obj } from './values';

export const anthropicFormat: RecordFormat = {
  id: 'anthropic',
  kind: 'record',
  label: 'Anthropic Messages API',
  recognize(value) {
    if (!isObj(value)) return null;
    const req = isObj(value.request) ? value.request : value;
    const blocks = [...arr(req.messages), ...(isObj(value.response) ? [value.response] : [])].some(
      (m) =>
        isObj(m) &&
        Array.isArray(m.content) &&
        m.content.some((b) => isObj(b) && (b.type === 'tool_use' || b.type === 'tool_result' || b.type === 'server_tool_use')),
    );
    if (blocks) return { score: 12, reason: 'messages carry tool_use / tool_result content blocks (tool_use_id)' };
    if (arr(req.tools).some((t) => isObj(t) && isObj(t.input_schema))) return { score: 9, reason: 'tools[] have "input_schema"' };
    if (
      Array.isArray(req.messages) &&
      (req.system !== undefined || value.stop_reason !== undefined || (isObj(value.response) && value.response.type === 'message'))
    ) {
      return { score: 4, reason: 'records have top-level "system" with "messages" (Anthropic request shape)' };
    }
    return null;
  },
  parseRecord: parseAnthropicRecord,
};

export function parseAnthropicRecord(record: SourceRecord, options: ImportOptions): RecordOutcome {
  const value = record.value;
  if (!isObj(value)) return failed(record, options, `expected a JSON object (an Anthropic Messages request), got ${typeName(value)}`);
  const req = isObj(value.request) ? value.request : value;
  const res = isObj(value.response) ? value.response : undefined;
  if (!Array.isArray(req.messages)) return failed(record, options, 'messages: missing (an Anthropic Messages request has a "messages" array)');
  const items: ConvItem[] = [];
  const path = req === value ? 'messages' : 'request.messages';
  for (let i = 0; i < req.messages.length; i++) {
    const problem = addMessage(req.messages[i], `${path}[${i}]`, items);
    if (problem) return failed(record, options, problem);
  }
  if (res && (res.role === 'assistant' || res.type === 'message')) {
    const problem = addMessage({ role: 'assistant', content: res.content }, 'response', items);
    if (problem) return failed(record, options, problem);
  }
  return fromDraft(
    {
      id: idOf(value.id) ?? idOf(res?.id),
      idPrefix: 'anthropic',
      format: 'anthropic',
      system: contentText(req.system) || undefined,
      tools: toolDefsOf(req.tools),
      model: str(req.model) ?? str(res?.model),
      task: pickTask([value, req.metadata, req], options.taskField, undefined),
      items,
    },
    record,
    options,
  );
}

function addMessage(m: unknown, where: string, items: ConvItem[]): string | undefined {
  if (!isObj(m)) return `${where}: expected a message object, got ${typeName(m)}`;
  const role = str(m.role);
  // A system message in the middle of the conversation (the API accepts it, some SDKs and gateways send it):
  // kept where it was, as a system step of the turn (before the first turn it joins the system prompt).
  if (role === 'system') {
    items.push({ role: 'system', text: contentText(m.content) });
    return undefined;
  }
  if (role !== 'user' && role !== 'assistant')
    return `${where}.role: ${role === undefined ? 'missing' : `unknown role ${quote(role)}`} (expected user, assistant or system)`;
  if (typeof m.content === 'string' || m.content === undefined || m.content === null) {
    const text = contentText(m.content);
    items.push(role === 'user' ? { role: 'user', text } : { role: 'assistant', text, calls: [] });
    return undefined;
  }
  if (!Array.isArray(m.content)) return `${where}.content: expected a string or an array of blocks, got ${typeName(m.content)}`;
  return role === 'user' ? addUser(m.content, where, items) : addAssistant(m.content, where, items);
}

function addUser(blocks: unknown[], where: string, items: ConvItem[]): string | undefined {
  const results: NResult[] = [];
  const texts: string[] = [];
  for (let b = 0; b < blocks.length; b++) {
    const block = blocks[b];
    if (isObj(block) && block.type === 'tool_result') {
      const r = resultOf(block, `${where}.content[${b}]`);
      if (typeof r === 'string') return r;
      results.push(r);
    } else texts.push(contentText([block]));
  }
  items.push({ role: 'user', text: texts.join('\n'), results: results.length ? results : undefined });
  return undefined;
}

function addAssistant(blocks: unknown[], where: string, items: ConvItem[]): string | undefined {
  let texts: string[] = [];
  let calls: NCall[] = [];
  let inline: NResult[] = [];
  const flush = (): void => {
    if (texts.length || calls.length || inline.length)
      items.push({ role: 'assistant', text: texts.join('\n'), calls, results: inline.length ? inline : undefined });
    texts = [];
    calls = [];
    inline = [];
  };
  for (let b = 0; b < blocks.length; b++) {
    const block = blocks[b];
    const at = `${where}.content[${b}]`;
    if (!isObj(block)) {
      texts.push(contentText([block]));
      continue;
    }
    const type = str(block.type) ?? '';
    if (type === 'tool_use' || type === 'server_tool_use' || type === 'mcp_tool_use') {
      // Text after a server tool's result starts a new assistant message in our model.
      if (inline.length) flush();
      const name = str(block.name)?.trim();
      if (!name) return `${at}.name: missing tool name`;
      calls.push({ id: idOf(block.id), name, arguments: block.input });
    } else if (type.endsWith('tool_result')) {
      const r = resultOf(block, at);
      if (typeof r === 'string') return r;
      inline.push(r);
    } else if (type === 'text') {
      if (inline.length || calls.length) flush();
      texts.push(str(block.text) ?? '');
    }
    // thinking / redacted_thinking and unknown blocks are not tool evidence or answer text.
  }
  flush();
  return undefined;
}

function resultOf(block: Obj, where: string): NResult | string {
  const callId = idOf(block.tool_use_id);
  if (!callId) return `${where}.tool_use_id: missing (a tool_result block names the tool_use it answers)`;
  const content = block.content;
  // Server tools signal failure with a `*_error` content object rather than is_error.
  const serverError = isObj(content) && typeof content.type === 'string' && content.type.endsWith('_error');
  const isError = block.is_error === true || serverError ? true : block.is_error === false ? false : undefined;
  return { callId, content: contentText(content), isError, where };
}
