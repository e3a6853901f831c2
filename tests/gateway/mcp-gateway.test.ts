// The MCP gateway in front of a real MCP server from npm (@modelcontextprotocol/server-filesystem), driven
// by the SDK's real client: over stdio through `lots gateway mcp` as a process, and over streamable HTTP.
// tools/list shows only the approved space, a hidden tool's call is refused with an MCP error, an allowed
// call returns the upstream's own result, and each call lands in the project as a trace of a new batch.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { McpGateway } from '../../electron/engine/gateway/mcp-gateway';
import { ProjectStore } from '../../electron/engine/store';
import type { GatewayStatus } from '../../shared/project/gateways';
import { runCli, tempDir } from '../cli/io';

const tmp = tempDir('lots-gateway-mcp-');
afterAll(() => tmp.cleanup());

const FS_SERVER = resolve('node_modules/@modelcontextprotocol/server-filesystem/dist/index.js');
const SPACE = ['list_directory', 'read_text_file'];
let data: string;

function project(name: string): string {
  const dir = join(tmp.dir, name);
  const store = ProjectStore.create(dir);
  store.acceptSpace({ task: 'files', tools: SPACE, pinned: [], banned: [], rule: { kind: 'topk', k: 2 }, note: 'read-only file access' });
  return dir;
}

const env = (): Record<string, string> => Object.fromEntries(Object.entries(process.env).filter((e): e is [string, string] => e[1] !== undefined));
const text = (r: unknown): string => ((r as { content: { type: string; text: string }[] }).content[0]?.text ?? '').trim();

async function connect(transport: StdioClientTransport | StreamableHTTPClientTransport): Promise<Client> {
  const client = new Client({ name: 'test-agent', version: '1.0.0' });
  await client.connect(transport);
  return client;
}

/** The project's one gateway status record, once it shows what `ready` waits for (it is rewritten soon after each request). */
async function statusOf(dir: string, ready: (r: GatewayStatus) => boolean): Promise<GatewayStatus> {
  let last: GatewayStatus | undefined;
  for (let i = 0; i < 100; i++) {
    last = ProjectStore.open(dir).listGateways()[0];
    if (last && ready(last)) return last;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`the gateway's status record never showed it: ${JSON.stringify(last)}`);
}

beforeAll(() => {
  data = join(tmp.dir, 'data');
  mkdirSync(data);
  writeFileSync(join(data, 'notes.txt'), 'the gateway test file\n');
});

describe('lots gateway mcp (stdio) in front of the npm filesystem server', () => {
  it('lists only the space, refuses a hidden tool, returns the upstream result of an allowed call, records the calls', async () => {
    const dir = project('stdio');
    const direct = await connect(new StdioClientTransport({ command: process.execPath, args: [FS_SERVER, data], stderr: 'ignore' }));
    const all = (await direct.listTools()).tools.map((t) => t.name);
    const upstreamResult = await direct.callTool({ name: 'read_text_file', arguments: { path: join(data, 'notes.txt') } });
    await direct.close();
    expect(all).toEqual(expect.arrayContaining([...SPACE, 'write_file']));

    const stderr: string[] = [];
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: ['bin/lots.mjs', 'gateway', 'mcp', '--project', dir, '--task', 'files', '--summary-s', '0', '--', process.execPath, FS_SERVER, data],
      env: env(),
      stderr: 'pipe',
    });
    transport.stderr?.on('data', (d: Buffer) => void stderr.push(d.toString()));
    const client = await connect(transport);
    try {
      expect((await client.listTools()).tools.map((t) => t.name).sort()).toEqual(SPACE);
      await expect(client.callTool({ name: 'write_file', arguments: { path: join(data, 'x.txt'), content: 'no' } })).rejects.toThrow(
        /^MCP error -32602: tool "write_file" is hidden by the approved space of task "files" \(v0: pinned list_directory, read_text_file\)/,
      );
      const allowed = await client.callTool({ name: 'read_text_file', arguments: { path: join(data, 'notes.txt') } });
      expect(allowed).toEqual(upstreamResult);
      expect(text(await client.callTool({ name: 'list_directory', arguments: { path: data } }))).toContain('notes.txt');
      // The gateway says in the project what it serves and counts (the Studio's Gateway view reads it):
      // one tools/list and two forwarded calls of task files, the hidden tools, the refused call, the batch.
      const live = await statusOf(dir, (r) => r.tasks[0]?.requests === 3);
      expect(live).toMatchObject({
        kind: 'mcp',
        transport: 'stdio',
        url: 'stdio',
        upstream: 'node index.js',
        task: 'files',
        state: 'running',
        refused: 1,
        batch: { source: `gateway-mcp-${live.id}`, recorded: 2, committed: 0, files: [] },
      });
      expect(live.tasks).toEqual([
        {
          task: 'files',
          requests: 3,
          noSpace: 0,
          toolsHidden: all.length - SPACE.length,
          tokensSaved: expect.any(Number),
          promptTokens: 0,
          failed: 0,
          spaceVersion: 0,
        },
      ]);
      expect(live.tasks[0]!.tokensSaved).toBeGreaterThan(50);
    } finally {
      await client.close();
    }
    // The client went away: the gateway commits its batch and exits.
    for (let i = 0; i < 100 && !stderr.join('').includes('stopped;'); i++) await new Promise((r) => setTimeout(r, 100));
    expect(stderr.join('')).toMatch(/stopped; 2 trace\(s\) recorded into the project/);
    const traces = ProjectStore.open(dir)
      .listTraces()
      .filter((t) => t.meta?.gateway !== undefined);
    expect(traces).toHaveLength(2);
    expect(traces[0]).toMatchObject({
      task: 'files',
      turns: [
        {
          steps: [
            { kind: 'call', calls: [{ name: 'read_text_file' }] },
            { kind: 'observation', content: 'the gateway test file\n' },
          ],
        },
      ],
    });
    expect(traces[0]!.tools.map((t) => t.name).sort()).toEqual(SPACE);
    expect((traces[0]!.meta!.gateway as { hidden: string[] }).hidden).toContain('write_file');
    // Stopped: the record says so, with the batch it committed.
    const [stopped] = ProjectStore.open(dir).listGateways();
    expect(stopped).toMatchObject({ state: 'stopped', batch: { recorded: 2, queued: 0, committed: 2, files: ['0001.jsonl'] } });
    expect(stopped!.stoppedAt).toBeDefined();
  }, 60_000);

  it('says when the upstream does not start (showing its name only), and wants a command', async () => {
    // A --help after -- belongs to the upstream's command line, not to lots.
    const upstreamHelp = await runCli(['gateway', 'mcp', '--project', project('help'), '--task', 'nope', '--', 'no-such-server', '--token', 'VALUE', '--help']);
    expect(upstreamHelp.code).toBe(2);
    expect(upstreamHelp.err).toMatch(/the upstream MCP server \(no-such-server\) did not start: spawn no-such-server ENOENT/);
    expect(upstreamHelp.err).not.toContain('VALUE');
    const none = await runCli(['gateway', 'mcp', '--project', project('nocmd'), '--task', 'files']);
    expect(none.err).toMatch(/give the upstream MCP server command after --/);
  });
});

