// A job that runs in this process (an import, a model pull: file and network I/O, no model), seen through
// the same JobHandle as a job in the worker (process.ts): its JobInfo, changed only through `update` (and
// sent to the views each time), cancel through an AbortController (the job's signal), and its outcome once
// it ends. import-job.ts and download-job.ts are its two kinds.
import type { JobInfo } from '../../../shared/api/types';
import type { JobHandle, JobOutcome } from './handle';
import { patchJobInfo } from './ids';
import type { BaseProgress, RunStatus } from './protocol';

export interface LocalJob extends JobHandle {
  /** The job as the views see it: its latest JobInfo. */
  info: JobInfo;
  /** Aborted by cancel() (with the job's own reason), or by the caller's signal. */
  readonly signal: AbortSignal;
  /** Apply `patch` to the JobInfo and send it. */
  update(patch: Partial<JobInfo>): void;
  /** The job ended: `outcome` resolves with this. */
  end(outcome: JobOutcome<BaseProgress>): void;
}

export interface LocalJobOptions {
  /** The reason cancel() aborts the signal with (what the job's code sees as the error). */
  cancelReason: () => unknown;
  /** The caller's own signal, which cancels the job too. */
  outer?: AbortSignal;
}

export function startLocalJob(info: JobInfo, emit: (job: JobInfo) => void, options: LocalJobOptions): LocalJob {
  const abort = new AbortController();
  let settle: (outcome: JobOutcome<BaseProgress>) => void = () => undefined;
  const job: LocalJob = {
    id: info.id,
    get status() {
      return job.info.status as RunStatus;
    },
    info,
    signal: options.outer ? AbortSignal.any([abort.signal, options.outer]) : abort.signal,
    cancel: () => abort.abort(options.cancelReason()),
    outcome: new Promise<JobOutcome<BaseProgress>>((resolve) => (settle = resolve)),
    update(patch) {
      job.info = patchJobInfo(job.info, patch);
      emit(job.info);
    },
    end: (outcome) => settle(outcome),
  };
  return job;
}
