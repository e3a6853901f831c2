// Paired statistics against hand-computed cases: McNemar's exact p from the binomial, the stratified
// bootstrap's percentile interval where its distribution is known exactly, the pooled difference as the
// families' mean, and no interval where there are too few requests.
import { describe, expect, it } from 'vitest';
import { formatPaired, mcnemarExact, pairedComparison, pClause, type PairedOutcome } from '../../../shared/benchmark/paired';

/** `right` requests A gets and B misses, `wrong` the reverse, `same` both right. */
function family(stratum: string, aOnly: number, bOnly: number, same = 0): PairedOutcome[] {
  return [
    ...Array.from({ length: aOnly }, () => ({ stratum, a: 1, b: 0 })),
    ...Array.from({ length: bOnly }, () => ({ stratum, a: 0, b: 1 })),
    ...Array.from({ length: same }, () => ({ stratum, a: 1, b: 1 })),
  ];
}

describe('McNemar exact test', () => {
  it('is twice the binomial tail of the smaller discordant count, capped at 1', () => {
    // n = 6, k = 1: (C(6,0) + C(6,1)) / 2^6 = 7/64, two-sided 14/64.
    expect(mcnemarExact(1, 5)).toBeCloseTo(14 / 64, 12);
    expect(mcnemarExact(5, 1)).toBeCloseTo(14 / 64, 12);
    // n = 10, k = 0: 2 / 1024.
    expect(mcnemarExact(10, 0)).toBeCloseTo(2 / 1024, 12);
    // Balanced: the tail passes one half, so p is 1.
    expect(mcnemarExact(3, 3)).toBe(1);
    expect(mcnemarExact(0, 0)).toBe(1);
    // Large n stays finite and tiny.
    expect(mcnemarExact(400, 100)).toBeGreaterThan(0);
    expect(mcnemarExact(400, 100)).toBeLessThan(1e-30);
    expect(() => mcnemarExact(-1, 2)).toThrow(/non-negative integers/);
  });
});

describe('the family-stratified paired bootstrap', () => {
  it('gives the percentile interval of the known resampling distribution', () => {
    // Ten requests, five where A alone is right and five both right: each resample's mean difference is
    // Binomial(10, ½) / 10, whose 2.5% and 97.5% quantiles are 0.2 and 0.8 (P(X ≤ 1) = 11/1024 < 2.5% <
    // P(X ≤ 2) = 56/1024).
    const { families, pooled } = pairedComparison(family('a', 5, 0, 5), { seed: 7 });
    expect(families).toHaveLength(1);
    const r = families[0]!.result;
    expect(r.difference).toBeCloseTo(0.5, 12);
    expect(r.interval!.lo).toBeCloseTo(0.2, 12);
    expect(r.interval!.hi).toBeCloseTo(0.8, 12);
    expect(r.discordant).toEqual({ aOnly: 5, bOnly: 0 });
    expect(r.p).toBeCloseTo(2 / 32, 12);
    expect(pooled.difference).toBeCloseTo(0.5, 12);
  });

  it('pools as the mean of the families, each resampled within itself', () => {
    // Family x: A always better (10 requests); family y: no difference (30 requests). The pooled
    // difference is (1 + 0) / 2, not 10/40; with no variance inside either family every resample gives it.
    const outcomes = [...family('x', 10, 0), ...family('y', 0, 0, 30)];
    const { families, pooled } = pairedComparison(outcomes);
    expect(families.map((f) => [f.stratum, f.result.difference])).toEqual([
      ['x', 1],
      ['y', 0],
    ]);
    expect(pooled.difference).toBe(0.5);
    expect(pooled.interval).toEqual({ lo: 0.5, hi: 0.5 });
    expect(pooled.n).toBe(40);
    expect(pooled.discordant).toEqual({ aOnly: 10, bOnly: 0 });
  });

  it('is the same for the same seed and covers the difference', () => {
    const outcomes = [...family('x', 6, 2, 4), ...family('y', 3, 5, 8), ...family('z', 4, 1, 7)];
    const one = pairedComparison(outcomes, { seed: 3 });
    expect(pairedComparison(outcomes, { seed: 3 })).toEqual(one);
    expect(one.pooled.interval!.lo).toBeLessThan(one.pooled.difference);
    expect(one.pooled.interval!.hi).toBeGreaterThan(one.pooled.difference);
    // Swapping A and B mirrors everything.
    const swapped = pairedComparison(
      outcomes.map((o) => ({ ...o, a: o.b, b: o.a })),
      { seed: 3 },
    );
    expect(swapped.pooled.difference).toBeCloseTo(-one.pooled.difference, 12);
    expect(swapped.pooled.p).toBe(one.pooled.p);
  });

  it('says why there is no interval when a family has too few requests', () => {
    const { families, pooled } = pairedComparison([...family('small', 2, 1, 1), ...family('big', 6, 2, 4)]);
    const small = families.find((f) => f.stratum === 'small')!.result;
    expect(small.interval).toBeUndefined();
    expect(small.tooFew).toBe('4 requests in this family: an interval needs at least 10');
    expect(formatPaired(small)).toBe('+0.25 (n too small for an interval), p = 1');
    expect(pooled.interval).toBeDefined();
  });

  it('writes p as p=0.13, and p<0.001 (not p=<0.001) below three decimals', () => {
    expect([0.13, 0.0042, 0.0004, 1].map((p) => pClause(p))).toEqual(['p=0.13', 'p=0.004', 'p<0.001', 'p=1']);
    expect(pClause(0.0004, true)).toBe('p < 0.001');
    expect(pClause(0.06, true)).toBe('p = 0.06');
  });

  it('takes any paired quantity (prompt tokens: no McNemar)', () => {
    const tokens = Array.from({ length: 12 }, (_, i) => ({ stratum: 't', a: 150 + i, b: 500 + i }));
    const { pooled } = pairedComparison(tokens);
    expect(pooled.difference).toBe(-350);
    expect(pooled.interval).toEqual({ lo: -350, hi: -350 });
    expect(pooled.p).toBeUndefined();
    expect(formatPaired(pooled, 0)).toBe('−350 [−350, −350]');
    expect(() => pairedComparison([{ stratum: 't', a: Number.NaN, b: 1 }])).toThrow(/finite/);
  });
});
