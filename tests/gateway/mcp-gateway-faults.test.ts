// The MCP gateway under a failing upstream and hostile clients (issue 37, items 13–18), with real
// processes only: `lots gateway mcp` as a process or the engine's gateway over HTTP on 127.0.0.1, the
// official SDK's client, and as upstreams a small server on the official SDK (tiny-mcp-server.ts) or the
// real filesystem server from npm. An upstream that crashes ends a stdio gateway with a reason and a
// non-zero exit (its host restarts it) and is started again behind an HTTP one; an answer over the
// message limit is an error for its request while the connection stays; prompts and resources pass
// through; a new task is served; errors carry one prefix; the gateway's own HTTP refusals are JSON-RPC.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join, resolve } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { McpGateway } from '../../electron/engine/gateway/mcp-gateway';
import { ProjectStore } from '../../electron/engine/store';
import type { GatewayStatus } from '../../shared/project/gateways';
import { tempDir } from '../cli/io';
import { recordFaults } from '../faults/fault-tally';
import { alive } from '../processes';

const tmp = tempDir('lots-gateway-mcp-faults-');
afterAll(() => tmp.cleanup());

const FS_SERVER = resolve('node_modules/@modelcontextprotocol/server-filesystem/dist/index.js');
const TINY = ['--import', 'tsx', resolve('tests/gateway/tiny-mcp-server.ts')];
let data: string;

beforeAll(() => {
  data = join(tmp.dir, 'data');
  mkdirSync(data);
  writeFileSync(join(data, 'notes.txt'), 'small\n');
  // 12 MB of text: its read_text_file answer (the text twice: as content and as structuredContent, 22.9 MiB)
  // is over the SDK's (and the gateway's default) 10 MiB per message.
  writeFileSync(join(data, 'big.txt'), 'abcdefghij'.repeat(1_200_000));
});

let projects = 0;
function project(space?: string[]): string {
  const dir = join(tmp.dir, `p${++projects}`);
  const store = ProjectStore.create(dir);
  if (space) store.acceptSpace({ task: 'files', tools: space, pinned: [], banned: [], rule: { kind: 'topk', k: space.length }, note: 'test space' });
  return dir;
}

const env = (): Record<string, string> => Object.fromEntries(Object.entries(process.env).filter((e): e is [string, string] => e[1] !== undefined));
const text = (r: unknown): string => ((r as { content: { type: string; text: string }[] }).content[0]?.text ?? '').trim();

/** `lots gateway mcp` as a process under the SDK's client; a shell around it says its exit code on stderr. */
async function stdioGateway(dir: string, task: string, upstream: string[], extra: string[] = []) {
  const stderr: string[] = [];
  const args = ['bin/lots.mjs', 'gateway', 'mcp', '--project', dir, '--task', task, '--summary-s', '0', ...extra, '--', ...upstream];
  const transport = new StdioClientTransport({
    command: '/bin/sh',
    args: ['-c', '"$@"; echo "gateway exit code $?" >&2', 'sh', process.execPath, ...args],
    env: env(),
    stderr: 'pipe',
  });
  transport.stderr?.on('data', (d: Buffer) => void stderr.push(d.toString()));
  const client = new Client({ name: 'test-agent', version: '1.0.0' });
  await client.connect(transport);
  const log = (): string => stderr.join('');
  const waitFor = async (re: RegExp): Promise<string> => {
    for (let i = 0; i < 300 && !re.test(log()); i++) await new Promise((r) => setTimeout(r, 100));
    expect(log()).toMatch(re);
    return log();
  };
  return { client, log, waitFor };
}

async function httpClient(url: string): Promise<Client> {
  const client = new Client({ name: 'test-agent', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(url)));
  return client;
}

const record = (dir: string): GatewayStatus => ProjectStore.open(dir).listGateways()[0]!;

