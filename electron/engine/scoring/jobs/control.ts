// Pause / resume / cancel as seen from inside a running job: the scorer polls `stopRequested`
// between traces (the traces in flight finish and are stored), then the job waits or ends.
export type StopReason = 'pause' | 'cancel';

export class JobControl {
  private requested: StopReason | null = null;
  private wake: (() => void) | null = null;

  pause(): void {
    if (this.requested !== 'cancel') this.requested = 'pause';
  }

  resume(): void {
    if (this.requested === 'pause') this.requested = null;
    this.wake?.();
  }

  cancel(): void {
    this.requested = 'cancel';
    this.wake?.();
  }

  get stopRequested(): StopReason | null {
    return this.requested;
  }

  /** While paused, wait until resumed (→ 'resume') or cancelled (→ 'cancel'). */
  async waitWhilePaused(): Promise<'resume' | 'cancel'> {
    while (this.requested === 'pause') await new Promise<void>((r) => (this.wake = r));
    this.wake = null;
    return this.requested === 'cancel' ? 'cancel' : 'resume';
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
