// The Budget view's uncertainty and axes (issue 40): Wilson intervals for a sweep point's accuracy (n = 8),
// a random baseline's mean over draws as [lo, hi], round axis ticks, and the sweep's grid in words.
import { describe, expect, it } from 'vitest';
import { describeGrid, drawsInterval, niceTicks, wilson } from '../../renderer/views/budget-stats';
import { fmtBaselineAccuracy } from '../../renderer/views/BudgetCharts';

describe('budget statistics', () => {
  it('Wilson: 6 of 8 right is [41%, 93%], stays inside [0, 1] at 0 and 8 of 8', () => {
    const ci = wilson(0.75, 8);
    expect(ci.lo).toBeCloseTo(0.409, 3);
    expect(ci.hi).toBeCloseTo(0.929, 3);
    expect(wilson(0, 8).lo).toBe(0);
    expect(wilson(0, 8).hi).toBeCloseTo(0.324, 3);
    expect(wilson(1, 8).hi).toBe(1);
  });

  it('a random baseline over 5 draws reads as an interval of its mean, never "± sd"', () => {
    expect(drawsInterval(0.208, 0.295, 5).lo).toBe(0);
    expect(drawsInterval(0.208, 0.295, 5).hi).toBeCloseTo(0.208 + (1.96 * 0.295) / Math.sqrt(5), 6);
    const text = fmtBaselineAccuracy({ name: 'random', k: 2, tools: [], accuracy: 0.208, accuracyStd: 0.295, draws: 5, n: 8, promptTokens: 140 });
    expect(text).toBe('20.8% [0.0%, 46.7%]');
    expect(text).not.toContain('±');
  });

  it('ticks are round: 380 tokens → 0, 100, 200, 300, 400', () => {
    expect(niceTicks(380)).toEqual([0, 100, 200, 300, 400]);
    expect(niceTicks(513)).toEqual([0, 200, 400, 600]);
    expect(niceTicks(0)).toEqual([0]);
  });

  it('names the measured grid', () => {
    expect(describeGrid([1, 2, 3, 4])).toBe('1…4');
    expect(describeGrid([1, 2, 4])).toBe('1, 2, 4');
  });
});
