// The Responses and Messages adapters (issue 44) against a real HTTP upstream on 127.0.0.1 that keeps the
// bytes it received, with the official SDKs as clients: the native deferred form (`defer_loading` plus
// the API's tool search tool) as a hosted upstream would get it, pinned tools forwarded byte for byte,
// `previous_response_id` chains recorded as one trace, a call to a deferred tool forwarded and recorded as
// "called while deferred", Anthropic's stream events assembled into the recorded tool call, and the key
// sent as `x-api-key` with the client's `anthropic-version`. The upstream replays answers in the shapes
// the real APIs document; the same adapters against the real llama-server: llama-server-apis.test.ts.
import Anthropic from '@anthropic-ai/sdk';
import OpenAI from 'openai';
import { afterAll, beforeAll, expect, it, describe } from 'vitest';
import { startOpenAIGateway, type RunningGateway } from '../../electron/engine/gateway/openai-gateway';
import { ProjectStore } from '../../electron/engine/store';
import type { Trace } from '../../shared/trace/schema';
import { tempDir } from '../cli/io';
import { makeProject, openaiTools, TOOL_NAMES } from './fixture';
import { startRawUpstream, type RawUpstream } from './raw-upstream';

const tmp = tempDir('lots-gateway-apis-');
let up: RawUpstream;
let gw: RunningGateway;
let project: string;
const lines: string[] = [];

const describe_ = (name: string) => `The ${name} tool: ${'it does what its name says. '.repeat(4)}`;
const schema = (name: string) => ({ type: 'object', properties: { query: { type: 'string', description: `what to ask ${name}` } }, required: ['query'] });
const responsesTools = TOOL_NAMES.map((name) => ({ type: 'function' as const, name, description: describe_(name), parameters: schema(name), strict: false }));
const anthropicTools = TOOL_NAMES.map((name) => ({ name, description: describe_(name), input_schema: schema(name) as Anthropic.Tool.InputSchema }));
const fx = { headers: { 'x-lots-task': 'fx' } };

const recorded = (kind: string): Trace[] =>
  ProjectStore.open(project)
    .listTraces()
    .filter((t) => (t.meta?.gateway as { kind?: string } | undefined)?.kind === kind);
const lastBody = (): Record<string, unknown> => JSON.parse(up.received.at(-1)!.body.toString('utf8')) as Record<string, unknown>;

beforeAll(async () => {
  up = await startRawUpstream();
  project = makeProject(tmp.dir);
  ProjectStore.open(project).acceptSpace({
    task: 'fx',
    tools: ['ExchangeRate', 'Calculator'],
    deferred: ['DocRetrieve'],
    pinned: [],
    banned: [],
    rule: { kind: 'topk', k: 2 },
    note: 'DocRetrieve deferred',
  });
  gw = await startOpenAIGateway({
    store: ProjectStore.open(project),
    upstream: up.url,
    upstreamKey: 'sk-test-key',
    deferred: 'native',
    commitAtTraces: 1,
    log: (l) => lines.push(l),
  });
});
afterAll(async () => {
  await up.close();
  tmp.cleanup();
});

