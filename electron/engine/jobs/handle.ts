// A job seen from whoever started it — in the job worker's process (process.ts) or in this one (imports,
// model downloads): its id, its status, how it ended, and cancel. Cancellation inside a job is always
// an AbortSignal (control.ts for worker jobs; the handle's own AbortController for in-process ones).
import type { BaseProgress, JobFailure, JobProgress, RunStatus } from './protocol';

export interface JobOutcome<P extends BaseProgress = JobProgress> {
  status: 'done' | 'cancelled' | 'failed';
  progress?: P;
  error?: JobFailure;
}

export interface JobHandle<P extends BaseProgress = BaseProgress> {
  readonly id: string;
  readonly status: RunStatus;
  /** Ask the job to stop; `outcome` then tells how it ended. */
  cancel(): void;
  readonly outcome: Promise<JobOutcome<P>>;
}
