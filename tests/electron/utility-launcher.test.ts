// The desktop app's worker launcher over a mocked utilityProcess: it forks with the options Electron
// accepts, adapts messages both ways (postMessage / 'message' on the parent side, parentPort's
// event.data on the worker side), reports exit, and never posts to an exited process.
import { EventEmitter } from 'node:events';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { workerPort } from '../../electron/engine/jobs/port';

class FakeUtilityProcess extends EventEmitter {
  pid: number | undefined = 4242;
  stdout = null;
  stderr = null;
  posted: unknown[] = [];
  killed = 0;
  postMessage(message: unknown): void {
    this.posted.push(message);
  }
  kill(): boolean {
    this.killed++;
    return true;
  }
}

const forks: Array<{ modulePath: string; args: string[]; options: Record<string, unknown>; child: FakeUtilityProcess }> = [];

vi.mock('electron', () => ({
  utilityProcess: {
    fork: (modulePath: string, args: string[], options: Record<string, unknown>) => {
      const child = new FakeUtilityProcess();
      forks.push({ modulePath, args, options, child });
      return child;
    },
  },
}));

const { utilityProcessLauncher } = await import('../../electron/worker-launcher');

afterEach(() => {
  forks.length = 0;
  vi.restoreAllMocks();
});

describe('utilityProcess launcher', () => {
  it('forks the entry with a service name, execArgv, merged env and stdin ignored', () => {
    utilityProcessLauncher().launch('/app/dist-electron/job-worker.js', ['--x'], { name: 'scoring', stdio: 'ignore', env: { LOTS_TEST_VALUE: '1' } });
    expect(forks).toHaveLength(1);
    const { modulePath, args, options } = forks[0]!;
    expect(modulePath).toBe('/app/dist-electron/job-worker.js');
    expect(args).toEqual([]);
    expect(options).toMatchObject({ serviceName: 'LOTS Studio scoring', execArgv: ['--x'], stdio: ['ignore', 'ignore', 'ignore'] });
    expect((options.env as NodeJS.ProcessEnv).LOTS_TEST_VALUE).toBe('1');
    expect((options.env as NodeJS.ProcessEnv).PATH).toBe(process.env.PATH);
    // A cwd inside app.asar breaks the launch: none is passed.
    expect(options).not.toHaveProperty('cwd');
    utilityProcessLauncher().launch('/w.js', []);
    expect(forks[1]!.options.stdio).toEqual(['ignore', 'inherit', 'inherit']);
  });

  it('adapts messages both ways, reports the exit code, then drops sends', () => {
    const channel = utilityProcessLauncher().launch('/w.js', []);
    const child = forks[0]!.child;
    expect(channel.pid).toBe(4242);
    expect(channel.send({ type: 'start' })).toBe(true);
    expect(child.posted).toEqual([{ type: 'start' }]);
    const got: unknown[] = [];
    channel.onMessage((m) => got.push(m));
    child.emit('message', { type: 'progress', done: 2 });
    expect(got).toEqual([{ type: 'progress', done: 2 }]);

    const exits: Array<[number | null, NodeJS.Signals | null]> = [];
    let sentFromExitListener: boolean | undefined;
    channel.onExit((code, signal) => {
      exits.push([code, signal]);
      // electron#53923: posting from the exit listener crashed the main process; the channel refuses.
      sentFromExitListener = channel.send({ type: 'cancel' });
    });
    child.emit('exit', 0);
    expect(exits).toEqual([[0, null]]);
    expect(sentFromExitListener).toBe(false);
    expect(channel.exited).toBe(true);
    expect(child.posted).toEqual([{ type: 'start' }]);
    channel.kill();
    expect(child.killed).toBe(0);
  });

  it('kill() asks Electron to terminate; SIGKILL signals the pid directly', () => {
    const channel = utilityProcessLauncher().launch('/w.js', []);
    const child = forks[0]!.child;
    channel.kill('SIGTERM');
    expect(child.killed).toBe(1);
    const kill = vi.spyOn(process, 'kill').mockImplementation(() => true);
    channel.kill('SIGKILL');
    expect(kill).toHaveBeenCalledWith(4242, 'SIGKILL');
    expect(child.killed).toBe(1);
    kill.mockImplementation(() => {
      throw Object.assign(new Error('no such process'), { code: 'ESRCH' });
    });
    channel.kill('SIGKILL');
    expect(child.killed).toBe(2);
  });

  it('carries a job’s conversation end to end: launcher ⇄ utility process ⇄ workerPort', async () => {
    // Wire the fake utility process to a fake worker process the way Electron does: the parent's
    // postMessage arrives on the worker's parentPort as event.data; the worker's postMessage is the
    // parent's 'message'.
    const channel = utilityProcessLauncher().launch('/w.js', []);
    const child = forks[0]!.child;
    const parentPort = new EventEmitter() as EventEmitter & { postMessage(m: unknown): void };
    parentPort.postMessage = (m) => child.emit('message', structuredClone(m));
    child.postMessage = (m) => void parentPort.emit('message', { data: structuredClone(m), ports: [] });
    let exitCode: number | undefined;
    const proc = Object.assign(new EventEmitter(), { parentPort, exit: (code?: number) => ((exitCode = code), child.emit('exit', code)) as never });
    const port = workerPort(proc)!;
    port.onMessage((m) => {
      const message = m as { type: string; n: number };
      if (message.type === 'echo') port.send({ type: 'echoed', n: message.n + 1 });
      if (message.type === 'done') {
        port.send({ type: 'finished' });
        void port.exit(0);
      }
    });

    const got: unknown[] = [];
    channel.onMessage((m) => got.push(m));
    const exited = new Promise<number | null>((resolve) => channel.onExit((code) => resolve(code)));
    channel.send({ type: 'echo', n: 1 });
    channel.send({ type: 'done', n: 0 });
    expect(await exited).toBe(0);
    expect(exitCode).toBe(0);
    expect(got).toEqual([{ type: 'echoed', n: 2 }, { type: 'finished' }]);
  });
});