describe('the Responses API through the gateway', () => {
  it('sends deferred tools natively (defer_loading + tool_search), pinned ones byte for byte, hidden ones not at all', async () => {
    up.handle = (_got, res) =>
      res.writeHead(200, { 'content-type': 'application/json' }).end(
        JSON.stringify({
          id: 'resp_1',
          object: 'response',
          status: 'completed',
          output: [{ type: 'function_call', id: 'fc_1', call_id: 'call_doc', name: 'DocRetrieve', arguments: '{"query":"rates"}', status: 'completed' }],
          usage: { input_tokens: 100, output_tokens: 5, total_tokens: 105 },
        }),
      );
    const client = new OpenAI({ baseURL: `${gw.url}/v1`, apiKey: 'unused', maxRetries: 0 });
    const { data, response } = await client.responses.create({ model: 'm', input: 'Convert 100 EUR to USD.', tools: responsesTools }, fx).withResponse();
    expect(data.output[0]).toMatchObject({ type: 'function_call', name: 'DocRetrieve' });
    expect(response.headers.get('x-lots-tools')).toBe('pinned=2; deferred=1; hidden=1; form=native');
    const got = up.received.at(-1)!;
    expect(got.url).toBe('/v1/responses');
    expect(got.headers.authorization).toBe('Bearer sk-test-key');
    const tools = lastBody().tools as Record<string, unknown>[];
    expect(tools.map((t) => t.name ?? t.type)).toEqual(['Calculator', 'DocRetrieve', 'ExchangeRate', 'tool_search']);
    expect(tools.find((t) => t.name === 'DocRetrieve')).toMatchObject({ defer_loading: true, parameters: schema('DocRetrieve') });
    expect(tools.find((t) => t.name === 'ExchangeRate')!.defer_loading).toBeUndefined();
    expect(got.body.toString('utf8')).toContain(JSON.stringify(responsesTools.find((t) => t.name === 'Calculator')));
    expect(lines.some((l) => /POST \/v1\/responses task=fx .* called while deferred: DocRetrieve/.test(l))).toBe(true);
  });

  it('records a previous_response_id chain as one trace, with the call to the deferred tool marked', async () => {
    up.handle = (_got, res) =>
      res.writeHead(200, { 'content-type': 'application/json' }).end(
        JSON.stringify({
          id: 'resp_2',
          object: 'response',
          status: 'completed',
          output: [{ type: 'message', id: 'm2', role: 'assistant', status: 'completed', content: [{ type: 'output_text', text: '108 USD', annotations: [] }] }],
        }),
      );
    const client = new OpenAI({ baseURL: `${gw.url}/v1`, apiKey: 'unused', maxRetries: 0 });
    await client.responses.create(
      {
        model: 'm',
        previous_response_id: 'resp_1',
        input: [{ type: 'function_call_output', call_id: 'call_doc', output: '1 EUR = 1.08 USD' }],
        tools: responsesTools,
      },
      fx,
    );
    await expect.poll(() => recorded('responses').length).toBe(1);
    const trace = recorded('responses')[0]!;
    expect(trace.turns[0]!.request).toBe('Convert 100 EUR to USD.');
    expect(trace.turns[0]!.steps.map((s) => s.kind)).toEqual(['call', 'observation']);
    expect(trace.turns[0]!.answer).toBe('108 USD');
    expect(trace.meta?.gateway).toMatchObject({
      kind: 'responses',
      requests: 2,
      deferred: ['DocRetrieve'],
      hidden: ['WebSearch'],
      calledWhileDeferred: ['DocRetrieve'],
    });
  });
});

describe('Chat Completions through the same core', () => {
  it('sends the deferred tool demoted and records a call to it as called while deferred', async () => {
    up.handle = (_got, res) =>
      res.writeHead(200, { 'content-type': 'application/json' }).end(
        JSON.stringify({
          id: 'c1',
          object: 'chat.completion',
          choices: [
            {
              index: 0,
              finish_reason: 'tool_calls',
              message: {
                role: 'assistant',
                content: null,
                tool_calls: [{ id: 'call_c1', type: 'function', function: { name: 'DocRetrieve', arguments: '{}' } }],
              },
            },
          ],
        }),
      );
    const client = new OpenAI({ baseURL: `${gw.url}/v1`, apiKey: 'unused', maxRetries: 0 });
    await client.chat.completions.create(
      { model: 'm', messages: [{ role: 'user', content: 'find the EUR rate doc' }], tools: openaiTools as OpenAI.Chat.ChatCompletionTool[] },
      fx,
    );
    const tools = lastBody().tools as { function: Record<string, unknown> }[];
    expect(tools.map((t) => t.function.name)).toEqual(['Calculator', 'DocRetrieve', 'ExchangeRate']);
    expect(tools[1]!.function).toEqual({ name: 'DocRetrieve', description: 'The DocRetrieve tool: it does what its name says.' });
    expect(lines.some((l) => /POST \/v1\/chat\/completions task=fx .*called while deferred: DocRetrieve/.test(l))).toBe(true);
  });
});

