// The OpenAI gateway's own handling, in front of a small real HTTP upstream (tiny-upstream.ts): the menu
// cut to the task's space (header, metadata, router), pass-through without a task or a space, streams
// passed through byte for byte, an agent's chain of requests recorded as one trace with its
// observations, the batch committed into the project (and waiting for the project lock without
// holding up serving), and the errors it answers itself.
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ProjectStore } from '../../electron/engine/store';
import { startOpenAIGateway, type RunningGateway } from '../../electron/engine/gateway/openai-gateway';
import { tempDir } from '../cli/io';
import { chatRequest, gatewayTraces, makeProject, post } from './fixture';
import { startTinyUpstream, type TinyUpstream } from './tiny-upstream';

const tmp = tempDir('lots-gateway-');
afterAll(() => tmp.cleanup());

let upstream: TinyUpstream;
let project: string;
let gateway: RunningGateway;
let n = 0;
const lines: string[] = [];

async function start(extra: Partial<Parameters<typeof startOpenAIGateway>[0]> = {}): Promise<RunningGateway> {
  return startOpenAIGateway({ store: ProjectStore.open(project), upstream: upstream.url, log: (l) => void lines.push(l), ...extra });
}

beforeEach(async () => {
  upstream = await startTinyUpstream();
  project = makeProject(tmp.dir, `proj-${++n}`);
  gateway = await start();
});
afterEach(async () => {
  await gateway.close();
  await upstream.close();
});

const names = (tools: unknown): string[] => (tools as { function: { name: string } }[]).map((t) => t.function.name);

