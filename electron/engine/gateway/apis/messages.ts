// Anthropic's Messages API (`POST /v1/messages`): tools `{name, description, input_schema}`, `tool_use` /
// `tool_result` content blocks paired by id, and a stream of named events (`message_start`,
// `content_block_*`, `message_delta`, `message_stop`) assembled here into the message it stands for.
// Deferred tools: `defer_loading: true` plus the tool search tool natively (api.anthropic.com), else
// demoted. Recorded through the Anthropic importer (shared/importers/anthropic.ts).
import { demotedTool, toAnthropicTools, ANTHROPIC_TOOL_SEARCH } from '../../../../shared/export/formats';
import { contentText, isObj, str, type Obj } from '../../../../shared/importers/values';
import type { ToolDef } from '../../../../shared/trace/schema';
import { jsonKind, type Parsed } from '../../../../shared/gateway/chat-request';
import type { AssembledAnswer, GatewayApi, StreamAssembler } from './api';
import { SseEvents } from './sse-events';
import { functionTools } from './cut';

const blocks = (m: unknown): Obj[] => (isObj(m) && Array.isArray(m.content) ? m.content.filter(isObj) : []);

export const messagesApi: GatewayApi = {
  id: 'messages',
  label: "Anthropic's Messages API (POST /v1/messages)",
  route: ['messages'],
  forms: ['native', 'demote', 'hide'],
  defaultForm: (host) => (host.toLowerCase() === 'api.anthropic.com' ? 'native' : 'demote'),
  parse(body: unknown): Parsed<Obj> {
    if (!isObj(body)) return { ok: false, message: `the request body must be a JSON object (a Messages API request), got ${jsonKind(body)}` };
    if (!Array.isArray(body.messages)) return { ok: false, message: `"messages" must be an array of messages, got ${jsonKind(body.messages)}` };
    if (body.tools !== undefined && !Array.isArray(body.tools))
      return { ok: false, message: `"tools" must be an array when given, got ${jsonKind(body.tools)}` };
    return { ok: true, value: body };
  },
  routeText: (body) =>
    (body.messages as unknown[])
      .filter((m): m is Obj => isObj(m) && m.role === 'user')
      .map((m) =>
        typeof m.content === 'string'
          ? m.content
          : blocks(m)
              .filter((b) => b.type === 'text')
              .map((b) => contentText(b.text))
              .join('\n'),
      )
      .filter((t) => t !== '')
      .join('\n'),
  // Server and client tools with a `type` (tool search, bash, web search …) are not function tools of a space.
  tools: (body) => functionTools(body, (t) => t.type === undefined || t.type === 'custom'),
  deferredTool(def: ToolDef, form) {
    if (form === 'native') return toAnthropicTools({ pinned: [], deferred: [def] })[0];
    // The demoted form, as this API writes a tool.
    return { ...demotedTool(def), input_schema: { type: 'object', properties: {} } };
  },
  searchTool: ANTHROPIC_TOOL_SEARCH,
  forcedTool: (body) => (isObj(body.tool_choice) && body.tool_choice.type === 'tool' ? str(body.tool_choice.name) : undefined),
  withTools: ['tool_choice'],
  answer(json): AssembledAnswer {
    if (!isObj(json) || !Array.isArray(json.content)) return { why: 'the answer has no "content" blocks, not recorded' };
    return { answer: json, ...(isObj(json.usage) ? { usage: json.usage } : {}) };
  },
  stream(): StreamAssembler {
    let message: Obj | undefined;
    const content: Obj[] = [];
    const partial = new Map<number, string>();
    let stopped = false;
    let failed: string | undefined;
    const events = new SseEvents((event, data) => {
      if (!isObj(data)) return;
      const type = str(data.type) ?? event;
      const index = typeof data.index === 'number' ? data.index : -1;
      if (type === 'message_start' && isObj(data.message)) message = { ...data.message };
      else if (type === 'content_block_start' && isObj(data.content_block)) content[index] = { ...data.content_block };
      else if (type === 'content_block_delta' && isObj(data.delta) && content[index]) {
        const d = data.delta;
        const b = content[index];
        if (d.type === 'text_delta') b.text = `${str(b.text) ?? ''}${str(d.text) ?? ''}`;
        else if (d.type === 'input_json_delta') partial.set(index, (partial.get(index) ?? '') + (str(d.partial_json) ?? ''));
        else if (d.type === 'thinking_delta') b.thinking = `${str(b.thinking) ?? ''}${str(d.thinking) ?? ''}`;
      } else if (type === 'content_block_stop' && content[index] && partial.has(index)) {
        const text = partial.get(index)!;
        try {
          content[index].input = text.trim() === '' ? {} : (JSON.parse(text) as unknown);
        } catch {
          content[index].input = text;
        }
      } else if (type === 'message_delta' && message) {
        if (isObj(data.delta)) Object.assign(message, data.delta);
        if (isObj(data.usage)) message.usage = { ...(isObj(message.usage) ? message.usage : {}), ...data.usage };
      } else if (type === 'message_stop') stopped = true;
      else if (type === 'error') failed = 'an error event';
    });
    return {
      push: (text) => events.push(text),
      result() {
        events.end();
        if (events.truncated) return { why: 'the streamed answer was over what the gateway keeps, not recorded' };
        if (failed) return { why: `the stream carried ${failed}, not recorded` };
        if (!message || !stopped) return { why: 'the stream ended without message_stop, not recorded' };
        return messagesApi.answer({ ...message, content: content.filter(isObj) });
      },
    };
  },
  // The prompt is the uncached input plus what was read from or written to the cache (llama-server reports
  // a repeated prompt as input_tokens 1 and cache_read_input_tokens the rest).
  promptTokens: (usage) =>
    typeof usage?.input_tokens === 'number'
      ? usage.input_tokens +
        (typeof usage.cache_read_input_tokens === 'number' ? usage.cache_read_input_tokens : 0) +
        (typeof usage.cache_creation_input_tokens === 'number' ? usage.cache_creation_input_tokens : 0)
      : undefined,
  calledTools: (answer) =>
    blocks(answer)
      .filter((b) => b.type === 'tool_use')
      .map((b) => str(b.name) ?? '')
      .filter((n) => n !== ''),
  record: (id, forwarded, answer) => ({
    value: { id, request: { model: forwarded.model, system: forwarded.system, messages: forwarded.messages, tools: forwarded.tools ?? [] }, response: answer },
    parse: 'anthropic',
  }),
  continues: (body) =>
    (body.messages as unknown[]).flatMap((m) =>
      blocks(m)
        .filter((b) => b.type === 'tool_result')
        .map((b) => `call:${str(b.tool_use_id) ?? ''}`),
    ),
  opens: (answer) =>
    blocks(answer)
      .filter((b) => b.type === 'tool_use')
      .map((b) => `call:${str(b.id) ?? ''}`),
};