describe("Anthropic's Messages API through the gateway", () => {
  it('sends the key as x-api-key with the client anthropic-version, defers natively, and assembles a streamed tool call for the recorder', async () => {
    const events = [
      [
        'message_start',
        {
          type: 'message_start',
          message: {
            id: 'msg_1',
            type: 'message',
            role: 'assistant',
            model: 'm',
            content: [],
            stop_reason: null,
            usage: { input_tokens: 50, output_tokens: 1 },
          },
        },
      ],
      ['content_block_start', { type: 'content_block_start', index: 0, content_block: { type: 'tool_use', id: 'toolu_1', name: 'ExchangeRate', input: {} } }],
      ['content_block_delta', { type: 'content_block_delta', index: 0, delta: { type: 'input_json_delta', partial_json: '{"query":' } }],
      ['content_block_delta', { type: 'content_block_delta', index: 0, delta: { type: 'input_json_delta', partial_json: '"EUR to USD"}' } }],
      ['content_block_stop', { type: 'content_block_stop', index: 0 }],
      ['message_delta', { type: 'message_delta', delta: { stop_reason: 'tool_use', stop_sequence: null }, usage: { output_tokens: 9 } }],
      ['message_stop', { type: 'message_stop' }],
    ] as const;
    const sent = events.map(([e, d]) => `event: ${e}\ndata: ${JSON.stringify(d)}\n\n`).join('');
    up.handle = (_got, res) => res.writeHead(200, { 'content-type': 'text/event-stream' }).end(sent);
    const client = new Anthropic({ baseURL: gw.url, apiKey: 'client-key', maxRetries: 0 });
    const stream = client.messages.stream(
      { model: 'm', max_tokens: 64, messages: [{ role: 'user', content: 'Convert 100 EUR to USD.' }], tools: anthropicTools },
      fx,
    );
    const final = await stream.finalMessage();
    expect(final.content[0]).toMatchObject({ type: 'tool_use', name: 'ExchangeRate', input: { query: 'EUR to USD' } });
    const got = up.received.at(-1)!;
    expect(got.url).toBe('/v1/messages');
    expect(got.headers['x-api-key']).toBe('sk-test-key');
    expect(got.headers.authorization).toBeUndefined();
    // The SDK's own anthropic-version, passed on (the gateway sets none of its own).
    expect(got.headers['anthropic-version']).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    const tools = lastBody().tools as Record<string, unknown>[];
    expect(tools.map((t) => t.name)).toEqual(['Calculator', 'DocRetrieve', 'ExchangeRate', 'tool_search_tool_bm25']);
    expect(tools.find((t) => t.name === 'DocRetrieve')).toMatchObject({ defer_loading: true, input_schema: schema('DocRetrieve') });
    // The chain is open (the answer calls a tool); stopping the gateway records it as it is.
    await gw.close();
    const trace = recorded('messages')[0]!;
    const call = trace.turns[0]!.steps.find((s) => s.kind === 'call');
    expect(call).toMatchObject({ calls: [{ id: 'toolu_1', name: 'ExchangeRate', arguments: { query: 'EUR to USD' } }] });
    expect(trace.meta?.gateway).toMatchObject({ kind: 'messages', deferredForm: 'native', usage: { input_tokens: 50, output_tokens: 9 } });
    const chat = ProjectStore.open(project)
      .listTraces()
      .find((t) => (t.meta?.gateway as { kind?: string } | undefined)?.kind === 'openai')!;
    expect(chat.meta?.gateway).toMatchObject({ deferred: ['DocRetrieve'], calledWhileDeferred: ['DocRetrieve'] });
  });
});
