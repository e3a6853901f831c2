// Progress inside a trace (issue 43): a long multi-turn trace takes minutes, and the progress line, the
// Jobs view and the ETA used to sit still until it was done. The bar moves with the sequences done of
// the plans of the traces in flight, says so, and the ETA exists before the first trace is finished.
import { describe, expect, it } from 'vitest';
import { progressLine } from '../../electron/cli/job-progress';
import { scoreEta } from '../../electron/engine/jobs/score-job';
import type { JobProgress } from '../../electron/engine/jobs/protocol';

const base: JobProgress = { done: 0, total: 1, scoredNow: 0, skipped: 0 };

describe('progress inside a trace', () => {
  it('moves the bar and names the sequences done while the only trace is being scored', () => {
    expect(progressLine(base, 'traces')).toBe(`[${'.'.repeat(30)}] 0/1 traces`);
    const half = progressLine({ ...base, inFlight: { traces: 1, sequencesDone: 6, sequences: 12 }, etaSeconds: 90 }, 'traces');
    expect(half).toBe(`[${'#'.repeat(15)}${'.'.repeat(15)}] 0/1 traces (in the trace being scored: 6/12 sequences) ETA 1m30s`);
    const two = progressLine({ ...base, total: 4, done: 1, inFlight: { traces: 2, sequencesDone: 10, sequences: 20 } }, 'traces');
    expect(two).toContain('1/4 traces (in the 2 traces being scored: 10/20 sequences)');
    expect(two).toContain(`[${'#'.repeat(15)}${'.'.repeat(15)}]`); // (1 + 2 × 10/20) / 4
  });

  it('estimates the time left from the share of a trace done, before any trace is finished', () => {
    // Nothing measured yet.
    expect(scoreEta(base, [], 0)).toBeUndefined();
    expect(scoreEta(base, [{ sequencesDone: 0, sequences: 12, scoredTokensDone: 0, scoredTokens: 40 }], 5)).toBeUndefined();
    // A quarter of the only trace in 30 s: 90 s left.
    expect(scoreEta(base, [{ sequencesDone: 3, sequences: 12, scoredTokensDone: 10, scoredTokens: 40 }], 30)).toBeCloseTo(90, 9);
    // 2 of 10 traces done and half of a third in 50 s: 2.5 traces in 50 s, 7.5 left.
    const p = { total: 10, done: 2, scoredNow: 2 };
    expect(scoreEta(p, [{ sequencesDone: 4, sequences: 8, scoredTokensDone: 1, scoredTokens: 2 }], 50)).toBeCloseTo(150, 9);
    // Traces stored before this run (a resume) count as done but not towards the rate.
    expect(scoreEta({ total: 10, done: 6, scoredNow: 1 }, [], 20)).toBeCloseTo(80, 9);
  });
});
