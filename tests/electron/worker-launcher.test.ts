// The engine's worker plumbing over real processes: the fork launcher and the worker's port agree on
// messages both ways, the last message before exit arrives, exit codes and signals come through, and
// a worker run by hand says what it is instead of hanging.
import { EventEmitter } from 'node:events';
import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { forkLauncher, workerEntry, type WorkerChannel } from '../../electron/engine/jobs/launcher';
import { workerPort, type WorkerProcess } from '../../electron/engine/jobs/port';

const ECHO = workerEntry(new URL('fixtures/echo-worker.ts', import.meta.url).href, 'echo-worker');

function nextMessage(channel: WorkerChannel, got: unknown[]): Promise<unknown> {
  const seen = got.length;
  return new Promise((resolve) => {
    const check = setInterval(() => {
      if (got.length > seen) {
        clearInterval(check);
        resolve(got[seen]);
      }
    }, 5);
    channel.onExit(() => clearInterval(check));
  });
}

function exitOf(channel: WorkerChannel): Promise<{ code: number | null; signal: NodeJS.Signals | null }> {
  return new Promise((resolve) => channel.onExit((code, signal) => resolve({ code, signal })));
}

describe('fork launcher and workerPort over a real child process', () => {
  it('resolves the .ts source through tsx when no bundled .js sits next to the caller', () => {
    expect(ECHO.entry).toMatch(/fixtures[/\\]echo-worker\.ts$/);
    expect(ECHO.execArgv[0]).toBe('--import');
    expect(ECHO.execArgv[1]).toMatch(/^file:.*tsx/);
  });

  it('round-trips a message, delivers the last message before exit, and reports the exit code', async () => {
    const child = forkLauncher.launch(ECHO.entry, ECHO.execArgv, { stdio: 'ignore', name: 'echo' });
    const got: unknown[] = [];
    child.onMessage((m) => got.push(m));
    const exited = exitOf(child);
    expect(child.send({ type: 'echo', n: 41 })).toBe(true);
    const reply = (await nextMessage(child, got)) as { type: string; n: number; kind: string; pid: number };
    expect(reply).toMatchObject({ type: 'echoed', n: 42, kind: 'fork' });
    expect(reply.pid).toBe(child.pid);
    expect(reply.pid).not.toBe(process.pid);
    child.send({ type: 'exit', code: 3 });
    expect(await exited).toEqual({ code: 3, signal: null });
    expect(got.at(-1)).toEqual({ type: 'bye', code: 3 });
    expect(child.exited).toBe(true);
    expect(child.send({ type: 'echo', n: 1 })).toBe(false);
  });

  it('kills with the signal asked for; killing an exited worker is a no-op', async () => {
    const child = forkLauncher.launch(ECHO.entry, ECHO.execArgv, { stdio: 'ignore' });
    const got: unknown[] = [];
    child.onMessage((m) => got.push(m));
    child.send({ type: 'echo', n: 0 });
    await nextMessage(child, got);
    const exited = exitOf(child);
    child.kill('SIGKILL');
    expect(await exited).toEqual({ code: null, signal: 'SIGKILL' });
    expect(() => child.kill('SIGKILL')).not.toThrow();
  });

  it('passes extra environment and pipes output when asked', async () => {
    const child = forkLauncher.launch(ECHO.entry, ECHO.execArgv, { stdio: 'pipe', env: { LOTS_TEST_VALUE: 'from-parent' } });
    let out = '';
    child.stdout!.on('data', (chunk: Buffer) => (out += chunk.toString()));
    const got: unknown[] = [];
    child.onMessage((m) => got.push(m));
    child.send({ type: 'echo', n: 7 });
    expect(await nextMessage(child, got)).toMatchObject({ n: 8, env: 'from-parent' });
    child.send({ type: 'exit', code: 0 });
    await exitOf(child);
    expect(out).toContain('echo 7');
  });

  it('a worker started by hand, without a parent, says so and exits with code 2', () => {
    const r = spawnSync(process.execPath, [...ECHO.execArgv, ECHO.entry], { encoding: 'utf8', timeout: 60_000 });
    expect(r.status).toBe(2);
    expect(r.stderr).toContain('echo-worker is a worker process');
  });
});

describe('workerPort under Electron’s utilityProcess (process.parentPort)', () => {
  function fakeProcess() {
    const parentPort = Object.assign(new EventEmitter(), { posted: [] as unknown[], postMessage: (m: unknown) => parentPort.posted.push(m) });
    const exits: number[] = [];
    const proc = Object.assign(new EventEmitter(), {
      parentPort,
      // A utility process has no IPC channel of its own; were both present, parentPort wins.
      send: () => {
        throw new Error('process.send must not be used under a utility process');
      },
      exit: (code?: number) => {
        exits.push(code ?? 0);
        return undefined as never;
      },
    });
    return { proc: proc as unknown as WorkerProcess, parentPort, exits };
  }

  it('unwraps event.data on the way in, posts plain messages on the way out, and exits with the code', async () => {
    const { proc, parentPort, exits } = fakeProcess();
    const port = workerPort(proc)!;
    expect(port.kind).toBe('utility');
    const got: unknown[] = [];
    port.onMessage((m) => got.push(m));
    parentPort.emit('message', { data: { type: 'start', spec: { jobId: 'j1' } }, ports: [] });
    expect(got).toEqual([{ type: 'start', spec: { jobId: 'j1' } }]);
    port.send({ type: 'progress', done: 1 });
    expect(parentPort.posted).toEqual([{ type: 'progress', done: 1 }]);
    await port.exit(4);
    expect(exits).toEqual([4]);
  });

  it('is null when nothing started this process (no parentPort, no IPC channel)', () => {
    const proc = Object.assign(new EventEmitter(), { exit: () => undefined as never }) as unknown as WorkerProcess;
    expect(workerPort(proc)).toBeNull();
  });
});
