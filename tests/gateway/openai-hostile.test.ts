// `lots gateway openai` under hostile traffic (issue 37, items 6, 7, 9–12): the real gateway process on
// 127.0.0.1 in front of a small real upstream that keeps exactly what reached it, and the official
// `openai` SDK as the client where a client is needed. Path variants are cut, counted and logged like
// the chat path; a path climbing out of the upstream's base is refused; APIs not served are refused
// loudly; the client's bytes reach the upstream untouched unless the cut changes the menu; an upstream
// that dies or goes silent is said as such and never looks like a complete answer; keys go only where
// the operator said; a request name cannot forge log lines; identical exchanges are all recorded; a
// gateway pointed at itself refuses the loop; a moved project folder is not written into.
import { existsSync, readdirSync, readFileSync, renameSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import OpenAI from 'openai';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { tempDir } from '../cli/io';
import { chatRequest, gatewayTraces, makeProject, openaiTools } from './fixture';
import { rawRequest, startGatewayProcess, type GatewayProcess } from './gateway-process';
import { answerOk, chatAnswer, sseEvent, startRawUpstream, type RawUpstream } from './raw-upstream';

const tmp = tempDir('lots-gateway-hostile-');
afterAll(() => tmp.cleanup());

const toolNames = (body: Buffer): string[] =>
  ((JSON.parse(body.toString('utf8')) as { tools?: { function: { name: string } }[] }).tools ?? []).map((t) => t.function.name);
const fx = { 'x-lots-task': 'fx' };
const statusRecord = (project: string, err: string): Record<string, unknown> => {
  const session = /session ([\w.-]+)\)/.exec(err)?.[1] ?? '';
  return JSON.parse(readFileSync(join(project, 'gateways', `${session}.json`), 'utf8')) as Record<string, unknown>;
};

