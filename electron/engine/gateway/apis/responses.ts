// The OpenAI Responses API (`POST /v1/responses`): flat function tools (`{type:"function", name,
// parameters}`), `function_call` / `function_call_output` items paired by `call_id`, `previous_response_id`
// chains, and a stream of named events ending in `response.completed` (which carries the whole response).
// Deferred tools: `defer_loading: true` plus `tool_search` natively (OpenAI's own API), else demoted.
// Recorded through the OpenAI importer's Responses reading (shared/importers/openai.ts).
import { demotedTool, toOpenAIResponsesTools } from '../../../../shared/export/formats';
import { contentText, isObj, str, type Obj } from '../../../../shared/importers/values';
import type { ToolDef } from '../../../../shared/trace/schema';
import { jsonKind, type Parsed } from '../../../../shared/gateway/chat-request';
import type { AssembledAnswer, GatewayApi, StreamAssembler } from './api';
import { SseEvents } from './sse-events';
import { functionTools } from './cut';

function items(input: unknown): unknown[] {
  if (typeof input === 'string') return [{ type: 'message', role: 'user', content: input }];
  return Array.isArray(input) ? input : [];
}

export const responsesApi: GatewayApi = {
  id: 'responses',
  label: 'OpenAI Responses API (POST /v1/responses)',
  route: ['responses'],
  forms: ['native', 'demote', 'hide'],
  defaultForm: (host) => (host.toLowerCase() === 'api.openai.com' ? 'native' : 'demote'),
  parse(body: unknown): Parsed<Obj> {
    if (!isObj(body)) return { ok: false, message: `the request body must be a JSON object (a Responses API request), got ${jsonKind(body)}` };
    if (body.input !== undefined && typeof body.input !== 'string' && !Array.isArray(body.input))
      return { ok: false, message: `"input" must be a string or an array of items, got ${jsonKind(body.input)}` };
    if (body.tools !== undefined && !Array.isArray(body.tools))
      return { ok: false, message: `"tools" must be an array when given, got ${jsonKind(body.tools)}` };
    return { ok: true, value: body };
  },
  routeText: (body) =>
    items(body.input)
      .filter((m): m is Obj => isObj(m) && m.role === 'user')
      .map((m) => contentText(m.content))
      .join('\n'),
  tools: (body) => functionTools(body, (t) => t.type === 'function'),
  deferredTool(def: ToolDef, form) {
    if (form === 'native') return toOpenAIResponsesTools({ pinned: [], deferred: [def] })[0];
    // The demoted form, flattened as this API writes a function tool: callable by name, no schema to read
    // (an empty object schema, which the API requires).
    return { type: 'function', ...demotedTool(def), parameters: { type: 'object', properties: {} }, strict: false };
  },
  searchTool: { type: 'tool_search' },
  forcedTool: (body) => (isObj(body.tool_choice) && body.tool_choice.type === 'function' ? str(body.tool_choice.name) : undefined),
  withTools: ['tool_choice', 'parallel_tool_calls'],
  answer(json): AssembledAnswer {
    if (!isObj(json) || !Array.isArray(json.output)) return { why: 'the answer has no "output" items, not recorded' };
    return { answer: json, ...(isObj(json.usage) ? { usage: json.usage } : {}) };
  },
  stream(): StreamAssembler {
    let done: Obj | undefined;
    let failed: string | undefined;
    const events = new SseEvents((event, data) => {
      const type = isObj(data) ? str(data.type) : undefined;
      if ((type ?? event) === 'response.completed' && isObj(data) && isObj(data.response)) done = data.response;
      else if (type === 'response.failed' || type === 'error' || event === 'error') failed = type ?? event;
    });
    return {
      push: (text) => events.push(text),
      result() {
        events.end();
        if (events.truncated) return { why: 'the streamed answer was over what the gateway keeps, not recorded' };
        if (failed) return { why: `the stream carried ${failed}, not recorded` };
        if (!done) return { why: 'the stream ended without response.completed, not recorded' };
        return responsesApi.answer(done);
      },
    };
  },
  promptTokens: (usage) => (typeof usage?.input_tokens === 'number' ? usage.input_tokens : undefined),
  calledTools: (answer) =>
    (Array.isArray(answer.output) ? answer.output : [])
      .filter((o): o is Obj => isObj(o) && o.type === 'function_call')
      .map((o) => str(o.name) ?? '')
      .filter((n) => n !== ''),
  record: (id, forwarded, answer) => ({ value: { id, request: forwarded, response: answer }, parse: 'openai' }),
  continues(body) {
    const keys = items(body.input)
      .filter((o): o is Obj => isObj(o) && o.type === 'function_call_output')
      .map((o) => `call:${str(o.call_id) ?? ''}`);
    const prev = str(body.previous_response_id);
    return prev ? [`response:${prev}`, ...keys] : keys;
  },
  opens(answer) {
    const calls = (Array.isArray(answer.output) ? answer.output : [])
      .filter((o): o is Obj => isObj(o) && o.type === 'function_call')
      .map((o) => `call:${str(o.call_id) ?? ''}`);
    const id = str(answer.id);
    return id ? [`response:${id}`, ...calls] : calls;
  },
  merge(earlier, body) {
    // A request that continues by previous_response_id carries only what is new: the trace is the chain.
    if (!str(body.previous_response_id)) return body;
    const output: unknown[] = Array.isArray(earlier.answer.output) ? earlier.answer.output : [];
    const out: Obj = { ...body, input: [...items(earlier.forwarded.input), ...output, ...items(body.input)] };
    if (out.instructions === undefined && earlier.forwarded.instructions !== undefined) out.instructions = earlier.forwarded.instructions;
    if (out.tools === undefined && earlier.forwarded.tools !== undefined) out.tools = earlier.forwarded.tools;
    return out;
  },
};
