// How a job's failure is told, wherever it happens: an error the job threw (an expected one keeps its
// code; anything else is INTERNAL with its stack), or the job's process ending without an outcome.
import { ERROR_HINTS, isExpected } from '../../../shared/api/errors';
import type { JobInfo } from '../../../shared/api/types';
import type { JobFailure } from './protocol';

/** A failure as a job shows it: with what to do about its code, where there is a hint for it. */
export function withHint(error: JobFailure): NonNullable<JobInfo['error']> {
  const hint = ERROR_HINTS[error.code];
  return { ...error, ...(hint ? { hint } : {}) };
}

/** An expected error (ExpectedError, or one of the listed fs errors) keeps its code; anything else is INTERNAL with its stack. */
export function toFailure(e: unknown): JobFailure {
  if (isExpected(e)) return { code: e.code, message: e.message };
  if (e instanceof Error) return { code: 'INTERNAL', message: `${e.message}\n${e.stack ?? ''}` };
  return { code: 'INTERNAL', message: String(e) };
}

/** A job that threw: record the failure in its state file when the project still allows, and report it. */
export function reportFailure(e: unknown, persist: (status: 'failed', error: JobFailure) => void, report: (error: JobFailure) => void): void {
  const error = toFailure(e);
  try {
    persist('failed', error);
  } catch {
    /* the project itself may be the problem; the event still reports it */
  }
  report(error);
}

/**
 * A worker that ended without reporting an outcome: a crash, a kill, or a non-zero exit all read the same.
 * `what` names the process ("the scoring process"), `kept` says what survives.
 */
export function crashFailure(what: string, kept: string, code: number | null, signal: NodeJS.Signals | null): JobFailure {
  return { code: 'WORKER_CRASHED', message: `${what} stopped unexpectedly (${signal ? `signal ${signal}` : `exit code ${code}`}); ${kept}` };
}
