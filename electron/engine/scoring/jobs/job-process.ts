// Start a scoring job in its own process and follow it. The caller's event loop only relays
// messages, so a UI or a CLI progress bar stays responsive however heavy the scoring.
import { EventEmitter } from 'node:events';
import { forkLauncher, workerEntry, type WorkerChannel, type WorkerLauncher, type WorkerStdio } from '../../workers/launcher';
import type { JobEvent, JobFailure, JobProgress, JobStatus, ScoreJobSpec } from './protocol';

export interface JobOutcome {
  status: 'done' | 'cancelled' | 'failed';
  progress?: JobProgress;
  error?: JobFailure;
}

export interface ScoreJobHandleEvents {
  event: [JobEvent];
}

/** A running job seen from the parent: its latest status and progress, control methods, and `outcome`. */
export class ScoreJobHandle extends EventEmitter<ScoreJobHandleEvents> {
  status: JobStatus = 'running';
  progress: JobProgress | undefined;
  readonly outcome: Promise<JobOutcome>;
  private finished: JobOutcome | undefined;

  constructor(readonly spec: ScoreJobSpec, private readonly child: WorkerChannel) {
    super();
    child.onMessage((event) => this.onEvent(event as JobEvent));
    this.outcome = new Promise<JobOutcome>((resolve) => {
      child.onExit((code, signal) => {
        if (!this.finished) {
          this.finished = {
            status: 'failed',
            progress: this.progress,
            error: {
              code: 'WORKER_CRASHED',
              message: `the scoring process stopped unexpectedly (${signal ? `signal ${signal}` : `exit code ${code}`}); scores stored so far are kept, start the job again to resume`,
            },
          };
          this.status = 'failed';
          this.emit('event', { type: 'failed', error: this.finished.error!, progress: this.progress });
        }
        resolve(this.finished);
      });
    });
  }

  get pid(): number | undefined {
    return this.child.pid;
  }

  pause(): void {
    this.command({ type: 'pause' });
  }

  resume(): void {
    this.command({ type: 'resume' });
  }

  /** Stop after the traces in flight (their scores are stored); kill the process if it lingers. */
  cancel(graceMs = 10_000): void {
    this.command({ type: 'cancel' });
    const timer = setTimeout(() => this.kill(), graceMs);
    timer.unref();
    void this.outcome.then(() => clearTimeout(timer));
  }

  kill(signal: NodeJS.Signals = 'SIGKILL'): void {
    this.child.kill(signal);
  }

  private command(message: object): void {
    this.child.send(message);
  }

  private onEvent(event: JobEvent): void {
    if (event.type === 'status') this.status = event.status;
    if (event.type === 'progress' || event.type === 'finished') this.progress = event.progress;
    if (event.type === 'failed' && event.progress) this.progress = event.progress;
    if (event.type === 'finished') {
      this.status = event.status;
      this.finished = { status: event.status, progress: event.progress };
    }
    if (event.type === 'failed') {
      this.status = 'failed';
      this.finished = { status: 'failed', progress: this.progress, error: event.error };
    }
    this.emit('event', event);
  }
}

export interface StartOptions {
  /** Extra environment for the worker. */
  env?: NodeJS.ProcessEnv;
  /** Forward the worker's stdout/stderr (default: inherit). */
  stdio?: WorkerStdio;
  /** How the worker process is started (default: child_process.fork; the desktop app: utilityProcess). */
  launcher?: WorkerLauncher;
}

/** Start the worker and its job. */
export function startScoreJob(spec: ScoreJobSpec, options: StartOptions = {}): ScoreJobHandle {
  const { entry, execArgv } = workerEntry(import.meta.url, 'score-worker');
  const child = (options.launcher ?? forkLauncher).launch(entry, execArgv, { name: 'scoring', env: options.env, stdio: options.stdio });
  const handle = new ScoreJobHandle(spec, child);
  child.send({ type: 'start', spec });
  return handle;
}
