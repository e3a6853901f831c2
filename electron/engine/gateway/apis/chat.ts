// OpenAI Chat Completions (`POST /v1/chat/completions`): function tools (`{type:"function", function:{name,
// parameters}}`), calls in the assistant message's `tool_calls` answered by `tool` messages, chains that
// resend the whole conversation, and a stream of `chat.completion.chunk` deltas ending in `[DONE]`.
// Chat Completions has no deferral of its own: a deferred tool is demoted (the export's Chat Completions
// form). Recorded through the OpenAI importer (shared/importers/openai.ts). Pure.
import { toOpenAITools } from '../../../../shared/export/formats';
import { anyToolDef } from '../../../../shared/importers/tools';
import { isObj, str, type Obj } from '../../../../shared/importers/values';
import { chatRequestText, parseChatRequest, toolName, type Parsed } from '../../../../shared/gateway/chat-request';
import { SseAssembler } from '../../../../shared/gateway/sse';
import type { AssembledAnswer, GatewayApi, StreamAssembler } from './api';

const toolCalls = (answer: Obj): unknown[] => (Array.isArray(answer.tool_calls) ? answer.tool_calls : []);

export const chatApi: GatewayApi = {
  id: 'chat',
  // Traces recorded before the adapters existed say `openai`; the Gateway view and `lots update` read it.
  recordedKind: 'openai',
  label: 'Chat Completions (POST /v1/chat/completions)',
  route: ['chat', 'completions'],
  forms: ['demote', 'hide'],
  defaultForm: () => 'demote',
  chainBy: 'messages',
  parse(body: unknown): Parsed<Obj> {
    const parsed = parseChatRequest(body);
    return parsed.ok ? { ok: true, value: parsed.value.body } : parsed;
  },
  routeText: (body) => chatRequestText(body.messages as unknown[]),
  tools: (body) =>
    (Array.isArray(body.tools) ? body.tools : []).map((t) => {
      const name = toolName(t);
      const def = anyToolDef(t);
      return name !== undefined ? { name, ...(def ? { def } : {}) } : {};
    }),
  deferredTool: (def) => toOpenAITools({ pinned: [], deferred: [def] })[0],
  forcedTool: (body) => (isObj(body.tool_choice) ? toolName(body.tool_choice) : undefined),
  withTools: ['tool_choice', 'parallel_tool_calls'],
  answer(json): AssembledAnswer {
    if (!isObj(json)) return { why: 'the answer is not a JSON object, not recorded' };
    const choice: unknown = Array.isArray(json.choices) ? json.choices[0] : undefined;
    if (!isObj(choice) || !isObj(choice.message)) return { why: 'the answer has no choices[0].message, not recorded' };
    return { answer: choice.message, ...(isObj(json.usage) ? { usage: json.usage } : {}) };
  },
  stream(): StreamAssembler {
    const sse = new SseAssembler();
    return {
      push: (text) => sse.push(text),
      result() {
        const got = sse.result();
        const usage = got.usage ? { usage: got.usage } : {};
        if (got.truncated)
          return { why: `the streamed answer was over what the gateway keeps (${got.message.content?.length ?? 0} characters kept), not recorded`, ...usage };
        if (!got.done && !got.finishReason) return { why: 'the stream ended without [DONE] or a finish reason, not recorded', ...usage };
        if (got.error) return { why: 'the stream carried an error, not recorded', ...usage };
        return { answer: got.message, ...usage };
      },
    };
  },
  promptTokens: (usage) => (typeof usage?.prompt_tokens === 'number' ? usage.prompt_tokens : undefined),
  calledTools: (answer) =>
    toolCalls(answer)
      .map((c) => (isObj(c) && isObj(c.function) ? (str(c.function.name) ?? '') : ''))
      .filter((n) => n !== ''),
  record: (id, forwarded, answer) => ({
    value: {
      id,
      request: { model: forwarded.model, messages: forwarded.messages, tools: forwarded.tools ?? [] },
      response: { choices: [{ message: answer }] },
    },
    parse: 'openai',
  }),
  // Chained by the conversation resent (chainBy: 'messages'), not by keys.
  continues: () => [],
  opens: () => [],
};