describe('the OpenAI gateway', () => {
  it("cuts the menu to the task's approved space, returns the answer unchanged and records the trace", async () => {
    upstream.replies.push({ kind: 'text', text: '100 EUR is 108 USD' });
    const r = await post(gateway.url, chatRequest('convert 100 EUR to USD', { tool_choice: 'auto' }), { 'x-lots-task': 'fx' });
    expect(r.status).toBe(200);
    expect((r.json as { choices: { message: { content: string } }[] }).choices[0]!.message.content).toBe('100 EUR is 108 USD');
    // What the gateway did, said to the client as on every served API (Chat Completions is the first adapter).
    expect(r.headers.get('x-lots-task')).toBe('fx');
    expect(r.headers.get('x-lots-space-version')).toBe('0');
    expect(r.headers.get('x-lots-tools')).toBe('pinned=2; deferred=0; hidden=2; form=demote');
    const sent = upstream.received[0]!.body;
    expect(names(sent.tools)).toEqual(['Calculator', 'ExchangeRate']); // the request's order, only the space
    expect(sent.tool_choice).toBe('auto');
    expect(gateway.stats.tasks.get('fx')).toMatchObject({ requests: 1, toolsHidden: 2, promptTokens: 11 });
    expect(gateway.stats.tasks.get('fx')!.tokensSaved).toBeGreaterThan(50);

    expect(gatewayTraces(project)).toEqual([]); // nothing is committed before the batch closes
    const closed = await gateway.close();
    expect(closed.committed).toBe(1);
    const [t] = gatewayTraces(project);
    expect(t).toMatchObject({ task: 'fx', turns: [{ request: 'convert 100 EUR to USD', answer: '100 EUR is 108 USD' }] });
    expect(t!.tools.map((x) => x.name)).toEqual(['Calculator', 'ExchangeRate']);
    expect(t!.meta!.gateway).toMatchObject({ kind: 'openai', taskFrom: 'header', hidden: ['DocRetrieve', 'WebSearch'], spaceVersion: 0, requestedTools: 4 });
    const store = ProjectStore.open(project);
    expect(store.importSource(gateway.recorder.files[0]!.split('/').pop()!)).toBe(`gateway-openai-${gateway.session}`);
    // Its status record, as the Studio's Gateway view reads it: stopped, with what it counted and committed.
    const [status] = store.listGateways();
    expect(status).toMatchObject({
      id: gateway.session,
      kind: 'openai',
      url: `${gateway.url}/v1`,
      upstream: upstream.url,
      state: 'stopped',
      tasks: [{ task: 'fx', requests: 1, noSpace: 0, toolsHidden: 2, promptTokens: 11, spaceVersion: 0 }],
      batch: { source: `gateway-openai-${gateway.session}`, recorded: 1, queued: 0, committed: 1, files: ['0002.jsonl'] },
    });
    expect(status!.tasks[0]!.tokensSaved).toBe(gateway.stats.tasks.get('fx')!.tokensSaved);
  });

  it('takes the task from metadata.lots_task and does not forward that field', async () => {
    await post(gateway.url, chatRequest('convert', { metadata: { lots_task: 'fx' } }));
    await post(gateway.url, chatRequest('convert', { metadata: { lots_task: 'fx', user: 'u1' } }));
    expect(names(upstream.received[0]!.body.tools)).toEqual(['Calculator', 'ExchangeRate']);
    expect(upstream.received[0]!.body.metadata).toBeUndefined();
    expect(upstream.received[1]!.body.metadata).toEqual({ user: 'u1' });
    expect(gateway.stats.bySource.metadata).toBe(2);
  });

  it('passes through, and counts, a request with no task (no router) and one of a task with no approved space', async () => {
    await post(gateway.url, chatRequest('anything at all'));
    await post(gateway.url, chatRequest('find the vacation policy'), { 'x-lots-task': 'docs' });
    expect(names(upstream.received[0]!.body.tools)).toHaveLength(4);
    expect(names(upstream.received[1]!.body.tools)).toHaveLength(4);
    expect(gateway.stats.bySource.none).toBe(1);
    expect(gateway.stats.tasks.get('docs')).toMatchObject({ requests: 1, noSpace: 1, toolsHidden: 0 });
    await gateway.close();
    const traces = gatewayTraces(project);
    expect(traces.map((t) => t.task ?? null).sort()).toEqual(['docs', null]); // the one without a task is left for routing
  });

  it("routes a request without a task by the project's router once the project is routed", async () => {
    const store = ProjectStore.open(project);
    store.addTraces([{ v: 1, id: 'u-1', tools: [], turns: [{ request: 'what is 20 GBP in EUR at the exchange rate', steps: [], answer: 'x' }] }], 'more.jsonl');
    store.writeRoutes({ 'u-1': 'fx' }, 'test');
    await gateway.close();
    gateway = await start();
    await post(gateway.url, chatRequest('convert 300 EUR to USD at the exchange rate'));
    await post(gateway.url, chatRequest('search the handbook documentation for the deployment section'));
    expect(gateway.stats.bySource.router).toBe(2);
    expect(names(upstream.received[0]!.body.tools)).toEqual(['Calculator', 'ExchangeRate']); // fx: cut
    expect(names(upstream.received[1]!.body.tools)).toHaveLength(4); // docs: no space
  });

  it('passes a stream through byte for byte and records the chain of an agent loop as one trace', async () => {
    upstream.replies.push({ kind: 'call', name: 'ExchangeRate', arguments: { query: 'EUR USD' }, id: 'call_fx' }, { kind: 'text', text: 'It is 108 USD.' });
    const first = await post(gateway.url, chatRequest('convert 100 EUR to USD', { stream: true }), { 'x-lots-task': 'fx' });
    expect(first.status).toBe(200);
    expect(first.text).toContain('data: [DONE]');
    expect(first.text.split('data: ').length).toBe(7); // every event of the upstream's stream
    const call = {
      role: 'assistant',
      content: null,
      tool_calls: [{ id: 'call_fx', type: 'function', function: { name: 'ExchangeRate', arguments: '{"query":"EUR USD"}' } }],
    };
    const second = await post(
      gateway.url,
      chatRequest('', {
        stream: true,
        messages: [{ role: 'user', content: 'convert 100 EUR to USD' }, call, { role: 'tool', tool_call_id: 'call_fx', content: '1 EUR = 1.08 USD' }],
      }),
      { 'x-lots-task': 'fx' },
    );
    expect(second.text).toContain('108 USD');
    await gateway.close();
    const traces = gatewayTraces(project);
    expect(traces).toHaveLength(1);
    const t = traces[0]!;
    expect(t.meta!.gateway).toMatchObject({ requests: 2 });
    expect(t.turns[0]!.answer).toBe('It is 108 USD.');
    expect(t.turns[0]!.steps).toMatchObject([
      { kind: 'call', calls: [{ id: 'call_fx', name: 'ExchangeRate', arguments: { query: 'EUR USD' } }] },
      { kind: 'observation', callId: 'call_fx', content: '1 EUR = 1.08 USD' },
    ]);
  });

  it('records an answer that calls a tool as it is when no request continues it', async () => {
    upstream.replies.push({ kind: 'call', name: 'Calculator', arguments: { query: '2+2' } });
    await post(gateway.url, chatRequest('what is 2+2'), { 'x-lots-task': 'fx' });
    await gateway.close();
    const [t] = gatewayTraces(project);
    expect(t!.turns[0]).toMatchObject({ target: 'call', answer: '', steps: [{ kind: 'call', calls: [{ name: 'Calculator' }] }] });
  });

  it('keeps serving while another writer holds the project lock, and records once it is free', async () => {
    const other = ProjectStore.open(project);
    const imp = other.beginImport('a long import');
    try {
      const r = await post(gateway.url, chatRequest('convert'), { 'x-lots-task': 'fx' });
      expect(r.status).toBe(200);
      await expect(gateway.recorder.commit(200)).rejects.toThrow(/lock|import/i);
      expect(gateway.recorder.pending).toBe(1);
    } finally {
      imp.abort();
    }
    const closed = await gateway.close();
    expect(closed.committed).toBe(1);
    expect(gatewayTraces(project)).toHaveLength(1);
  });

  it('forwards other paths (/v1/models) as they are, and sends the upstream key from the caller, not the client', async () => {
    await gateway.close();
    gateway = await start({ upstreamKey: 'sk-upstream' });
    const r = await fetch(`${gateway.url}/v1/models`, { headers: { authorization: 'Bearer client-key' } });
    expect(((await r.json()) as { data: { id: string }[] }).data[0]!.id).toBe('tiny');
    expect(upstream.received[0]!.headers.authorization).toBe('Bearer sk-upstream');
  });
});

