// The scoring queue: jobs that load a model (scoring, faithfulness checks) run one at a time (they
// share the GPU), each in the job worker's process. Pause keeps the job's process and loaded model,
// waiting; cancel stops after the traces in flight. Jobs interrupted by a crash are found from their
// state files and can be started again with the same id: the stored scores are skipped, so nothing is
// lost or recomputed.
import { EventEmitter } from 'node:events';
import type { JobState, ProjectStore } from '../store';
import { newJobId } from './ids';
import { startJob, type StartOptions, type WorkerJob } from './process';
import type { FaithfulnessJobSpec, JobFailure, JobProgress, RunStatus, ScoreJobSpec } from './protocol';

/** What the queue runs. */
export type QueuedRequest = { kind: 'score'; spec: ScoreJobSpec } | { kind: 'faithfulness'; spec: FaithfulnessJobSpec };

/** A request to queue; without a job id, a new one is given. */
export type QueueInput =
  | { kind: 'score'; spec: Omit<ScoreJobSpec, 'jobId'> & { jobId?: string } }
  | { kind: 'faithfulness'; spec: Omit<FaithfulnessJobSpec, 'jobId'> & { jobId?: string } };
import { ExpectedError, isFsError } from '../../../shared/api/errors';

export interface QueuedJob {
  id: string;
  request: QueuedRequest;
  status: RunStatus;
  progress?: JobProgress;
  error?: JobFailure;
  createdAt: string;
  updatedAt: string;
}

export class ScoringQueue extends EventEmitter<{ update: [QueuedJob] }> {
  private readonly jobs = new Map<string, QueuedJob>();
  private running: { job: QueuedJob; handle: WorkerJob<QueuedRequest> } | undefined;

  constructor(private readonly options: StartOptions = {}) {
    super();
  }

  list(): QueuedJob[] {
    return [...this.jobs.values()];
  }

  get(id: string): QueuedJob | undefined {
    return this.jobs.get(id);
  }

  enqueue(input: QueueInput): QueuedJob {
    const now = new Date().toISOString();
    const id = input.spec.jobId ?? newJobId(input.kind);
    const request = { kind: input.kind, spec: { ...input.spec, jobId: id } } as QueuedRequest;
    const job: QueuedJob = { id, request, status: 'queued', createdAt: now, updatedAt: now };
    this.jobs.set(id, job);
    this.update(job);
    this.startNext();
    return job;
  }

  pause(id: string): void {
    const job = this.require(id);
    if (this.running?.job === job) this.running.handle.pause();
    else if (job.status === 'queued') this.setStatus(job, 'paused');
  }

  resume(id: string): void {
    const job = this.require(id);
    if (this.running?.job === job) this.running.handle.resume();
    else if (job.status === 'paused') {
      this.setStatus(job, 'queued');
      this.startNext();
    }
  }

  cancel(id: string): void {
    const job = this.require(id);
    if (this.running?.job === job) this.running.handle.cancel();
    else if (job.status === 'queued' || job.status === 'paused') this.setStatus(job, 'cancelled');
  }

  /** Jobs of the queue (scoring, faithfulness checks) of a project that were running or paused when their process died. */
  static interrupted(store: ProjectStore): JobState[] {
    return store
      .listJobs()
      .filter(
        (j) =>
          (j.kind === 'score' || j.kind === 'faithfulness') &&
          (j.status === 'running' || j.status === 'paused' || j.status === 'queued') &&
          !(j.pid !== undefined && alive(j.pid)),
      );
  }

  /** Queue an interrupted job again under its id, with the options it was started with. */
  resumeInterrupted(state: JobState): QueuedJob {
    if (state.kind === 'faithfulness')
      return this.enqueue({ kind: 'faithfulness', spec: { ...(state.options as unknown as FaithfulnessJobSpec), jobId: state.id } });
    if (state.kind !== 'score')
      throw new ExpectedError('INVALID_INPUT', `job ${state.id} is a ${state.kind} job: only scoring jobs and faithfulness checks are resumed`);
    return this.enqueue({ kind: 'score', spec: { ...(state.options as unknown as ScoreJobSpec), jobId: state.id } });
  }

  /** Wait until no job is running or queued. */
  async idle(): Promise<void> {
    while (this.running) await this.running.handle.outcome;
  }

  private startNext(): void {
    if (this.running) return;
    const next = [...this.jobs.values()].find((j) => j.status === 'queued');
    if (!next) return;
    const handle = startJob(next.request, this.options);
    this.running = { job: next, handle };
    this.setStatus(next, 'running');
    handle.on('event', (event) => {
      if (event.type === 'status') {
        next.status = event.status;
        // (A status line — e.g. waiting for the project lock — shows as the job's message until the next progress.)
        if (event.message) next.progress = { ...(next.progress ?? { done: 0, total: 0, scoredNow: 0, skipped: 0 }), message: event.message };
      }
      if (event.type === 'progress' || event.type === 'finished') next.progress = event.progress;
      if (event.type === 'finished') next.status = event.status;
      if (event.type === 'failed') {
        next.status = 'failed';
        next.error = event.error;
      }
      this.update(next);
    });
    void handle.outcome.then((outcome) => {
      next.status = outcome.status;
      if (outcome.error) next.error = outcome.error;
      this.running = undefined;
      this.update(next);
      this.startNext();
    });
  }

  private require(id: string): QueuedJob {
    const job = this.jobs.get(id);
    if (!job) throw new ExpectedError('NOT_FOUND', `no scoring job "${id}"`);
    return job;
  }

  private setStatus(job: QueuedJob, status: RunStatus): void {
    job.status = status;
    this.update(job);
  }

  private update(job: QueuedJob): void {
    job.updatedAt = new Date().toISOString();
    this.emit('update', job);
  }
}

/** A process with this id exists (EPERM: it does, owned by someone else). */
export function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return isFsError(e, 'EPERM');
  }
}