describe('the MCP gateway over streamable HTTP', () => {
  it('serves the same cut menu and refusal to an HTTP client, with a token', async () => {
    const dir = project('http');
    const gateway = await McpGateway.start({ store: ProjectStore.open(dir), task: 'files', upstream: { command: process.execPath, args: [FS_SERVER, data] } });
    try {
      const url = await gateway.serveHttp({ token: 'tok' });
      const refused = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
      expect(refused.status).toBe(401);
      expect(ProjectStore.open(dir).listGateways()).toMatchObject([{ kind: 'mcp', transport: 'http', url, state: 'running' }]);
      expect(JSON.stringify(ProjectStore.open(dir).listGateways())).not.toContain('tok"'); // never the token
      const client = await connect(new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers: { authorization: 'Bearer tok' } } }));
      expect((await client.listTools()).tools.map((t) => t.name).sort()).toEqual(SPACE);
      await expect(client.callTool({ name: 'write_file', arguments: { path: join(data, 'y.txt'), content: 'no' } })).rejects.toThrow(
        /is hidden by the approved space/,
      );
      expect(text(await client.callTool({ name: 'read_text_file', arguments: { path: join(data, 'notes.txt') } }))).toBe('the gateway test file');
      await client.close();
    } finally {
      expect((await gateway.close()).committed).toBe(1);
    }
  }, 60_000);
});

describe('deferred tools through the MCP gateway (issue 44)', () => {
  it('lists a deferred tool demoted (or leaves it out with hide), forwards its call and records it as called while deferred', async () => {
    const dir = join(tmp.dir, 'deferred');
    ProjectStore.create(dir).acceptSpace({
      task: 'files',
      tools: SPACE,
      deferred: ['get_file_info'],
      pinned: [],
      banned: [],
      rule: { kind: 'topk', k: 2 },
      note: 'file info deferred',
    });
    const direct = await connect(new StdioClientTransport({ command: process.execPath, args: [FS_SERVER, data], stderr: 'ignore' }));
    const upstreamInfo = (await direct.listTools()).tools.find((t) => t.name === 'get_file_info')!;
    await direct.close();
    const lines: string[] = [];
    for (const form of ['demote', 'hide'] as const) {
      const gateway = await McpGateway.start({
        store: ProjectStore.open(dir),
        task: 'files',
        upstream: { command: process.execPath, args: [FS_SERVER, data] },
        deferred: form,
        log: (l) => void lines.push(l),
      });
      try {
        const client = await connect(new StreamableHTTPClientTransport(new URL(await gateway.serveHttp({}))));
        const tools = (await client.listTools()).tools;
        if (form === 'demote') {
          expect(tools.map((t) => t.name).sort()).toEqual([...SPACE, 'get_file_info'].sort());
          const info = tools.find((t) => t.name === 'get_file_info')!;
          // Its name and the first sentence of its description, no schema; the pinned tools as the upstream lists them.
          expect(info.inputSchema).toEqual({ type: 'object' });
          expect(upstreamInfo.description!.startsWith(info.description!.replace(/…$/, ''))).toBe(true);
          expect(info.description!.length).toBeLessThanOrEqual(120);
        } else expect(tools.map((t) => t.name).sort()).toEqual(SPACE);
        const got = await client.callTool({ name: 'get_file_info', arguments: { path: join(data, 'notes.txt') } });
        expect(text(got)).toContain('size');
        await client.close();
      } finally {
        expect((await gateway.close()).committed).toBe(1);
      }
    }
    expect(lines.filter((l) => /tools\/call get_file_info task=files → ok in \d+ ms, called while deferred/.test(l))).toHaveLength(2);
    expect(lines.some((l) => /tools\/list task=files \d+→2 pinned, 1 deferred \(demote\), \d+ hidden \(space v0\)/.test(l))).toBe(true);
    const traces = ProjectStore.open(dir).listTraces();
    expect(traces).toHaveLength(2);
    for (const t of traces) expect(t.meta!.gateway).toMatchObject({ kind: 'mcp', deferred: ['get_file_info'], calledWhileDeferred: ['get_file_info'] });
    expect(traces.map((t) => t.tools.map((x) => x.name).sort())).toEqual([[...SPACE, 'get_file_info'].sort(), SPACE]);
  }, 60_000);
});