describe('bad input', () => {
  it('malformed JSON: 400 saying where', async () => {
    const r = await post(gateway.url, '{"model": "tiny",\n "messages": [}');
    expect(r.status).toBe(400);
    expect((r.json as { error: { message: string } }).error.message).toMatch(/malformed JSON in the request body at line 2, column \d+/);
    const shape = await post(gateway.url, { model: 'tiny', messages: 'hello' });
    expect(shape.status).toBe(400);
    expect((shape.json as { error: { message: string } }).error.message).toMatch(/"messages" must be an array/);
    expect(upstream.received).toHaveLength(0);
  });

  it('an unknown task from the header: 400 naming the known tasks', async () => {
    const r = await post(gateway.url, chatRequest('x'), { 'x-lots-task': 'nope' });
    expect(r.status).toBe(400);
    const error = (r.json as { error: { message: string; known_tasks: string[] } }).error;
    expect(error.message).toBe('unknown task "nope" in the x-lots-task header: this project\'s tasks are "docs", "fx"');
    expect(error.known_tasks).toEqual(['docs', 'fx']);
    expect(upstream.received).toHaveLength(0);
  });

  it("upstream down: 502 with the upstream's error, nothing recorded as an answer", async () => {
    await upstream.close();
    const r = await post(gateway.url, chatRequest('convert'), { 'x-lots-task': 'fx' });
    expect(r.status).toBe(502);
    expect((r.json as { error: { message: string } }).error.message).toMatch(/could not be reached .*ECONNREFUSED/);
    upstream = await startTinyUpstream();
    upstream.replies.push({ kind: 'status', status: 500, body: { error: { message: 'model crashed' } } });
    await gateway.close();
    gateway = await start();
    const failed = await post(gateway.url, chatRequest('convert'), { 'x-lots-task': 'fx' });
    expect(failed.status).toBe(500);
    expect(failed.json).toEqual({ error: { message: 'model crashed' } }); // the upstream's answer, unchanged
    expect((await gateway.close()).committed).toBe(0);
    expect(gatewayTraces(project)).toEqual([]);
  });

  it('a request over the size cap: 413', async () => {
    await gateway.close();
    gateway = await start({ maxBodyBytes: 1024 });
    const r = await post(gateway.url, chatRequest('x'.repeat(2000)));
    expect(r.status).toBe(413);
    expect((r.json as { error: { message: string } }).error.message).toMatch(/over the gateway's cap of 1024 bytes/);
    expect(upstream.received).toHaveLength(0);
  });

  it('without the token: 401; a web page without a token: 403', async () => {
    const page = await post(gateway.url, chatRequest('x'), { origin: 'https://evil.example' });
    expect(page.status).toBe(403);
    await gateway.close();
    gateway = await start({ token: 's3cret' });
    expect((await post(gateway.url, chatRequest('x'))).status).toBe(401);
    expect((await post(gateway.url, chatRequest('x'), { authorization: 'Bearer wrong!' })).status).toBe(401);
    expect((await post(gateway.url, chatRequest('x'), { authorization: 'Bearer s3cret' })).status).toBe(200);
    expect(upstream.received).toHaveLength(1);
  });
});
