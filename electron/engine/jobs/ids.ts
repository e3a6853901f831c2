// The one form of a job id: its kind, when it was started (UTC, to the second) and a random suffix,
// e.g. `score-20260101120000-a1b2c3`. Sorting ids of one kind sorts them by start time.
import { randomBytes } from 'node:crypto';
import type { JobInfo, JobKind } from '../../../shared/api/types';

export function newJobId(kind: JobKind): string {
  return `${kind}-${new Date()
    .toISOString()
    .replace(/[-:.TZ]/g, '')
    .slice(0, 14)}-${randomBytes(3).toString('hex')}`;
}

/** A job's record with `patch` applied, stamped now: the one way a running job's JobInfo changes. */
export function patchJobInfo(info: JobInfo, patch: Partial<JobInfo>): JobInfo {
  return { ...info, ...patch, updatedAt: new Date().toISOString() };
}

/** The state a job starts in: running, nothing done yet, cancellable (not pausable). */
export function startingJobInfo(id: string, kind: JobKind, title: string, unit: string, message = 'starting', createdAt = new Date().toISOString()): JobInfo {
  return {
    id,
    kind,
    title,
    status: 'running',
    createdAt,
    updatedAt: new Date().toISOString(),
    done: 0,
    total: 0,
    unit,
    message,
    canPause: false,
    canResume: false,
    canCancel: true,
  };
}
