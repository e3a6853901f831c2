// Issue 37 item 19: a server started through npm (`npx lots ui`, `npx lots gateway openai`) stops cleanly
// when its supervisor sends SIGTERM to the npx process: npm does not pass the signal on and the shell
// between them dies with it, so the server used to be orphaned, still serving, its batch never committed.
// Here: real processes, npx as the parent; SIGTERM to npx; the server must be gone, having run its cleanup
// (`lots ui: stopped.`; the gateway's batch committed into the project).
import { spawn, type ChildProcess } from 'node:child_process';
import { afterAll, describe, expect, it } from 'vitest';
import { tempDir } from '../cli/io';
import { chatRequest, gatewayTraces, makeProject, post } from '../gateway/fixture';
import { startTinyUpstream } from '../gateway/tiny-upstream';
import { ensureRendererBuilt } from '../e2e/studio';
import { alive } from '../processes';

const tmp = tempDir('lots-launcher-');
const started: ChildProcess[] = [];
/** Servers found under npx: killed at the end if one outlived its test (the bug). */
const servers: number[] = [];
afterAll(() => {
  tmp.cleanup();
});

/** `npx lots <argv>`; resolves once `ready` matches what it printed, with the server's pid (npx's grandchild). */
async function viaNpx(argv: string[], ready: RegExp): Promise<{ npx: ChildProcess; match: RegExpExecArray; output: () => string; serverPid: number }> {
  const npx = spawn('npx', ['--no-install', 'lots', ...argv], { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, LOTS_CONFIG_DIR: tmp.dir } });
  started.push(npx);
  let text = '';
  const match = await new Promise<RegExpExecArray>((done, fail) => {
    const look = (d: Buffer): void => {
      text += d.toString();
      const m = ready.exec(text);
      if (m) done(m);
    };
    npx.stdout.on('data', look);
    npx.stderr.on('data', look);
    npx.once('exit', () => fail(new Error(`npx exited first:\n${text}`)));
  });
  const serverPid = Number(
    /^\s*(\d+)/.exec(
      (await run('ps', ['-eo', 'pid,args'])).split('\n').find((l) => l.includes('bin/lots') && l.includes(argv.join(' ')) && !l.includes('npm exec')) ?? '',
    )?.[1],
  );
  expect(serverPid).toBeGreaterThan(0);
  servers.push(serverPid);
  return { npx, match, output: () => text, serverPid };
}

function run(cmd: string, args: string[]): Promise<string> {
  return new Promise((done) => {
    const c = spawn(cmd, args, { stdio: ['ignore', 'pipe', 'ignore'] });
    let out = '';
    c.stdout.on('data', (d: Buffer) => (out += d.toString()));
    c.once('exit', () => done(out));
  });
}

/** Every byte npx's pipes carry has been read: both closed (the server and npx, their writers, are gone).
 * The server's last line can still be in the pipe when its process is already gone. */
async function drained(npx: ChildProcess): Promise<void> {
  const closed = (s: NodeJS.ReadableStream & { closed?: boolean }) => (s.closed ? Promise.resolve() : new Promise<void>((r) => s.once('close', () => r())));
  await Promise.all([closed(npx.stdout!), closed(npx.stderr!)]);
}

async function gone(pid: number): Promise<boolean> {
  for (let i = 0; i < 200 && alive(pid); i++) await new Promise((r) => setTimeout(r, 100));
  return !alive(pid);
}

afterAll(() => {
  for (const c of started) if (c.exitCode === null) c.kill('SIGKILL');
  for (const pid of servers) if (alive(pid)) process.kill(pid, 'SIGKILL');
});

describe('SIGTERM to the npx that started the server', () => {
  it('stops `npx lots ui` cleanly', async () => {
    ensureRendererBuilt();
    const ui = await viaNpx(['ui', '--port', '0'], /Open: (http:\S+)/);
    ui.npx.kill('SIGTERM');
    expect(await gone(ui.serverPid)).toBe(true);
    await drained(ui.npx);
    expect(ui.output()).toContain('lots ui: stopped.');
  }, 120_000);

  it('stops `npx lots gateway openai`, which commits its batch first', async () => {
    const upstream = await startTinyUpstream();
    const project = makeProject(tmp.dir);
    try {
      const gw = await viaNpx(
        ['gateway', 'openai', '--project', project, '--upstream', upstream.url, '--port', '0', '--summary-s', '0'],
        /serving (http:\/\/127\.0\.0\.1:\d+)\/v1/,
      );
      expect((await post(gw.match[1]!, chatRequest('convert 5 EUR'), { 'x-lots-task': 'fx' })).status).toBe(200);
      gw.npx.kill('SIGTERM');
      expect(await gone(gw.serverPid)).toBe(true);
      await drained(gw.npx);
      expect(gw.output()).toMatch(/stopped; 1 trace\(s\) recorded into the project/);
      expect(gatewayTraces(project)).toHaveLength(1);
    } finally {
      await upstream.close();
    }
  }, 120_000);
});
