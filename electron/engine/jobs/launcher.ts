// How the engine starts its job worker (scoring, faithfulness checks, sweeps: job-worker.ts). The engine
// only sees a WorkerChannel; who launches it is the host's choice: child_process.fork here (CLI, web host, tests), Electron's
// utilityProcess in the desktop app (electron/worker-launcher.ts), which lets the packaged app keep
// the runAsNode fuse off — fork re-launches the Electron binary as Node, which that fuse forbids.
import { fork } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

export type WorkerStdio = 'inherit' | 'ignore' | 'pipe';

export interface LaunchOptions {
  /** What the process is, for the OS's process list (Electron: the utility process's serviceName). */
  name?: string;
  /** Extra environment on top of this process's. */
  env?: NodeJS.ProcessEnv;
  /** The worker's stdout/stderr (default: inherit); stdin is never connected. */
  stdio?: WorkerStdio;
}

/** A running worker seen from its parent. Messages are JSON-serialisable values. */
export interface WorkerChannel {
  /** Undefined until the process has started (and, under Electron, after it has exited). */
  readonly pid: number | undefined;
  /** True once the process has exited. */
  readonly exited: boolean;
  /** Deliver a message; false (and nothing sent) when the worker is gone. */
  send(message: unknown): boolean;
  onMessage(listener: (message: unknown) => void): void;
  /** Called once; `signal` is null where the launcher cannot tell (utilityProcess reports a code only). */
  onExit(listener: (code: number | null, signal: NodeJS.Signals | null) => void): void;
  /** A no-op once the worker has exited. */
  kill(signal?: NodeJS.Signals): void;
  /** Only with stdio 'pipe'. */
  readonly stdout: NodeJS.ReadableStream | null;
  readonly stderr: NodeJS.ReadableStream | null;
}

export interface WorkerLauncher {
  launch(entry: string, execArgv: string[], options?: LaunchOptions): WorkerChannel;
}

/** child_process.fork with a JSON IPC channel. */
export const forkLauncher: WorkerLauncher = {
  launch(entry, execArgv, options = {}) {
    const out = options.stdio ?? 'inherit';
    const child = fork(entry, [], {
      execArgv,
      env: { ...process.env, ...options.env },
      stdio: ['ignore', out, out, 'ipc'],
      serialization: 'json',
    });
    return {
      get pid() {
        return child.pid;
      },
      get exited() {
        return child.exitCode !== null || child.signalCode !== null;
      },
      send(message) {
        if (!child.connected) return false;
        child.send(message as object);
        return true;
      },
      onMessage(listener) {
        child.on('message', listener);
      },
      onExit(listener) {
        child.once('exit', listener);
      },
      kill(signal = 'SIGTERM') {
        if (child.exitCode === null && child.signalCode === null) child.kill(signal);
      },
      stdout: child.stdout,
      stderr: child.stderr,
    };
  },
};

/**
 * The entry of worker `name` that lives next to the module at `callerUrl` (pass `import.meta.url`):
 * the bundled `<name>.js` in a build (every module is bundled into dist-electron/main.js and the
 * workers next to it, see build/bundle-electron.mjs), else the `<name>.ts` source run through tsx.
 */
export function workerEntry(callerUrl: string, name: string): { entry: string; execArgv: string[] } {
  const here = dirname(fileURLToPath(callerUrl));
  const js = join(here, `${name}.js`);
  if (existsSync(js)) return { entry: js, execArgv: [] };
  const tsx = createRequire(callerUrl).resolve('tsx');
  return { entry: join(here, `${name}.ts`), execArgv: ['--import', pathToFileURL(tsx).href] };
}
