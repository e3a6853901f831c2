import { describe, expect, it } from 'vitest';
import { bootstrapRanking, quantile } from '../../../shared/lots/bootstrap';
import { mulberry32 } from '../../../shared/lots/prng';

describe('mulberry32', () => {
  it('is deterministic per seed and stays in [0, 1)', () => {
    const a = mulberry32(42);
    const b = mulberry32(42);
    const xs = Array.from({ length: 1000 }, () => a());
    expect(Array.from({ length: 1000 }, () => b())).toEqual(xs);
    expect(xs.every((x) => x >= 0 && x < 1)).toBe(true);
    expect(mulberry32(43)()).not.toBe(xs[0]);
  });
});

describe('quantile', () => {
  it('interpolates linearly (type 7)', () => {
    expect(quantile([1, 2, 3, 4], 0.5)).toBe(2.5);
    expect(quantile([1, 2, 3, 4], 0)).toBe(1);
    expect(quantile([1, 2, 3, 4], 1)).toBe(4);
    expect(quantile([7], 0.3)).toBe(7);
    expect(quantile([], 0.5)).toBeNaN();
  });
});

describe('bootstrapRanking', () => {
  const rng = mulberry32(5);
  // "strong" is clearly best, "weak" clearly worst; "mid1"/"mid2" are close.
  const rows = Array.from({ length: 60 }, (_, i) => ({
    scores: {
      strong: 1 + rng() * 0.2,
      mid1: 0.3 + rng() * 0.2,
      mid2: 0.3 + rng() * 0.2,
      weak: -0.5 + rng() * 0.2,
      ...(i === 0 ? { rare: 5 } : {}),
    },
  }));

  it('is reproducible with a seed and changes with another seed', () => {
    const a = bootstrapRanking(rows, { k: 2, resamples: 200, seed: 9 });
    expect(bootstrapRanking(rows, { k: 2, resamples: 200, seed: 9 })).toEqual(a);
    expect(bootstrapRanking(rows, { k: 2, resamples: 200, seed: 10 })).not.toEqual(a);
  });

  it('brackets each mean and measures top-K stability', () => {
    const res = new Map(bootstrapRanking(rows, { k: 1, resamples: 300, seed: 1 }).map((b) => [b.tool, b]));
    const mean = (t: 'strong' | 'mid1' | 'mid2' | 'weak') => rows.reduce((s, r) => s + r.scores[t], 0) / rows.length;
    for (const t of ['strong', 'mid1', 'mid2', 'weak'] as const) {
      const b = res.get(t)!;
      expect(b.lo).toBeLessThanOrEqual(mean(t));
      expect(b.hi).toBeGreaterThanOrEqual(mean(t));
      expect(b.present).toBe(1);
    }
    // "rare" (one request, score 5) tops the ranking exactly when a resample draws it.
    const rare = res.get('rare')!;
    expect(rare.topKShare).toBe(rare.present);
    expect(rare.present).toBeGreaterThan(0.4);
    expect(rare.present).toBeLessThan(0.8);
    expect(res.get('strong')!.topKShare).toBeCloseTo(1 - rare.present, 12);
    expect(res.get('weak')!.topKShare).toBe(0);
    // weak is last of the five in every resample that drew "rare", last of four otherwise.
    expect(res.get('weak')!.meanRank).toBeCloseTo(4 + rare.present, 12);
  });

  it('handles empty input and validates options', () => {
    expect(bootstrapRanking([], { k: 1 })).toEqual([]);
    expect(() => bootstrapRanking(rows, { k: 1, resamples: 0 })).toThrow(/resamples/);
    expect(() => bootstrapRanking(rows, { k: 1, level: 1 })).toThrow(/level/);
  });
});
