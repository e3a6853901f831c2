// Start a job in the job worker's process and follow it. The caller's event loop only relays messages,
// so a UI or a CLI progress bar stays responsive however heavy the job. Every way the process can end
// without reporting an outcome — a crash, a kill, a non-zero exit — is one failure (WORKER_CRASHED).
import { EventEmitter } from 'node:events';
import { crashFailure } from './failure';
import type { JobHandle, JobOutcome } from './handle';
import { forkLauncher, workerEntry, type WorkerChannel, type WorkerLauncher, type WorkerStdio } from './launcher';
import type { JobEvent, JobRequest, JobRequestKind, ProgressOf, RunStatus } from './protocol';

/** How each kind of job's process is named, and what survives when it dies. */
const PROCESS: Record<JobRequestKind, { name: string; what: string; kept: string }> = {
  score: { name: 'scoring', what: 'the scoring process', kept: 'scores stored so far are kept, start the job again to resume' },
  faithfulness: { name: 'scoring', what: 'the faithfulness check’s process', kept: 'a check stores nothing until it ends, start it again' },
  sweep: { name: 'budget sweep', what: 'the sweep process', kept: 'measured budgets are kept' },
  demo: { name: 'demo', what: 'the demo process', kept: 'what it stored is kept: resume it (the same folder continues where it stopped)' },
};

/** How long a cancelled job may take to stop before its process is killed. */
export const CANCEL_GRACE_MS = 10_000;

type ProgressFor<R extends JobRequest> = ProgressOf[R['kind']];

export interface WorkerJobEvents<R extends JobRequest> {
  event: [JobEvent<ProgressFor<R>>];
}

/** A job running in a worker, seen from the parent: its latest status and progress, controls, and `outcome`. */
export class WorkerJob<R extends JobRequest = JobRequest> extends EventEmitter<WorkerJobEvents<R>> implements JobHandle<ProgressFor<R>> {
  status: RunStatus = 'running';
  progress: ProgressFor<R> | undefined;
  readonly outcome: Promise<JobOutcome<ProgressFor<R>>>;
  private finished: JobOutcome<ProgressFor<R>> | undefined;
  private killTimer: NodeJS.Timeout | undefined;

  constructor(
    readonly request: R,
    private readonly child: WorkerChannel,
  ) {
    super();
    child.onMessage((event) => this.onEvent(event as JobEvent<ProgressFor<R>>));
    this.outcome = new Promise((resolve) => {
      child.onExit((code, signal) => {
        clearTimeout(this.killTimer);
        if (!this.finished) {
          const { what, kept } = PROCESS[request.kind];
          const error = crashFailure(what, kept, code, signal);
          this.finished = { status: 'failed', progress: this.progress, error };
          this.status = 'failed';
          this.emit('event', { type: 'failed', error, progress: this.progress });
        }
        resolve(this.finished);
      });
    });
  }

  get id(): string {
    return this.request.spec.jobId;
  }

  get spec(): R['spec'] {
    return this.request.spec;
  }

  get pid(): number | undefined {
    return this.child.pid;
  }

  pause(): void {
    this.child.send({ type: 'pause' });
  }

  resume(): void {
    this.child.send({ type: 'resume' });
  }

  /** Stop after the work in flight (what it produced is stored); kill the process once if it lingers. */
  cancel(graceMs = CANCEL_GRACE_MS): void {
    this.child.send({ type: 'cancel' });
    if (this.killTimer || this.child.exited) return;
    this.killTimer = setTimeout(() => this.kill(), graceMs);
    this.killTimer.unref();
  }

  kill(signal: NodeJS.Signals = 'SIGKILL'): void {
    this.child.kill(signal);
  }

  private onEvent(event: JobEvent<ProgressFor<R>>): void {
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

/** Start the job worker and hand it its request. */
export function startJob<R extends JobRequest>(request: R, options: StartOptions = {}): WorkerJob<R> {
  const { entry, execArgv } = workerEntry(import.meta.url, 'job-worker');
  const child = (options.launcher ?? forkLauncher).launch(entry, execArgv, { name: PROCESS[request.kind].name, env: options.env, stdio: options.stdio });
  const job = new WorkerJob(request, child);
  child.send({ type: 'start', request });
  return job;
}
