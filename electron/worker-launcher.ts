// The engine's workers in the desktop app run as Electron utility processes, not child_process.fork:
// fork re-launches the Electron binary as Node (ELECTRON_RUN_AS_NODE), which the packaged app forbids
// with the runAsNode fuse off (build/electron-builder.yml). Same messages, same worker entries.
import { utilityProcess } from 'electron';
import type { WorkerChannel, WorkerLauncher, WorkerStdio } from './engine/jobs/launcher';

/** A utility process cannot take stdin; stdout/stderr follow the option. */
function stdioOf(stdio: WorkerStdio = 'inherit'): Array<'pipe' | 'ignore' | 'inherit'> {
  return ['ignore', stdio, stdio];
}

/** Call only after app `ready` (utilityProcess.fork refuses earlier). */
export function utilityProcessLauncher(): WorkerLauncher {
  return {
    launch(entry, execArgv, options = {}): WorkerChannel {
      // No `cwd`: a working directory inside app.asar makes the launch fail (electron#41396).
      const child = utilityProcess.fork(entry, [], {
        serviceName: `LOTS Studio ${options.name ?? 'worker'}`,
        execArgv,
        env: { ...process.env, ...options.env },
        stdio: stdioOf(options.stdio),
      });
      let exited = false;
      child.once('exit', () => {
        exited = true;
      });
      return {
        get pid() {
          return child.pid;
        },
        get exited() {
          return exited;
        },
        send(message) {
          // Posting to a utility process that has exited can crash the main process (electron#53923).
          if (exited) return false;
          child.postMessage(message);
          return true;
        },
        onMessage(listener) {
          child.on('message', listener);
        },
        onExit(listener) {
          child.once('exit', (code) => listener(code, null));
        },
        kill(signal) {
          if (exited) return;
          // kill() is SIGTERM only; a worker stuck in native code is ended for sure with SIGKILL.
          const pid = child.pid;
          if (signal === 'SIGKILL' && pid !== undefined) {
            try {
              process.kill(pid, 'SIGKILL');
              return;
            } catch {
              // gone already, or not ours to signal: fall back to Electron's own kill
            }
          }
          child.kill();
        },
        get stdout() {
          return child.stdout;
        },
        get stderr() {
          return child.stderr;
        },
      };
    },
  };
}
