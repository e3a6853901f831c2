// The pure half of the faithfulness check: which tools each request removes, and the summary.
import { describe, expect, it } from 'vitest';
import { faithfulnessRng, faithfulnessSets, faithfulnessVerdict, requestFaithfulness, summarizeFaithfulness } from '../../../shared/lots/faithfulness';
import { mergeFaithfulness, TaskFaithfulnessSchema, type FaithfulnessCheck, type FaithfulnessPoint } from '../../../shared/project/faithfulness';
import { parseRunKey, runKey } from '../../../shared/project/scores';

describe('faithfulnessSets', () => {
  const ranking = ['A', 'B', 'C', 'D', 'E'];

  it("takes the request's best-ranked K among its scoreable tools", () => {
    const sets = faithfulnessSets(ranking, ['E', 'C', 'A'], 2, 0, faithfulnessRng(1, 'r'))!;
    expect(sets.top).toEqual(['A', 'C']);
    expect(sets.random).toEqual([]);
  });

  it('puts tools the ranking does not know last, by name', () => {
    expect(faithfulnessSets(ranking, ['Z', 'Y', 'D'], 3, 0, faithfulnessRng(1, 'r'))!.top).toEqual(['D', 'Y', 'Z']);
  });

  it('draws K distinct scoreable tools per draw, reproducibly per seed and request', () => {
    const scoreable = ['A', 'B', 'C', 'D', 'E', 'F', 'G'];
    const a = faithfulnessSets(ranking, scoreable, 3, 20, faithfulnessRng(7, 'req-1', 0, 3))!;
    const b = faithfulnessSets(ranking, scoreable, 3, 20, faithfulnessRng(7, 'req-1', 0, 3))!;
    const c = faithfulnessSets(ranking, scoreable, 3, 20, faithfulnessRng(7, 'req-2', 0, 3))!;
    expect(a.random).toEqual(b.random);
    expect(a.random).not.toEqual(c.random);
    for (const draw of a.random) {
      expect(new Set(draw).size).toBe(3);
      expect(draw.every((t) => scoreable.includes(t))).toBe(true);
      expect(draw).toEqual([...draw].sort());
    }
    // Over 20 draws of 3 from 7, every tool turns up at least once.
    expect(new Set(a.random.flat()).size).toBe(7);
  });

  it('is null when the request has fewer than K scoreable tools, or K < 1', () => {
    expect(faithfulnessSets(ranking, ['A'], 2, 3, faithfulnessRng(1))).toBeNull();
    expect(faithfulnessSets(ranking, ['A'], 0, 3, faithfulnessRng(1))).toBeNull();
    // Exactly K: the only draw is the top-K itself.
    const only = faithfulnessSets(ranking, ['B', 'A'], 2, 2, faithfulnessRng(1))!;
    expect(only.random).toEqual([
      ['A', 'B'],
      ['A', 'B'],
    ]);
  });
});

describe('summaries', () => {
  it('averages turns per request, then requests per K', () => {
    const r1 = requestFaithfulness('r1', [
      { k: 1, joint: 2, additive: 2, random: [0, 1] },
      { k: 1, joint: 4, additive: 3, random: [1, 1] },
      { k: 2, joint: 5, additive: 6, random: [1] },
    ]);
    expect(r1).toEqual([
      { trace: 'r1', k: 1, joint: 3, additive: 2.5, random: 0.75, turns: 2 },
      { trace: 'r1', k: 2, joint: 5, additive: 6, random: 1, turns: 1 },
    ]);
    const r2 = requestFaithfulness('r2', [{ k: 1, joint: 0, additive: 0.5, random: [1, 0] }]);
    expect(summarizeFaithfulness([...r1, ...r2])).toEqual([
      { k: 1, n: 2, joint: 1.5, additive: 1.5, random: 0.625, beatsRandom: 0.5 },
      { k: 2, n: 1, joint: 5, additive: 6, random: 1, beatsRandom: 1 },
    ]);
    expect(summarizeFaithfulness([])).toEqual([]);
  });

  it('keeps a requested K no request could measure, with n = 0, and says so in plain words', () => {
    const [point] = summarizeFaithfulness([], [8]);
    expect(point).toEqual({ k: 8, n: 0, joint: 0, additive: 0, random: 0, beatsRandom: 0 });
    expect(faithfulnessVerdict(point!)).toMatch(/^No request has 8 tools with evidence/);
    expect(faithfulnessVerdict({ k: 2, n: 5, joint: 0.3, random: 0.1 })).toBe(
      "Removing the top 2 tools together lowers the answer's log-likelihood by 0.300 per token, 3.0× the drop from removing 2 random tools: the ranking found what the answers rely on.",
    );
    expect(faithfulnessVerdict({ k: 1, n: 5, joint: -0.01, random: 0.1 })).toMatch(/does not lower/);
  });
});

describe('stored checks', () => {
  const point = (k: number, joint: number): FaithfulnessPoint => ({
    k,
    tools: ['A'],
    n: 3,
    joint,
    additive: joint,
    random: 0,
    draws: 3,
    beatsRandom: 1,
    rows: 3,
    createdAt: 't',
  });
  const check = (run: string, points: FaithfulnessPoint[]): FaithfulnessCheck => ({
    run,
    model: 'm.gguf',
    intervention: 'line',
    span: 'answer',
    seed: 1,
    points,
  });

  it("a new check replaces the same run and K, keeps the run's other K values and other runs", () => {
    let record = { task: 't', checks: [] as FaithfulnessCheck[] };
    record = mergeFaithfulness(record, check('r1', [point(1, 1), point(3, 3)]));
    record = mergeFaithfulness(record, check('r2', [point(1, 9)]));
    record = mergeFaithfulness(record, check('r1', [point(3, 30), point(2, 20)]));
    expect(TaskFaithfulnessSchema.parse(record)).toEqual(record);
    const r1 = record.checks.find((c) => c.run === 'r1')!;
    expect(r1.points.map((p) => [p.k, p.joint])).toEqual([
      [1, 1],
      [2, 20],
      [3, 30],
    ]);
    expect(record.checks.find((c) => c.run === 'r2')!.points.map((p) => p.joint)).toEqual([9]);
  });
});

describe('run keys', () => {
  it('carry the rendering format; keys written before it still parse', () => {
    expect(runKey('abc', 'line', 'answer', 'plain')).toBe('abc|line|answer|plain');
    expect(parseRunKey('abc|line|answer|ChatML')).toEqual({ modelHash: 'abc', intervention: 'line', span: 'answer', format: 'ChatML' });
    expect(parseRunKey(runKey('abc', 'evidence', 'expression'))).toEqual({ modelHash: 'abc', intervention: 'evidence', span: 'expression' });
    expect(parseRunKey('import:scores.jsonl')).toBeNull();
    expect(parseRunKey('a|b')).toBeNull();
  });
});