describe('one reading of the path, decided on and forwarded (item 6)', () => {
  let up: RawUpstream;
  let gw: GatewayProcess;
  let project: string;
  beforeAll(async () => {
    up = await startRawUpstream();
    project = makeProject(tmp.dir, 'paths');
    gw = await startGatewayProcess(['--project', project, '--upstream', `${up.url}/tenantA/v1`]);
  }, 60_000);
  afterAll(async () => {
    await gw.stop();
    await up.close();
  });

  const variants = [
    '/v1/chat/./completions',
    '/v1/chat/x/../completions',
    '/v1/chat/%2e/completions',
    '/v1/chat/%2E%2E/chat/completions',
    '/v1//chat//completions',
    '/v1\\chat\\completions',
    '/V1/Chat/Completions',
    '/chat/completions/',
  ];

  it('cuts, forwards as the chat path, logs and counts every variant of the chat path', async () => {
    const before = up.received.length;
    for (const target of variants) {
      const r = await rawRequest(gw.url, 'POST', target, JSON.stringify(chatRequest(`convert 5 EUR via ${target}`)), fx);
      expect(r.status, target).toBe(200);
    }
    const got = up.received.slice(before);
    expect(got.map((g) => g.url)).toEqual(variants.map(() => '/tenantA/v1/chat/completions'));
    for (const g of got) expect(toolNames(g.body)).toEqual(['Calculator', 'ExchangeRate']);
    await expect.poll(() => gw.err().match(/POST (\/v1)?\/chat\/completions task=fx \(header\) menu 4→2/g)?.length ?? 0).toBe(variants.length);
    const counted = () => (statusRecord(project, gw.out()).tasks as { task: string; requests: number; toolsHidden: number }[]).find((t) => t.task === 'fx');
    await expect.poll(counted).toMatchObject({ requests: variants.length, toolsHidden: 2 * variants.length });
  });

  it("refuses a path that climbs out of the upstream's base path, and one that hides a separator", async () => {
    const before = up.received.length;
    for (const target of ['/v1/../../tenantB/x', '/v1/%2e%2e/%2e%2e/tenantB/x', '/..', '/v1/chat%2fcompletions', '/v1/a%5c..%5c..%5ctenantB']) {
      const r = await rawRequest(gw.url, 'POST', target, '{}');
      expect(r.status, target).toBe(400);
      expect(r.body, target).toMatch(/climbs above the gateway's root|decodes to a separator/);
    }
    expect(up.received.length).toBe(before);
  });

  it('refuses the APIs it does not serve yet (their tools would pass uncut), each request with a 501 and a log line', async () => {
    const before = up.received.length;
    const threads = await rawRequest(gw.url, 'POST', '/v1/threads', '{"tools":[{"type":"function","function":{"name":"WebSearch"}}]}');
    expect(threads.status).toBe(501);
    expect(threads.body).toMatch(/the Assistants API \(\/v1\/threads\) is not served yet/);
    const assistants = await rawRequest(gw.url, 'POST', '/v1/./assistants', '{}');
    expect(assistants.status).toBe(501);
    expect(up.received.length).toBe(before);
    await expect.poll(() => gw.err()).toMatch(/POST \/v1\/assistants → 501: .*the Assistants API/);
  });

  it('passes other paths through as they are, and logs and counts each', async () => {
    up.handle = (got, res) => {
      if (got.url.endsWith('/models'))
        res
          .writeHead(200, { 'content-type': 'application/json' })
          .end(JSON.stringify({ object: 'list', data: [{ id: 'raw', object: 'model', created: 1, owned_by: 'x' }] }));
      else answerOk(got, res);
    };
    const client = new OpenAI({ baseURL: `${gw.url}/v1`, apiKey: 'unused', maxRetries: 0 });
    const models = await client.models.list();
    expect(models.data.map((m) => m.id)).toEqual(['raw']);
    expect(up.received.at(-1)!.url).toBe('/tenantA/v1/models');
    await expect.poll(() => gw.err()).toMatch(/GET \/v1\/models → 200 passed through as it was \(not a chat request: nothing cut or recorded\)/);
    await expect.poll(() => statusRecord(project, gw.out()).passedThrough).toBeGreaterThanOrEqual(1);
  });
});

describe("the client's bytes, untouched unless the cut changes the menu (item 10)", () => {
  let up: RawUpstream;
  let gw: GatewayProcess;
  beforeAll(async () => {
    up = await startRawUpstream();
    gw = await startGatewayProcess(['--project', makeProject(tmp.dir, 'bytes'), '--upstream', up.url]);
  }, 60_000);
  afterAll(async () => {
    await gw.stop();
    await up.close();
  });

  // Numbers JSON.parse would round (a 64-bit seed) or turn into null on the way back (1e309), odd
  // spacing, and a byte that is not UTF-8 inside a string.
  const body = (tools: unknown[], extra = ''): Buffer =>
    Buffer.concat([
      Buffer.from(`{ "model":"raw",  "seed": 9223372036854775807, "temperature":1e309,${extra}\n "messages":[{"role":"user","content":"caf`),
      Buffer.from([0xff, 0xfe]),
      Buffer.from(`"}],"tools":[ ${tools.map((t) => JSON.stringify(t)).join(' ,  ')} ],"n":1.50}`),
    ]);

  it('forwards the body byte for byte when nothing is cut', async () => {
    const sent = body(openaiTools);
    const r = await rawRequest(gw.url, 'POST', '/v1/chat/completions', sent, { 'x-lots-task': 'docs' });
    expect(r.status).toBe(200);
    expect(up.received.at(-1)!.body.equals(sent)).toBe(true);
  });

  it('changes only the tools when the menu is cut (and removes only lots_task from metadata)', async () => {
    const r = await rawRequest(gw.url, 'POST', '/v1/chat/completions', body(openaiTools), fx);
    expect(r.status).toBe(200);
    const kept = openaiTools.filter((t) => ['Calculator', 'ExchangeRate'].includes(t.function.name));
    expect(up.received.at(-1)!.body.equals(body(kept))).toBe(true);
    // The same through metadata: the task field goes, the rest of metadata stays as sent.
    const meta = await rawRequest(gw.url, 'POST', '/v1/chat/completions', body(openaiTools, ' "metadata": {"lots_task":"fx" , "user":"u1"},'));
    expect(meta.status).toBe(200);
    expect(up.received.at(-1)!.body.equals(body(kept, ' "metadata": {"user":"u1"},'))).toBe(true);
  });

  it('refuses a body that names a key twice (the upstream could read the other one)', async () => {
    const before = up.received.length;
    const r = await rawRequest(gw.url, 'POST', '/v1/chat/completions', body(openaiTools, `"tools":${JSON.stringify(openaiTools)},`), fx);
    expect(r.status).toBe(400);
    expect(r.body).toMatch(/the key \\"tools\\" occurs twice/);
    expect(up.received.length).toBe(before);
  });
});

describe('an upstream that fails is said as such (items 7, 12)', () => {
  let up: RawUpstream;
  let gw: GatewayProcess;
  let project: string;
  beforeAll(async () => {
    up = await startRawUpstream();
    project = makeProject(tmp.dir, 'failing');
    gw = await startGatewayProcess(['--project', project, '--upstream', up.url, '--upstream-timeout-s', '1']);
  }, 60_000);
  afterAll(async () => {
    await gw.stop();
    await up.close();
  });
  afterEach(() => {
    up.handle = answerOk;
  });

  it('an upstream that dies mid-stream: the client connection is cut (the SDK fails), logged as an upstream failure, nothing recorded', async () => {
    up.handle = (_got, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write(sseEvent({ role: 'assistant', content: 'The answer is' }), () => setTimeout(() => res.socket?.destroy(), 50));
    };
    const client = new OpenAI({ baseURL: `${gw.url}/v1`, apiKey: 'unused', maxRetries: 0 });
    const stream = await client.chat.completions.create(
      { ...(chatRequest('convert 5 EUR') as { model: string; messages: [] }), stream: true },
      { headers: fx },
    );
    const failed = await (async () => {
      for await (const _ of stream) void _;
    })().then(
      () => false,
      () => true,
    );
    expect(failed).toBe(true);
    const raw = await rawRequest(gw.url, 'POST', '/v1/chat/completions', JSON.stringify(chatRequest('convert 5 EUR', { stream: true })), fx);
    expect(raw.status).toBe(200);
    expect(raw.cut).toBe(true);
    await expect
      .poll(() => gw.err())
      .toMatch(
        /→ 200 then the upstream failed: the upstream http:\/\/127\.0\.0\.1:\d+ (closed its connection in the middle of its answer|broke off its answer)/,
      );
    expect(gw.err()).not.toMatch(/gateway bug/);
  });

  it('an upstream that does not answer in time: 504 that says a timeout; one that goes silent mid-stream: the connection cut', async () => {
    up.handle = () => undefined;
    const r = await rawRequest(gw.url, 'POST', '/v1/chat/completions', JSON.stringify(chatRequest('convert 5 EUR')), fx);
    expect(r.status).toBe(504);
    expect(r.body).toMatch(/did not answer within 1 s \(--upstream-timeout-s\)/);
    expect(r.body).not.toMatch(/could not be reached/);
    up.handle = (_got, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write(sseEvent({ role: 'assistant', content: 'The' }));
    };
    const silent = await rawRequest(gw.url, 'POST', '/v1/chat/completions', JSON.stringify(chatRequest('convert 5 EUR', { stream: true })), fx);
    expect(silent.cut).toBe(true);
    await expect.poll(() => gw.err()).toMatch(/went silent for 1 s in the middle of its answer/);
  });

  it('a keep-alive socket the upstream closed while idle is retried on a fresh connection; a fresh one that breaks is a 502', async () => {
    // llama-server closes idle keep-alive sockets after 5 s; a request sent on one as it closes breaks
    // before the upstream read it (CI saw "socket hang up" between two tests). Here every request that
    // arrives on a socket used before is cut without an answer, as that race does.
    const seen = new WeakSet<object>();
    up.handle = (_got, res) => {
      const socket = res.socket!;
      if (seen.has(socket)) socket.destroy();
      else {
        seen.add(socket);
        answerOk(_got, res);
      }
    };
    const before = up.received.length;
    for (const ask of ['convert 5 EUR', 'convert 6 EUR', 'convert 7 EUR']) {
      const r = await rawRequest(gw.url, 'POST', '/v1/chat/completions', JSON.stringify(chatRequest(ask)), fx);
      expect(r.status, ask).toBe(200);
    }
    // The first went out on a fresh socket; each later one first on the kept socket (cut), then on a fresh one.
    expect(up.received.length - before).toBe(5);
    expect(gw.err()).not.toMatch(/could not be reached/);

    up.handle = (_got, res) => res.socket!.destroy();
    const r = await rawRequest(gw.url, 'POST', '/v1/chat/completions', JSON.stringify(chatRequest('convert 8 EUR')), fx);
    expect(r.status).toBe(502);
    expect(r.body).toMatch(/could not be reached \(socket hang up\)/);
  });

  it('a task name with a newline cannot forge a log line', async () => {
    const forged = 'fx\nPOST /v1/chat/completions task=admin (header) menu 4→4 → 200 in 1 ms';
    const r = await rawRequest(gw.url, 'POST', '/v1/chat/completions', JSON.stringify(chatRequest('x', { metadata: { lots_task: forged } })));
    expect(r.status).toBe(400);
    await expect.poll(() => gw.err()).toMatch(/unknown task "fx\\x0aPOST/);
    expect(
      gw
        .err()
        .split('\n')
        .some((l) => l.startsWith('POST /v1/chat/completions task=admin')),
    ).toBe(false);
  });
});

describe('keys and upstream URLs (item 11)', () => {
  it('sends OPENAI_API_KEY to no upstream but api.openai.com, says which key is sent, never prints query values, joins a query-bearing base', async () => {
    const up = await startRawUpstream();
    const project = makeProject(tmp.dir, 'keys');
    const env = { ...process.env, OPENAI_API_KEY: 'sk-user-real-key', LOTS_TEST_UPSTREAM_KEY: 'sk-named-key' };
    const azure = `${up.url}/openai/deployments/d?api-version=2024-10-21&key=SECRETQUERYVALUE`;
    const plain = await startGatewayProcess(['--project', project, '--upstream', azure], env);
    try {
      const r = await rawRequest(plain.url, 'POST', '/v1/chat/completions?trace=1', JSON.stringify(chatRequest('hi')));
      expect(r.status).toBe(200);
      const got = up.received.at(-1)!;
      expect(got.url).toBe('/openai/deployments/d/v1/chat/completions?api-version=2024-10-21&key=SECRETQUERYVALUE&trace=1');
      expect(got.headers.authorization).toBeUndefined();
      expect(plain.out()).toMatch(/upstream key: none sent/);
      expect(plain.out()).toMatch(/\?api-version=…&key=…/);
    } finally {
      await plain.stop();
    }
    expect(plain.out() + plain.err()).not.toContain('SECRETQUERYVALUE');
    expect(readFileSync(join(project, 'gateways', readdirJson(project)[0]!), 'utf8')).not.toContain('SECRETQUERYVALUE');
    const named = await startGatewayProcess(['--project', project, '--upstream', `${up.url}/v1`, '--upstream-key-env', 'LOTS_TEST_UPSTREAM_KEY'], env);
    try {
      await rawRequest(named.url, 'POST', '/v1/chat/completions', JSON.stringify(chatRequest('hi')));
      expect(up.received.at(-1)!.headers.authorization).toBe('Bearer sk-named-key');
      expect(up.received.at(-1)!.url).toBe('/v1/chat/completions');
      expect(named.out()).toMatch(/upstream key: the value of LOTS_TEST_UPSTREAM_KEY is sent to 127\.0\.0\.1 as a bearer token/);
    } finally {
      await named.stop();
      await up.close();
    }
  }, 60_000);

  it('sends ANTHROPIC_API_KEY only to api.anthropic.com (as x-api-key), where Messages defers natively; to any other upstream, neither key', async () => {
    const project = makeProject(tmp.dir, 'anthropic-key');
    const env = { ...process.env, OPENAI_API_KEY: 'sk-openai', ANTHROPIC_API_KEY: 'sk-ant' };
    const hosted = await startGatewayProcess(['--project', project, '--upstream', 'https://api.anthropic.com'], env);
    try {
      expect(hosted.out()).toMatch(
        /upstream key: the value of ANTHROPIC_API_KEY is sent to api\.anthropic\.com as a bearer token \(x-api-key on \/v1\/messages\)/,
      );
      expect(hosted.out()).toMatch(/deferred tools: chat demote, responses demote, messages native/);
    } finally {
      await hosted.stop();
    }
    const local = await startGatewayProcess(['--project', project, '--upstream', 'http://127.0.0.1:1'], env);
    try {
      expect(local.out()).toMatch(/upstream key: none sent/);
    } finally {
      await local.stop();
    }
    expect(hosted.out() + hosted.err() + local.out() + local.err()).not.toContain('sk-ant');
  }, 60_000);
});

function readdirJson(project: string): string[] {
  return readdirSync(join(project, 'gateways')).filter((f) => f.endsWith('.json'));
}

describe('what is recorded, and where (item 9)', () => {
  it('records three identical exchanges that call tools as three traces', async () => {
    const up = await startRawUpstream();
    up.handle = (_got, res) =>
      res.writeHead(200, { 'content-type': 'application/json' }).end(
        chatAnswer({
          role: 'assistant',
          content: null,
          tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'ExchangeRate', arguments: '{"query":"EUR"}' } }],
        }),
      );
    const project = makeProject(tmp.dir, 'identical');
    const gw = await startGatewayProcess(['--project', project, '--upstream', up.url]);
    const client = new OpenAI({ baseURL: `${gw.url}/v1`, apiKey: 'unused', maxRetries: 0 });
    for (let i = 0; i < 3; i++) {
      const answer = await client.chat.completions.create(chatRequest('rate of EUR') as never, { headers: fx });
      expect(answer.choices[0]!.message.tool_calls).toHaveLength(1);
    }
    expect(await gw.stop()).toBe(0);
    await up.close();
    expect(gatewayTraces(project)).toHaveLength(3);
  }, 60_000);

  it('a gateway whose upstream is itself refuses the loop at once (508)', async () => {
    const port = await new Promise<number>((done) => {
      const s = createServer().listen(0, '127.0.0.1', () => {
        const p = (s.address() as { port: number }).port;
        s.close(() => done(p));
      });
    });
    const project = makeProject(tmp.dir, 'loop');
    const gw = await startGatewayProcess(['--project', project, '--upstream', `http://127.0.0.1:${port}`, '--port', String(port)]);
    try {
      const r = await rawRequest(gw.url, 'POST', '/v1/chat/completions', JSON.stringify(chatRequest('hi')));
      expect(r.status).toBe(508);
      expect(r.body).toMatch(/already passed through this gateway/);
      // The request and its one echo, each logged once: no more reached the gateway.
      await expect.poll(() => gw.err().match(/POST \/v1\/chat\/completions.*→ 508/g)?.length).toBe(2);
    } finally {
      await gw.stop();
    }
  }, 60_000);

  it('a project folder moved while serving is not written into: said, and the traces go to the file that is named', async () => {
    const up = await startRawUpstream();
    const project = makeProject(tmp.dir, 'moving');
    const gw = await startGatewayProcess(['--project', project, '--upstream', up.url]);
    renameSync(project, `${project}-moved`);
    const r = await rawRequest(gw.url, 'POST', '/v1/chat/completions', JSON.stringify(chatRequest('convert 5 EUR')), fx);
    expect(r.status).toBe(200);
    expect(await gw.stop()).toBe(0);
    await up.close();
    expect(existsSync(project)).toBe(false); // no stray folder where the project was
    expect(gw.err()).toMatch(/is no longer a project \(moved or removed\?\)/);
    const left = /the rest in (\S+)\./.exec(gw.err())?.[1];
    expect(left, gw.err()).toBeDefined();
    expect(readFileSync(left!, 'utf8').trim().split('\n')).toHaveLength(1);
  }, 60_000);
});
