// The paper's Table 9 on a run with the fixed-K rows: LOTS's top-K minus each label-free ranking's top-K at
// the same K, paired by request, per K; nothing when no baseline was measured at a fixed K.
import { describe, expect, it } from 'vitest';
import { comparisonRow as fromSweep, formatComparisonTable } from '../../../shared/benchmark/comparison-table';
import { costTable } from '../../../shared/benchmark/cost-table';
import { fixedKTable, formatFixedKTable } from '../../../shared/benchmark/fixed-k-table';
import { pairedTable } from '../../../shared/benchmark/paired-table';
import { comparisonRow, evalResult } from './comparison-rows';

/** LOTS chose K = 3 in every family here: neither of the fixed K's. */
const row = (task: string, results: Parameters<typeof comparisonRow>[1]) => comparisonRow(task, results, 3);

describe("the fixed-K table (the paper's Table 9)", () => {
  it('pairs LOTS at each K with each baseline at the same K, never with LOTS at its chosen K', () => {
    const rows = [
      row('a', [
        evalResult('lots', [0, 0, 0, 0]),
        evalResult('lots-k2', [1, 1, 1, 0]),
        evalResult('lots-k4', [1, 1, 1, 1]),
        evalResult('dense-k2', [0, 0, 1, 0]),
        evalResult('dense-k4', [1, 1, 1, 1]),
        evalResult('random-k2', [0, 0, 0, 0]),
      ]),
      row('b', [
        evalResult('lots-k2', [1, 1, 0, 0]),
        evalResult('lots-k4', [0, 0, 0, 0]),
        evalResult('dense-k2', [1, 1, 0, 0]),
        evalResult('dense-k4', [0, 0, 0, 1]),
      ]),
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
    expect(fixedKTable([row('a', [evalResult('lots', [1, 0]), evalResult('lots-k2', [1, 1]), evalResult('dense', [0, 0])])])).toBeUndefined();
  });
  it('keeps the fixed-K rankings out of the comparison and paired tables, which pair with LOTS at its chosen K', () => {
    const rows = [
      row('a', [
        evalResult('lots', [1, 1, 0, 0]),
        evalResult('keep-all', [0, 1, 0, 0], 400),
        evalResult('lots-k2', [1, 0, 0, 0]),
        evalResult('dense-k2', [0, 0, 1, 0]),
        evalResult('random-k4', [0, 1, 0, 0]),
      ]),
    ];
    const text = formatComparisonTable(rows);
    const header = text.split('\n')[0]!;
    expect(header).toContain('lots-k2 fit/eval');
    expect(header).not.toMatch(/dense-k2|random-k4/);
    expect(text).toContain('(dense-k2, random-k4: in the fixed-K table below, beside LOTS at the same K)');
    expect(pairedTable(rows).against.map((a) => a.baseline)).toEqual(['keep-all', 'lots-k2']);
    // What a ranking cost to choose is still reported: the cost table lists every method that was run.
    expect(costTable(rows).map((c) => c.method)).toEqual(['lots', 'keep-all', 'lots-k2', 'dense-k2', 'random-k4']);
    expect(formatComparisonTable([row('b', [evalResult('lots', [1]), evalResult('keep-all', [0])])])).not.toContain('fixed-K table');
  });

  it('the comparison table marks a K no fitting label chose, from the sweep, with its footnote', () => {
    const sweep = (accuracy: number) => ({
      task: 'fx_settle',
      model: 'm',
      run: 'r',
      points: [1, 2].map((k) => ({ k, tools: ['DocRetrieve', 'Calculator'].slice(0, k), accuracy, n: 2, promptTokens: 100 })),
      bestK: 1,
      baselines: [evalResult('lots', [0, 1]), evalResult('keep-all', [0, 0])],
      createdAt: '2026-12-06T00:00:00.000Z',
    });
    const byDefault = fromSweep(sweep(0))!;
    expect(byDefault.kByDefault).toBe(true);
    const text = formatComparisonTable([byDefault]);
    expect(text.split('\n')[2]).toMatch(/^fx_settle +1\* +DocRetrieve /);
    expect(text).toContain("* no K answered a fitting request right: K is the rule's default (the smallest), not evidence");
    const chosen = fromSweep(sweep(0.5))!;
    expect(chosen.kByDefault).toBeUndefined();
    expect(formatComparisonTable([chosen])).not.toContain('no K answered');
  });
});
