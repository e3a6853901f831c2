import { describe, expect, it } from 'vitest';
import type { ScoreRow } from '../../../shared/project/scores';
import { FAMILIES } from '../../../shared/benchmark/families';
import {
  chainIdentification,
  chainRoleRanks,
  correctWrongAgreement,
  jaccard,
  spaceRecurrence,
  spearman,
  traceCountSensitivity,
} from '../../../shared/lots/diagnostics';

const row = (trace: string, scores: Record<string, number>): ScoreRow => ({ trace, task: 't', exposed: Object.keys(scores), scores });

describe('chain identification', () => {
  it('finds the chain only when every chain tool is in the top |G|', () => {
    expect(chainIdentification(['A', 'B', 'C'], ['B', 'A'])).toMatchObject({ found: true, topG: ['A', 'B'], ranks: { A: 1, B: 2 } });
    expect(chainIdentification(['A', 'C', 'B'], ['B', 'A'])).toMatchObject({ found: false, ranks: { A: 1, B: 3 } });
    expect(chainIdentification(['A'], ['Z'])).toMatchObject({ found: false, ranks: { Z: null } });
    expect(chainIdentification(['A'], []).found).toBe(false);
  });
});

describe('chain role ranks (Table 18)', () => {
  // The paper's re-execute ranking (E.3): every upstream tool first except ExchangeRate (second in
  // fx_settle, after DocRetrieve), every downstream tool right after its upstream ones, compute_only's
  // Calculator first. Its Table 18 reports upstream 1.11 and downstream 2.00 over the nine families.
  it("reproduces the paper's re-execute means from the benchmark's own chains", () => {
    const ids = Object.values(FAMILIES)
      .filter((f) => f.chainTools.length > 0)
      .map((f) => chainIdentification([...f.chainTools, 'GoogleSearch'], f.chainTools));
    expect(ids).toHaveLength(9);
    const { upstream, downstream } = chainRoleRanks(ids);
    expect(upstream).toEqual({ mean: 10 / 9, tools: 9, unranked: 0 });
    expect(downstream).toEqual({ mean: 18 / 9, tools: 9, unranked: 0 });
    expect(upstream.mean!.toFixed(2)).toBe('1.11');
  });

  it('leaves a chain tool the ranking never placed out of the mean, and counts it', () => {
    const ids = [chainIdentification(['B', 'A'], ['A', 'B']), chainIdentification(['C'], ['Z', 'C'])];
    expect(chainRoleRanks(ids)).toEqual({ upstream: { mean: 2, tools: 1, unranked: 1 }, downstream: { mean: 1, tools: 2, unranked: 0 } });
    expect(chainRoleRanks([])).toEqual({ upstream: { mean: undefined, tools: 0, unranked: 0 }, downstream: { mean: undefined, tools: 0, unranked: 0 } });
  });
});

describe('spearman', () => {
  it('is 1 for the same order, −1 reversed, over the common tools only', () => {
    expect(spearman(['A', 'B', 'C'], ['A', 'B', 'C']).rho).toBe(1);
    expect(spearman(['A', 'B', 'C'], ['C', 'B', 'A']).rho).toBe(-1);
    // X and Y are ranked by one side only: the common tools A, B, C keep their relative order.
    expect(spearman(['X', 'A', 'B', 'C'], ['A', 'Y', 'B', 'C'])).toEqual({ rho: 1, n: 3 });
    expect(spearman(['A', 'B'], ['C', 'A'])).toEqual({ rho: undefined, n: 1 });
    // d = (0, −2, 1, 1): 1 − 6·6/(4·15) = 0.4
    expect(spearman(['A', 'B', 'C', 'D'], ['A', 'C', 'D', 'B']).rho).toBeCloseTo(0.4, 12);
  });
});

describe('jaccard', () => {
  it('is the shared share of the union', () => {
    expect(jaccard(['A', 'B'], ['B', 'C'])).toBeCloseTo(1 / 3, 12);
    expect(jaccard([], [])).toBe(1);
  });
});

describe('space recurrence under bootstrap refits', () => {
  it('is 1 when every request ranks the same tools first, and lower when requests disagree', () => {
    const agree = [row('r1', { A: 1, B: 0.5, C: 0 }), row('r2', { A: 0.9, B: 0.4, C: 0.1 }), row('r3', { A: 1.2, B: 0.6, C: 0 })];
    expect(spaceRecurrence('t', agree, 2, ['A', 'B'], { resamples: 200 }).share).toBe(1);
    const split = [row('r1', { A: 1, B: 0 }), row('r2', { A: 0, B: 1.5 })];
    const r = spaceRecurrence('t', split, 1, ['B'], { resamples: 400, seed: 3 });
    expect(r.resamples).toBe(400);
    // B is the top-1 when r2 is drawn at least once (3 of 4 resamples of two requests, in expectation).
    expect(r.share).toBeGreaterThan(0.6);
    expect(r.share).toBeLessThan(0.9);
  });
});

describe('correct-only vs wrong-only rankings (E.5)', () => {
  it('compares the two rankings, and says nothing when one side is empty', () => {
    const rows = [row('c1', { A: 1, B: 0.5, C: 0 }), row('c2', { A: 0.8, B: 0.4, C: 0 }), row('w1', { A: 0, B: 0.5, C: 1 })];
    const labels = new Map<string, boolean | null>([
      ['c1', true],
      ['c2', true],
      ['w1', false],
    ]);
    expect(correctWrongAgreement('t', rows, labels)).toEqual({ correct: 2, wrong: 1, rho: -1, common: 3 });
    const noneWrong = new Map<string, boolean | null>([
      ['c1', true],
      ['c2', true],
      ['w1', null],
    ]);
    expect(correctWrongAgreement('t', rows, noneWrong)).toEqual({ correct: 2, wrong: 0, rho: undefined, common: 0 });
  });
});

describe('trace-count sensitivity (E.6)', () => {
  it('reaches the full-data space at every trace, and finds the chain less often from one noisy trace', () => {
    const rows = [
      row('r1', { A: 1, B: 0.8, C: 0 }),
      row('r2', { A: 0.9, B: 0.7, C: 0.1 }),
      row('r3', { A: 0, B: 0.1, C: 1.5 }),
      row('r4', { A: 1.1, B: 0.9, C: 0 }),
    ];
    const points = traceCountSensitivity('t', rows, 2, { sizes: [1, 4, 9], draws: 100, chain: ['A', 'B'] });
    expect(points.map((p) => p.traces)).toEqual([1, 4]);
    const [one, all] = points;
    expect(all).toMatchObject({ jaccard: 1, same: 1, chainFound: 1 });
    expect(one!.chainFound).toBeLessThan(1);
    expect(one!.chainFound).toBeGreaterThan(0.5);
  });
});
