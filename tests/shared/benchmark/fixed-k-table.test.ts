// The paper's Table 9 on a run with the fixed-K rows: LOTS's top-K minus each label-free ranking's top-K at
// the same K, paired by request, per K; nothing when no baseline was measured at a fixed K.
import { describe, expect, it } from 'vitest';
import type { ComparisonRow } from '../../../shared/benchmark/comparison-table';
import { fixedKTable, formatFixedKTable } from '../../../shared/benchmark/fixed-k-table';
import type { BaselineResult } from '../../../shared/project/sweeps';

function result(name: string, correct: number[]): BaselineResult {
  return {
    name,
    k: 2,
    tools: [],
    accuracy: correct.reduce((a, b) => a + b, 0) / correct.length,
    n: correct.length,
    promptTokens: 100,
    split: 'eval',
    outcomes: correct.map((c, i) => ({ request: `r${i}`, correct: c, promptTokens: 100 })),
  };
}

function row(task: string, results: BaselineResult[]): ComparisonRow {
  return { task, k: 3, space: [], results: new Map(results.map((r) => [r.name, { eval: r }])) };
}

describe("the fixed-K table (the paper's Table 9)", () => {
  it('pairs LOTS at each K with each baseline at the same K, never with LOTS at its chosen K', () => {
    const rows = [
      row('a', [
        result('lots', [0, 0, 0, 0]),
        result('lots-k2', [1, 1, 1, 0]),
        result('lots-k4', [1, 1, 1, 1]),
        result('dense-k2', [0, 0, 1, 0]),
        result('dense-k4', [1, 1, 1, 1]),
        result('random-k2', [0, 0, 0, 0]),
      ]),
      row('b', [result('lots-k2', [1, 1, 0, 0]), result('lots-k4', [0, 0, 0, 0]), result('dense-k2', [1, 1, 0, 0]), result('dense-k4', [0, 0, 0, 1])]),
    ];
    const table = fixedKTable(rows)!;
    expect(table.lots[2]).toBeCloseTo((0.75 + 0.5) / 2, 12);
    expect(table.lots[4]).toBeCloseTo(0.5, 12);
    const dense = table.rows.find((r) => r.baseline === 'dense')!;
    // K=2: a +0.50 (r0, r1 LOTS only), b 0 → pooled +0.25; K=4: a 0, b −0.25 → −0.125.
    expect(dense.cells[2]!.difference.difference).toBeCloseTo(0.25, 12);
    expect(dense.cells[2]!.difference.discordant).toEqual({ aOnly: 2, bOnly: 0 });
    expect(dense.cells[4]!.difference.difference).toBeCloseTo(-0.125, 12);
    expect(dense.cells[2]!.accuracy).toBeCloseTo((0.25 + 0.5) / 2, 12);
    // Random was measured at K = 2 only, in one family.
    const random = table.rows.find((r) => r.baseline === 'random')!;
    expect(random.cells[2]!.difference.difference).toBeCloseTo(0.75, 12);
    expect(random.cells[4]).toBeUndefined();
    expect(table.rows.map((r) => r.baseline)).toEqual(['dense', 'random']);

    const text = formatFixedKTable(table);
    expect(text).toMatch(/^dense +0\.38 +0\.63 +\+0\.25 \(.*\) p=0\.50 +−0\.13 \(.*\) p=1$/m);
    expect(text).toMatch(/^random +0\.00 +– +\+0\.75 \(.*\) p=0\.25 +–$/m);
  });

  it('is absent from a run without a baseline at a fixed K', () => {
    expect(fixedKTable([row('a', [result('lots', [1, 0]), result('lots-k2', [1, 1]), result('dense', [0, 0])])])).toBeUndefined();
  });
});
