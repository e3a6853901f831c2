// JobControl's cancel reason is the engine's one expected-error type, so every catch that tells a
// cancellation from a failure (instanceof ExpectedError, code CANCELLED) sees it as one.
import { describe, expect, it } from 'vitest';
import { ExpectedError } from '../../../shared/api/errors';
import { JobControl } from '../../../electron/engine/jobs/control';

describe('JobControl', () => {
  it('cancels with an ExpectedError CANCELLED by default', () => {
    const control = new JobControl();
    control.cancel();
    expect(control.stopRequested).toBe('cancel');
    expect(control.signal.reason).toBeInstanceOf(ExpectedError);
    expect((control.signal.reason as ExpectedError).code).toBe('CANCELLED');
  });

  it('a cancel wakes a paused job and ends its wait with "cancel"', async () => {
    const control = new JobControl();
    control.pause();
    const waited = control.waitWhilePaused();
    control.cancel();
    expect(await waited).toBe('cancel');
  });
});
