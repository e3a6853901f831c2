import { describe, expect, it } from 'vitest';
import { averageRanks, compareRankings, kendallTauB, pearson, pooledAgreement } from '../../../shared/lots/compare';

describe('kendallTauB', () => {
  it('is 1 for the same order, -1 for the reverse, and handles ties (τ-b)', () => {
    expect(kendallTauB([1, 2, 3, 4], [10, 20, 30, 40])).toBe(1);
    expect(kendallTauB([1, 2, 3, 4], [4, 3, 2, 1])).toBe(-1);
    // pairs: (1,2) C, (1,3) C, (2,3) tie in b → n0 = 3, C = 2, D = 0, ties b = 1: 2 / sqrt(3 · 2)
    expect(kendallTauB([1, 2, 3], [1, 2, 2])).toBeCloseTo(2 / Math.sqrt(6), 12);
    expect(kendallTauB([1, 1], [2, 2])).toBeNull();
    expect(() => kendallTauB([1], [1, 2])).toThrow(/one length/);
  });
});

describe('compareRankings', () => {
  it('reports τ over common tools, top-K overlap and the tools that moved most', () => {
    const a = { A: 0.9, B: 0.5, C: 0.3, D: 0.1, X: 0.05 };
    const b = { A: 0.2, B: 0.6, C: 0.4, D: 0.7, Y: 0.9 };
    const c = compareRankings(a, b, 2);
    expect(c.common).toBe(4);
    expect(c.onlyA).toEqual(['X']);
    expect(c.onlyB).toEqual(['Y']);
    // common order A>B>C>D vs D>B>C>A: concordant pairs (B,C) only; 5 discordant → (1 − 5) / 6
    expect(c.tau).toBeCloseTo(-4 / 6, 12);
    expect(c.topKA).toEqual(['A', 'B']);
    expect(c.topKB).toEqual(['Y', 'D']);
    expect(c.topKOverlap).toBe(0);
    expect(c.moved.map((m) => m.tool)).toEqual(['A', 'D']);
    expect(c.moved[0]).toEqual({ tool: 'A', rankA: 1, rankB: 4, meanA: 0.9, meanB: 0.2 });
  });

  it('is τ = 1 with full overlap when two runs agree on the order', () => {
    const c = compareRankings({ A: 3, B: 2, C: 1 }, { A: 0.3, B: 0.2, C: 0.1 }, 2);
    expect(c.tau).toBe(1);
    expect(c.topKOverlap).toBe(1);
    expect(c.moved).toEqual([]);
  });

  it('refuses a bad K', () => {
    expect(() => compareRankings({ A: 1 }, { A: 1 }, 0)).toThrow(/K must be/);
  });
});

describe('pooled agreement of two runs (E.3)', () => {
  it('pearson and averageRanks follow their definitions', () => {
    expect(pearson([1, 2, 3], [2, 4, 6])).toBeCloseTo(1, 12);
    expect(pearson([1, 2, 3], [3, 2, 1])).toBeCloseTo(-1, 12);
    // x = (0, 1, 2, 3), y = (0, 1, 3, 2): Σxy − n x̄ȳ = 13 − 9 = 4 over Σx² − n x̄² = 5 → 0.8
    expect(pearson([0, 1, 2, 3], [0, 1, 3, 2])).toBeCloseTo(0.8, 12);
    expect(pearson([1, 1, 1], [1, 2, 3])).toBeNull();
    expect(pearson([1], [1])).toBeNull();
    expect(averageRanks([0.5, 0.9, 0.5, 0.1])).toEqual([2.5, 1, 2.5, 4]);
  });

  it('pools every (task, tool) pair of both runs and counts the tasks whose top-K sets are the same', () => {
    const one = compareRankings({ A: 0.9, B: 0.5, C: 0.1 }, { A: 0.4, B: 0.8, C: 0.2 }, 2); // same top-2 set, other order
    const two = compareRankings({ D: 0.3, E: 0.2, F: 0.1 }, { D: 0.1, E: 0.3, F: 0.2 }, 2); // {D,E} against {E,F}
    expect(one.scores).toEqual([
      { tool: 'A', meanA: 0.9, meanB: 0.4 },
      { tool: 'B', meanA: 0.5, meanB: 0.8 },
      { tool: 'C', meanA: 0.1, meanB: 0.2 },
    ]);
    const p = pooledAgreement([one, two]);
    expect(p).toMatchObject({ pairs: 6, sameTopK: 1, tasks: 2 });
    const a = [0.9, 0.5, 0.1, 0.3, 0.2, 0.1];
    const b = [0.4, 0.8, 0.2, 0.1, 0.3, 0.2];
    expect(p.pearson).toBeCloseTo(pearson(a, b)!, 12);
    expect(p.spearman).toBeCloseTo(pearson(averageRanks(a), averageRanks(b))!, 12);
    expect(p.spearman).not.toBeCloseTo(p.pearson!, 3);
  });
});
