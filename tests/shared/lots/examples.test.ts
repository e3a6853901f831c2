// Hand-computed examples for the LOTS math (paper eq. 3–4, Appendix B.3).
import { describe, expect, it } from 'vitest';
import type { ScoreRow } from '../../../shared/project/scores';
import { aggregateTaskScores, checkScoreRow, eligibleTools, UNROUTED } from '../../../shared/lots/aggregate';
import { rankTools, rankRecord } from '../../../shared/lots/rank';
import { selectBySupport, selectByThreshold, selectTopK, supportFrequencies } from '../../../shared/lots/select';
import { selectBudget, sweepWithoutEvidence } from '../../../shared/lots/budget';
import { surrogateCurve, surrogateValue, fullContextLikelihood } from '../../../shared/lots/surrogate';
import { nextSpaceFromRunningScores, updateRunningScores } from '../../../shared/lots/running';
import { fitTasks } from '../../../shared/lots/fit';

// A is exposed on r1–r3, B on r1, r2, r4 (not r3), C on r1 and r3, D only on r3 and never scored.
const rows: ScoreRow[] = [
  { trace: 'r1', task: 't', exposed: ['A', 'B', 'C'], scores: { A: 0.5, B: -0.1 } },
  { trace: 'r2', task: 't', exposed: ['A', 'B'], scores: { A: 0.3, B: 0.1 } },
  { trace: 'r3', task: 't', exposed: ['A', 'C', 'D'], scores: { C: 0.2, A: 0 } },
  { trace: 'r4', task: 't', exposed: ['B'], scores: { B: -0.3 } },
];

describe('aggregateTaskScores', () => {
  const [t] = aggregateTaskScores(rows);
  const by = (tool: string) => t!.tools.find((s) => s.tool === tool)!;

  it('averages over Q_t(s) only: an unexposed request is not a zero', () => {
    expect(t!.requests).toBe(4);
    expect(by('A').mean).toBeCloseTo(0.8 / 3, 12);
    expect(by('A').n).toBe(3);
    // B was not exposed on r3: mean over r1, r2, r4 = -0.3/3, not -0.3/4.
    expect(by('B').mean).toBeCloseTo(-0.1, 12);
    expect(by('B').n).toBe(3);
    // C scored once (r3) although exposed twice.
    expect(by('C')).toMatchObject({ n: 1, exposed: 2, values: [0.2] });
    expect(by('C').mean).toBe(0.2);
  });

  it('counts exposure and leaves exposed-but-unscored tools out of A_t', () => {
    expect(t!.exposure).toEqual([
      { tool: 'A', requests: 3 },
      { tool: 'B', requests: 3 },
      { tool: 'C', requests: 2 },
      { tool: 'D', requests: 1 },
    ]);
    expect(t!.unscored).toEqual(['D']);
    expect(eligibleTools(t!)).toEqual(['A', 'B', 'C']);
  });

  it('puts rows without a task under UNROUTED and sorts tasks by name', () => {
    const tasks = aggregateTaskScores([
      { trace: 'x', exposed: ['A'], scores: { A: 1 } },
      { trace: 'y', task: 'alpha', exposed: ['A'], scores: { A: 2 } },
    ]);
    expect(tasks.map((s) => s.task)).toEqual([UNROUTED, 'alpha'].sort());
    expect(tasks.find((s) => s.task === UNROUTED)!.tools[0]!.mean).toBe(1);
  });

  it('keeps a tool named like an Object.prototype member', () => {
    const [s] = aggregateTaskScores([{ trace: 'x', task: 't', exposed: ['constructor', 'toString'], scores: { constructor: 1 } }]);
    expect(s!.tools.map((x) => x.tool)).toEqual(['constructor']);
    expect(s!.unscored).toEqual(['toString']);
  });
});

describe('checkScoreRow', () => {
  it('rejects a score for a tool not listed in exposed, naming it', () => {
    expect(checkScoreRow({ trace: 'r', exposed: ['A'], scores: { A: 1, Z: 2 } })).toMatch(/"Z" has a score but is not listed in "exposed"/);
    expect(checkScoreRow(rows[0]!)).toBeNull();
  });
});

