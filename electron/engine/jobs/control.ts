// Pause / resume / cancel as seen from inside a running job. Cancellation is an AbortSignal (`signal`),
// what every long operation of the engine takes; a job that can pause also polls `stopRequested`
// between traces (the traces in flight finish and are stored), then waits or ends.
import { ExpectedError } from '../../../shared/api/errors';

export type StopReason = 'pause' | 'cancel';

export class JobControl {
  private readonly abort = new AbortController();
  private paused = false;
  private wake: (() => void) | null = null;

  /** Aborted by cancel(). */
  get signal(): AbortSignal {
    return this.abort.signal;
  }

  pause(): void {
    if (!this.abort.signal.aborted) this.paused = true;
  }

  resume(): void {
    this.paused = false;
    this.wake?.();
  }

  cancel(reason: unknown = new ExpectedError('CANCELLED', 'the job was cancelled')): void {
    this.paused = false;
    this.abort.abort(reason);
    this.wake?.();
  }

  get stopRequested(): StopReason | null {
    return this.abort.signal.aborted ? 'cancel' : this.paused ? 'pause' : null;
  }

  /** While paused, wait until resumed (→ 'resume') or cancelled (→ 'cancel'). */
  async waitWhilePaused(): Promise<'resume' | 'cancel'> {
    while (this.stopRequested === 'pause') await new Promise<void>((r) => (this.wake = r));
    this.wake = null;
    return this.abort.signal.aborted ? 'cancel' : 'resume';
  }
}

/**
 * What a job does once its scorer stopped early: on a pause, record it and wait; true when resumed (go on),
 * false when cancelled (the caller records the cancellation its own way).
 */
export async function holdWhilePaused(
  control: JobControl,
  progress: { message?: string },
  persist: (status: 'paused' | 'running') => void,
  emit: (event: { type: 'status'; status: 'paused' | 'running' }) => void,
): Promise<boolean> {
  if (control.stopRequested !== 'pause') return false;
  progress.message = 'paused';
  persist('paused');
  emit({ type: 'status', status: 'paused' });
  if ((await control.waitWhilePaused()) !== 'resume') return false;
  persist('running');
  emit({ type: 'status', status: 'running' });
  return true;
}