describe('an upstream that crashes', () => {
  it('over stdio: the call in flight gets the reason, the gateway logs it, ends with exit code 2 and its record says why', async () => {
    const dir = project();
    const gw = await stdioGateway(dir, 'files', [process.execPath, ...TINY]);
    expect(text(await gw.client.callTool({ name: 'echo', arguments: { text: 'hi' } }))).toBe('hi');
    await expect(gw.client.callTool({ name: 'crash', arguments: {} })).rejects.toThrow(
      /^MCP error -32603: the upstream MCP server \(node tiny-mcp-server\.ts\) exited with code 3 \(its last stderr line: "tiny-mcp: crashing on purpose"\) before it answered; the gateway ends$/,
    );
    const log = await gw.waitFor(/gateway exit code \d+/);
    expect(log).toMatch(/gateway: the upstream MCP server \(node tiny-mcp-server\.ts\) exited with code 3/);
    expect(log).toMatch(/ended because the upstream MCP server .* exited with code 3.*so that its MCP host can restart it/);
    expect(log).toMatch(/stopped; 1 trace\(s\) recorded into the project/);
    expect(log).toContain('gateway exit code 2');
    const r = record(dir);
    expect(r).toMatchObject({ state: 'stopped', failure: expect.stringMatching(/exited with code 3/), upstreamFailures: { count: 1, restarts: 0 } });
    expect(r.upstreamFailures!.last).toMatch(/crashing on purpose/);
    // The fault suite's tally: the crash is a fault, the trace recorded before it was committed, the exit was not 0.
    recordFaults({ injected: 1, recovered: 1, lost: 0, falseSuccesses: 0 });
    await gw.client.close();
  }, 60_000);

  it('over HTTP: the call in flight gets the reason, the upstream is started again, and the next call is served', async () => {
    const dir = project();
    const lines: string[] = [];
    const gateway = await McpGateway.start({
      store: ProjectStore.open(dir),
      task: 'files',
      upstream: { command: process.execPath, args: TINY },
      statusHeartbeatMs: 100,
      log: (l) => void lines.push(l),
    });
    try {
      const url = await gateway.serveHttp();
      const client = await httpClient(url);
      const first = Number(text(await client.callTool({ name: 'pid', arguments: {} })));
      await expect(client.callTool({ name: 'crash', arguments: {} })).rejects.toThrow(/exited with code 3 .*before it answered; the gateway starts it again$/);
      const second = Number(text(await client.callTool({ name: 'pid', arguments: {} })));
      expect(second).not.toBe(first);
      expect(alive(first)).toBe(false);
      expect(text(await client.callTool({ name: 'echo', arguments: { text: 'still here' } }))).toBe('still here');
      expect(lines.join('\n')).toMatch(/was started again \(pid \d+\)/);
      expect(gateway.failure).toBeUndefined();
      for (let i = 0; i < 50 && record(dir).upstreamFailures?.restarts !== 1; i++) await new Promise((r) => setTimeout(r, 100));
      expect(record(dir)).toMatchObject({ state: 'running', upstreamFailures: { count: 1, restarts: 1, last: expect.stringMatching(/exited with code 3/) } });
      recordFaults({ injected: 1, recovered: 1, lost: 0, falseSuccesses: 0 });
      await client.close();
    } finally {
      await gateway.close();
    }
    expect(record(dir).state).toBe('stopped');
  }, 60_000);
});

describe('an upstream that cannot be started again', () => {
  it('over HTTP: after the restart attempts the gateway fails, says why, and answers every request with the reason', async () => {
    const dir = project();
    const marker = join(tmp.dir, 'refuse');
    const lines: string[] = [];
    const gateway = await McpGateway.start({
      store: ProjectStore.open(dir),
      task: 'files',
      upstream: { command: process.execPath, args: [...TINY, '--refuse-if', marker] },
      restartAttempts: 2,
      log: (l) => void lines.push(l),
    });
    try {
      const client = await httpClient(await gateway.serveHttp());
      writeFileSync(marker, '');
      await expect(client.callTool({ name: 'crash', arguments: {} })).rejects.toThrow(/exited with code 3/);
      await gateway.ended;
      expect(gateway.failure).toMatch(
        /could not be started again after 2 attempt\(s\) \(.*exited with code 4 \(its last stderr line: "tiny-mcp: refusing to start"\)\)/,
      );
      expect(lines.join('\n')).toMatch(/restart 2 of 2 failed/);
      await expect(client.callTool({ name: 'echo', arguments: { text: 'x' } })).rejects.toThrow(
        /^MCP error -32603: the upstream MCP server .* could not be started again/,
      );
      await client.close();
    } finally {
      await gateway.close();
    }
    expect(record(dir)).toMatchObject({
      state: 'stopped',
      failure: expect.stringMatching(/could not be started again/),
      upstreamFailures: { count: 1, restarts: 0 },
    });
  }, 60_000);
});