describe('ranking and selection', () => {
  const [t] = aggregateTaskScores(rows);
  const ranking = rankTools(t!.tools);

  it('ranks by mean desc', () => {
    expect(ranking.map((r) => r.tool)).toEqual(['A', 'C', 'B']);
  });

  it('breaks ties by name, with exactly summed means (0.1+0.2+0.3 in any order)', () => {
    const tie = aggregateTaskScores([
      { trace: '1', task: 't', exposed: ['b', 'a', 'c'], scores: { b: 0.1, a: 0.3, c: 0 } },
      { trace: '2', task: 't', exposed: ['b', 'a', 'c'], scores: { b: 0.2, a: 0.2 } },
      { trace: '3', task: 't', exposed: ['b', 'a', 'c'], scores: { b: 0.3, a: 0.1 } },
    ])[0]!;
    // Naive left-to-right sums differ here (0.1+0.2+0.3 ≠ 0.3+0.2+0.1 in floating point).
    expect(0.1 + 0.2 + 0.3).not.toBe(0.3 + 0.2 + 0.1);
    const r = rankTools(tie.tools);
    expect(r.map((x) => x.tool)).toEqual(['a', 'b', 'c']);
    expect(r[0]!.mean).toBe(r[1]!.mean);
    expect(rankRecord({ z: 1, y: 1, x: 2 }).map((x) => x.tool)).toEqual(['x', 'y', 'z']);
  });

  it('top-K never pads with unscored tools when |A_t| < K', () => {
    expect(selectTopK(ranking, 2)).toEqual(['A', 'C']);
    expect(selectTopK(ranking, 5)).toEqual(['A', 'C', 'B']); // D is exposed but unscored: never added
    expect(selectTopK(ranking, 0)).toEqual([]);
    expect(() => selectTopK(ranking, -1)).toThrow(/non-negative integer/);
  });

  it('threshold keeps means strictly above tau (zero and negative means go)', () => {
    expect(selectByThreshold(ranking, 0)).toEqual(['A', 'C']);
    expect(selectByThreshold([{ tool: 'Z', mean: 0 }], 0)).toEqual([]);
    expect(selectByThreshold(ranking, -0.2)).toEqual(['A', 'C', 'B']);
  });

  it('support frequency: share of scored requests with I_x(s) > tauS', () => {
    // A: 0.5, 0.3, 0 → 2/3 (zero is not > 0); B: -0.1, 0.1, -0.3 → 1/3; C: 0.2 → 1.
    expect(supportFrequencies(t!.tools, 0).map((e) => [e.tool, e.support])).toEqual([
      ['A', 2 / 3],
      ['C', 1],
      ['B', 1 / 3],
    ]);
    expect(selectBySupport(t!.tools, 0, 1 / 3)).toEqual(['A', 'C', 'B']);
    expect(selectBySupport(t!.tools, 0, 0.34)).toEqual(['A', 'C']);
    expect(selectBySupport(t!.tools, 0.25, 0.5)).toEqual(['A']); // A: 0.5, 0.3 > 0.25 → 2/3
    expect(selectBySupport(t!.tools, 0.6, 0.01)).toEqual([]);
    expect(() => selectBySupport(t!.tools, 0, 2)).toThrow(/share/);
  });

  it('a task with one request', () => {
    const [solo] = fitTasks([{ trace: 'only', task: 'solo', exposed: ['P', 'Q', 'R'], scores: { P: 0.4, Q: 0 } }], { k: 1 });
    expect(solo!.requests).toBe(1);
    expect(solo!.ranking.map((r) => [r.tool, r.mean, r.n, r.lo, r.hi])).toEqual([
      ['P', 0.4, 1, 0.4, 0.4],
      ['Q', 0, 1, 0, 0],
    ]);
    expect(solo!.ranking.map((r) => r.topKShare)).toEqual([1, 0]);
    expect(solo!.space).toEqual(['P']);
    expect(solo!.unscored).toEqual(['R']);
  });
});

