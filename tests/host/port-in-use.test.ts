// Issue 37 item 18: `lots ui`, `lots gateway openai` and `lots gateway mcp --http` started on a port that is
// already in use say so in one line naming the port and `--port`, exit 2, and leave nothing running (the
// MCP gateway's upstream server included), instead of a stack trace and, for the MCP gateway, a process
// that never ends.
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempDir } from '../cli/io';
import { makeProject } from '../gateway/fixture';
import { ensureRendererBuilt } from '../e2e/studio';

const tmp = tempDir('lots-port-in-use-');
const FS_SERVER = resolve('node_modules/@modelcontextprotocol/server-filesystem/dist/index.js');
const started: ChildProcess[] = [];
let busy: Server;
let port: number;

beforeAll(async () => {
  busy = createServer();
  await new Promise<void>((done) => busy.listen(0, '127.0.0.1', () => done()));
  port = (busy.address() as { port: number }).port;
});
afterAll(async () => {
  // A process that never ended (the bug) must not outlive the test run.
  for (const child of started) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  await new Promise<void>((done) => busy.close(() => done()));
  tmp.cleanup();
});

/** Runs `lots <argv>` as its own process to the end (the test's timeout catches one that never ends). */
function lots(argv: string[]): Promise<{ code: number | null; out: string; err: string }> {
  const child = spawn(process.execPath, ['bin/lots.mjs', ...argv], {
    stdio: ['pipe', 'pipe', 'pipe'],
    env: { ...process.env, LOTS_CONFIG_DIR: join(tmp.dir, 'config') },
  });
  started.push(child);
  let out = '';
  let err = '';
  child.stdout.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr.on('data', (d: Buffer) => (err += d.toString()));
  return new Promise((done) => child.once('exit', (code) => done({ code, out, err })));
}

/** Processes whose command line mentions `marker`. */
function processesWith(marker: string): string[] {
  return execFileSync('ps', ['-eo', 'pid,args'], { encoding: 'utf8' })
    .split('\n')
    .filter((l) => l.includes(marker) && !l.includes('ps -eo'));
}

function expectOneLine(err: string, command: string): void {
  const lines = err.trim().split('\n');
  expect(lines.at(-1)).toMatch(
    new RegExp(`^lots ${command}: cannot listen: port ${port} on 127\\.0\\.0\\.1 is already in use .*give another port with --port N`),
  );
  expect(err).not.toMatch(/unexpected error|a bug|\n\s+at /);
}

describe('a port already in use', () => {
  it('lots ui: one line, exit 2', async () => {
    ensureRendererBuilt();
    const run = await lots(['ui', '--port', String(port)]);
    expect(run.code).toBe(2);
    expectOneLine(run.err, 'ui');
    expect(run.out).not.toMatch(/Open:/);
  }, 120_000);

  it('lots gateway openai: one line, exit 2', async () => {
    const project = makeProject(tmp.dir, 'openai');
    const run = await lots(['gateway', 'openai', '--project', project, '--upstream', 'http://127.0.0.1:9', '--port', String(port)]);
    expect(run.code).toBe(2);
    expectOneLine(run.err, 'gateway openai');
  }, 60_000);

  it('lots gateway mcp --http: one line, exit 2, and its upstream server is stopped too', async () => {
    const project = makeProject(tmp.dir, 'mcp');
    const data = join(tmp.dir, 'mcp-upstream-data');
    mkdirSync(data);
    const run = await lots(['gateway', 'mcp', '--project', project, '--task', 'fx', '--http', '--port', String(port), '--', process.execPath, FS_SERVER, data]);
    expect(run.code).toBe(2);
    expectOneLine(run.err, 'gateway mcp');
    expect(processesWith(data)).toEqual([]);
  }, 60_000);
});
