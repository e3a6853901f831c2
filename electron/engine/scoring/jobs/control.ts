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