describe('selectBudget', () => {
  it('takes the smallest K with the highest accuracy', () => {
    expect(
      selectBudget([
        { k: 4, accuracy: 0.7 },
        { k: 3, accuracy: 0.8 },
        { k: 1, accuracy: 0.5 },
        { k: 2, accuracy: 0.8 },
      ]),
    ).toBe(2);
    expect(
      selectBudget([
        { k: 1, accuracy: Number.NaN },
        { k: 2, accuracy: 0 },
      ]),
    ).toBe(2);
    expect(selectBudget([])).toBeUndefined();
  });
  it('sweepWithoutEvidence: no K answered a fitting request right, so the smallest K is kept by default', () => {
    const zero = [1, 2, 3, 4].map((k) => ({ k, accuracy: 0 }));
    expect(sweepWithoutEvidence(zero)).toBe(true);
    expect(selectBudget(zero)).toBe(1);
    expect(sweepWithoutEvidence([...zero.slice(0, 3), { k: 4, accuracy: Number.NaN }])).toBe(true);
    expect(
      sweepWithoutEvidence([
        { k: 1, accuracy: 0 },
        { k: 2, accuracy: 0.25 },
      ]),
    ).toBe(false);
    // Flat above zero is evidence: the smallest K answers as well as any.
    expect(sweepWithoutEvidence([1, 2].map((k) => ({ k, accuracy: 0.75 })))).toBe(false);
    expect(sweepWithoutEvidence([])).toBe(false);
  });
});

describe('surrogate', () => {
  const [t] = aggregateTaskScores(rows);
  const ranking = rankTools(t!.tools); // A 0.8/3, C 0.2, B -0.1

  it('F̂(A) = F(S) − Σ_{s∉A} Ī(s), relative to F(S)=0 by default', () => {
    expect(surrogateValue(ranking, ['A', 'C', 'B'])).toBe(0);
    expect(surrogateValue(ranking, ['A'], -1)).toBeCloseTo(-1 - 0.1, 12);
    const curve = surrogateCurve(ranking, -1);
    expect(curve.map((p) => p.k)).toEqual([0, 1, 2, 3]);
    expect(curve[0]!.value).toBeCloseTo(-1 - (0.8 / 3 + 0.2 - 0.1), 12);
    expect(curve[2]!.value).toBeCloseTo(-0.9, 12); // dropping a negative-score tool raises F̂ above F(S)
    expect(curve[3]!.value).toBe(-1);
    expect(curve[2]!.tools).toEqual(['A', 'C']);
  });

  it('F(S) from stored turn details, undefined for imported rows', () => {
    expect(fullContextLikelihood([{ turns: [{ base: -1 }, { base: -3 }] }, { turns: [{ base: -4 }] }, {}])).toBe(-3);
    expect(fullContextLikelihood([{}])).toBeUndefined();
  });
});

describe('running scores (EMA, Appendix B.3)', () => {
  it('three batches, a tool missing from the middle one keeps its score', () => {
    const alpha = 0.3;
    const b1 = updateRunningScores({}, { A: 1, B: 0.5 }, alpha);
    expect(b1).toEqual({ A: 1, B: 0.5 }); // first batch initialises
    const b2 = updateRunningScores(b1, { A: 0 }, alpha);
    expect(b2.A).toBeCloseTo(0.7, 12);
    expect(b2.B).toBe(0.5); // not exposed: no decay
    const b3 = updateRunningScores(b2, { A: 1, B: 1, C: 2 }, alpha);
    expect(b3.A).toBeCloseTo(0.79, 12);
    expect(b3.B).toBeCloseTo(0.65, 12);
    expect(b3.C).toBe(2); // first score for C initialises it
    expect(nextSpaceFromRunningScores(b3, 2)).toEqual(['C', 'A']);
    expect(nextSpaceFromRunningScores(b3, 10)).toEqual(['C', 'A', 'B']);
    expect(b1).toEqual({ A: 1, B: 0.5 }); // inputs untouched
  });

  it('rejects an alpha outside (0, 1]', () => {
    expect(() => updateRunningScores({}, {}, 0)).toThrow(/alpha/);
    expect(() => updateRunningScores({}, {}, 1.5)).toThrow(/alpha/);
  });
});
