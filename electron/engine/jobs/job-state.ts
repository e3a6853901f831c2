// The state file of a job that runs in the job worker (jobs/<id>.json in its project): what the job is,
// the options that resume it, and where it stands, rewritten from its live progress at each step. A
// resumed job keeps the creation time of the run it continues. Scoring and the faithfulness check write
// it through this one frame; center.ts reads it back to tell a finished job from an interrupted one.
import type { JobState, ProjectStore } from '../store';
import type { BaseProgress } from './protocol';

/** Write the job's state now: its status and, for a failure, the error. */
export type PersistJob = (status: JobState['status'], error?: { code: string; message: string }) => void;

/** A job's progress as far as its state file keeps it. */
export type PersistedProgress = BaseProgress & { tokensPerSecond?: number; etaSeconds?: number };

/** `progress` is read at each write: the job updates that object as it goes. */
export function jobStateWriter(
  store: ProjectStore,
  job: { id: string; kind: JobState['kind']; options: object },
  progress: Readonly<PersistedProgress>,
): PersistJob {
  const createdAt = store.readJob(job.id)?.createdAt ?? new Date().toISOString();
  return (status, error) =>
    store.writeJob({
      id: job.id,
      kind: job.kind,
      status,
      createdAt,
      updatedAt: new Date().toISOString(),
      options: { ...job.options },
      progress: {
        done: progress.done,
        total: progress.total,
        ...(progress.tokensPerSecond !== undefined ? { tokensPerSecond: progress.tokensPerSecond } : {}),
        ...(progress.etaSeconds !== undefined ? { etaSeconds: progress.etaSeconds } : {}),
        ...(progress.message !== undefined ? { message: progress.message } : {}),
      },
      ...(error ? { error } : {}),
      pid: process.pid,
    });
}