describe('an answer over the message limit (the real filesystem server reading a 12 MB file)', () => {
  it('is an error for that request; the connection stays and the next call is served', async () => {
    const dir = project(['read_text_file', 'list_directory']);
    const gw = await stdioGateway(dir, 'files', [process.execPath, FS_SERVER, data]);
    try {
      await expect(gw.client.callTool({ name: 'read_text_file', arguments: { path: join(data, 'big.txt') } })).rejects.toThrow(
        /^MCP error -32603: the upstream's answer was 22\.9 MiB \(\d+ bytes\), over this gateway's limit of 10\.0 MiB for one message \(lots gateway mcp --max-message-mib\)/,
      );
      expect(text(await gw.client.callTool({ name: 'read_text_file', arguments: { path: join(data, 'notes.txt') } }))).toBe('small');
      expect(gw.log()).toMatch(/the upstream's answer to request \d+ was 22\.9 MiB, over the limit of 10\.0 MiB: answered an error/);
      expect(gw.log()).toMatch(/tools\/call read_text_file task=files → answer over the size limit/);
      recordFaults({ injected: 1, recovered: 1, lost: 0, falseSuccesses: 0 });
    } finally {
      await gw.client.close();
    }
    await gw.waitFor(/gateway exit code 0/);
  }, 60_000);

  it('passes with a larger --max-message-mib', async () => {
    const gateway = await McpGateway.start({
      store: ProjectStore.open(project(['read_text_file'])),
      task: 'files',
      upstream: { command: process.execPath, args: [FS_SERVER, data] },
      maxMessageBytes: 32 * 1024 * 1024,
    });
    try {
      const client = await httpClient(await gateway.serveHttp());
      expect(text(await client.callTool({ name: 'read_text_file', arguments: { path: join(data, 'big.txt') } }))).toHaveLength(12_000_000);
      await client.close();
    } finally {
      await gateway.close();
    }
  }, 60_000);

  it('a request from the client over the limit is answered an error, with the reason logged, and the session goes on', async () => {
    const gw = await stdioGateway(project(), 'files', [process.execPath, ...TINY], ['--max-message-mib', '1']);
    try {
      await expect(gw.client.callTool({ name: 'echo', arguments: { text: 'y'.repeat(1_500_000) } })).rejects.toThrow(
        /^MCP error -32600: a request of 1\.4 MiB \(\d+ bytes\), over this gateway's limit of 1\.0 MiB for one message \(--max-message-mib\); send less$/,
      );
      expect(text(await gw.client.callTool({ name: 'echo', arguments: { text: 'after' } }))).toBe('after');
      expect(gw.log()).toMatch(/gateway: the client sent a request of 1\.4 MiB .*: answered an error, the session goes on/);
      recordFaults({ injected: 1, recovered: 1, lost: 0, falseSuccesses: 0 });
    } finally {
      await gw.client.close();
    }
  }, 60_000);
});

describe('what passes through, and what the gateway answers itself', () => {
  it("passes the upstream's prompts, resources and instructions through; errors carry one prefix", async () => {
    const gw = await stdioGateway(project(['echo']), 'files', [process.execPath, ...TINY]);
    const { client } = gw;
    try {
      expect(client.getServerCapabilities()).toMatchObject({ tools: {}, prompts: {}, resources: {} });
      expect(client.getInstructions()).toBe('A tiny server for the gateway tests.');
      expect((await client.listTools()).tools.map((t) => t.name)).toEqual(['echo']);
      expect((await client.listPrompts()).prompts.map((p) => p.name)).toEqual(['greet']);
      expect(await client.getPrompt({ name: 'greet', arguments: { name: 'Ada' } })).toMatchObject({
        messages: [{ role: 'user', content: { type: 'text', text: 'Say hello to Ada.' } }],
      });
      expect((await client.listResources()).resources).toMatchObject([{ uri: 'note://readme', name: 'readme' }]);
      expect((await client.listResourceTemplates()).resourceTemplates).toMatchObject([{ uriTemplate: 'greeting://{name}' }]);
      expect((await client.readResource({ uri: 'note://readme' })).contents).toMatchObject([{ text: 'the readme of the tiny server' }]);
      expect((await client.readResource({ uri: 'greeting://Ada' })).contents).toMatchObject([{ text: 'Hello, Ada!' }]);
      await expect(client.getPrompt({ name: 'nope' })).rejects.toThrow(/^MCP error -32602: Prompt nope not found$/);
      await expect(client.callTool({ name: 'crash', arguments: {} })).rejects.toThrow(
        /^MCP error -32602: tool "crash" is hidden by the approved space of task "files" \(v0: pinned echo\); the LOTS gateway refuses it$/,
      );
    } finally {
      await client.close();
    }
  }, 60_000);

  it('serves a task the project has no traces of yet (every tool), and records its calls under it', async () => {
    const dir = project();
    const lines: string[] = [];
    const gateway = await McpGateway.start({
      store: ProjectStore.open(dir),
      task: 'audit',
      upstream: { command: process.execPath, args: TINY },
      log: (l) => void lines.push(l),
    });
    try {
      expect(lines.join('\n')).toMatch(/task "audit" is new to this project \(no traces or space yet; its tasks: none\): every tool is shown/);
      const client = await httpClient(await gateway.serveHttp());
      expect((await client.listTools()).tools.map((t) => t.name).sort()).toEqual(['big', 'crash', 'echo', 'pid']);
      expect(text(await client.callTool({ name: 'echo', arguments: { text: 'first audit' } }))).toBe('first audit');
      await client.close();
    } finally {
      expect((await gateway.close()).committed).toBe(1);
    }
    const traces = ProjectStore.open(dir).listTraces();
    expect(traces).toMatchObject([{ task: 'audit', turns: [{ steps: [{ kind: 'call', calls: [{ name: 'echo' }] }, { content: 'first audit' }] }] }]);
    expect(ProjectStore.open(dir).traceTasks().size).toBe(1);
  }, 60_000);

  it('answers its own refusals on /mcp as JSON-RPC errors (401, 403, 404, 405, 413, 400)', async () => {
    const gateway = await McpGateway.start({ store: ProjectStore.open(project()), task: 'files', upstream: { command: process.execPath, args: TINY } });
    try {
      const url = await gateway.serveHttp({ token: 'tok', maxBodyBytes: 1000 });
      const auth = { authorization: 'Bearer tok', 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
      const cases: [number, number, RegExp, Promise<Response>][] = [
        [401, -32000, /needs its token/, fetch(url, { method: 'POST', body: '{}' })],
        [404, -32000, /no such endpoint \/other/, fetch(url.replace('/mcp', '/other'), { method: 'POST', headers: auth, body: '{}' })],
        [405, -32000, /only POST \/mcp/, fetch(url, { method: 'GET', headers: auth })],
        [413, -32000, /over the gateway's cap of 1000 bytes/, fetch(url, { method: 'POST', headers: auth, body: 'x'.repeat(2000) })],
        [400, -32700, /malformed JSON in the request body at line 1, column 2/, fetch(url, { method: 'POST', headers: auth, body: '{x' })],
      ];
      for (const [status, code, message, pending] of cases) {
        const res = await pending;
        expect(res.status).toBe(status);
        const body = (await res.json()) as Record<string, unknown>;
        expect(body).toEqual({ jsonrpc: '2.0', error: { code, message: expect.stringMatching(message) }, id: null });
      }
    } finally {
      await gateway.close();
    }
    // Without a token, a browser's Origin is refused (403), also as JSON-RPC.
    const open = await McpGateway.start({ store: ProjectStore.open(project()), task: 'files', upstream: { command: process.execPath, args: TINY } });
    try {
      const res = await fetch(await open.serveHttp(), {
        method: 'POST',
        headers: { origin: 'http://evil.example', 'content-type': 'application/json' },
        body: '{}',
      });
      expect(res.status).toBe(403);
      expect(await res.json()).toEqual({ jsonrpc: '2.0', error: { code: -32000, message: expect.stringMatching(/Origin/) }, id: null });
    } finally {
      await open.close();
    }
  }, 60_000);

  it('leaves nothing running when it cannot listen (the port is taken): the upstream is closed', async () => {
    const taken = createServer();
    await new Promise<void>((done) => taken.listen(0, '127.0.0.1', done));
    const port = (taken.address() as { port: number }).port;
    const gateway = await McpGateway.start({ store: ProjectStore.open(project()), task: 'files', upstream: { command: process.execPath, args: TINY } });
    const pid = (await gateway.upstreamPid())!;
    expect(alive(pid)).toBe(true);
    try {
      await expect(gateway.serveHttp({ port })).rejects.toThrow(/EADDRINUSE/);
      expect(alive(pid)).toBe(false);
    } finally {
      taken.close();
    }
  }, 60_000);
});

describe('the upstream command as the project keeps it', () => {
  it('never stores a NAME=VALUE or a flag value from the command line (status record, traces, log)', async () => {
    const dir = project();
    const secret = 'ghp_16C7e42F292c6912E7710c838347Ae178B4a';
    const gw = await stdioGateway(dir, 'files', ['env', `GITHUB_TOKEN=${secret}`, process.execPath, ...TINY, '--token', 'hunter2-value']);
    try {
      expect(text(await gw.client.callTool({ name: 'echo', arguments: { text: 'x' } }))).toBe('x');
    } finally {
      await gw.client.close();
    }
    const log = await gw.waitFor(/gateway exit code 0/);
    expect(record(dir).upstream).toBe('env tiny-mcp-server.ts');
    const written = [readFileSync(join(dir, 'gateways', `${record(dir).id}.json`), 'utf8'), JSON.stringify(ProjectStore.open(dir).listTraces()), log];
    for (const w of written) {
      expect(w).not.toContain(secret);
      expect(w).not.toContain('hunter2');
    }
  }, 60_000);
});
