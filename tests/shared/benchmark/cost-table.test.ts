// The cost of selection (paper Table 20, eq. 17) from stored results, against a hand-computed case.
import { describe, expect, it } from 'vitest';
import type { ComparisonRow } from '../../../shared/benchmark/comparison-table';
import { formatComparisonTable, methodNotes, presentColumns } from '../../../shared/benchmark/comparison-table';
import { costTable, formatCostTable } from '../../../shared/benchmark/cost-table';
import type { BaselineResult } from '../../../shared/project/sweeps';

function result(name: string, promptTokens: number, n: number, extra: Partial<BaselineResult> = {}): BaselineResult {
  return { name, k: 2, tools: ['A', 'B'], accuracy: 0.5, n, promptTokens, split: 'eval', ...extra };
}

function row(task: string, entries: BaselineResult[]): ComparisonRow {
  return { task, k: 2, space: ['A', 'B'], results: new Map(entries.map((e) => [e.name, { eval: e }])) };
}

const rows = [
  row('t1', [
    result('keep-all', 500, 4),
    result('lots', 200, 4, { selection: { per: 'fit', promptTokens: 9_000, calls: 40 } }),
    result('router', 150, 4, { selection: { per: 'request', promptTokens: 2_400, calls: 4, seconds: 8 }, note: 'all replies read' }),
    result('tto', 300, 4, { selection: { per: 'fit', promptTokens: 30_000, calls: 60, candidates: 30, seconds: 60 } }),
  ]),
  row('t2', [
    result('keep-all', 300, 4),
    result('lots', 100, 4, { selection: { per: 'fit', promptTokens: 7_000, calls: 40 } }),
    result('router', 150, 4, { selection: { per: 'request', promptTokens: 2_400, calls: 4, seconds: 7 } }),
    result('tto', 300, 4, { selection: { per: 'fit', promptTokens: 10_000, calls: 20, candidates: 10, seconds: 20 } }),
  ]),
];

describe('costTable', () => {
  it('sums per-fit selection over tasks, divides per-request selection by requests, and gives N = C_fit / (c_full − c_space)', () => {
    const table = costTable(rows);
    const lots = table.find((r) => r.method === 'lots')!;
    // C_fit = 9,000 + 7,000; c_full = 400 (mean of 500 and 300 over 8 requests), c_space = 150: N = 16,000 / 250 = 64.
    expect(lots).toMatchObject({ per: 'fit', selectionTokens: 16_000, servingTokens: 150, fullTokens: 400, breakEven: 64, tasks: 2 });
    expect(lots.seconds).toBeUndefined();
    // The router pays 600 tokens per request to choose; serving 150 + 600 > 400: it never pays back.
    const router = table.find((r) => r.method === 'router')!;
    expect(router).toMatchObject({ per: 'request', selectionTokens: 600, servingTokens: 150, breakEven: undefined, seconds: 15 });
    // TTO: 40,000 / (400 − 300) = 400 requests.
    expect(table.find((r) => r.method === 'tto')).toMatchObject({ selectionTokens: 40_000, breakEven: 400, seconds: 80 });
    expect(table.find((r) => r.method === 'keep-all')).toMatchObject({ per: 'none', breakEven: undefined });
  });

  it('prints the table, and nothing when no method recorded a cost', () => {
    const text = formatCostTable(costTable(rows), { lots: 'LOTS', router: 'LLM router', tto: 'TTO†' });
    expect(text).toContain('LOTS');
    expect(text).toMatch(/LOTS\s+2\s+16,000 in 2 fits\s+150\s+400\s+64 requests/);
    expect(text).toMatch(/LLM router\s+2\s+600 per request\s+150\s+400\s+never/);
    expect(text).toMatch(/TTO†\s+2\s+40,000 in 2 fits\s+300\s+400\s+400 requests\s+80\.0 s/);
    expect(formatCostTable(costTable([row('t', [result('keep-all', 1, 1), result('lots', 1, 1)])]))).toBe('');
  });
});

describe('comparison table columns', () => {
  it('shows only the methods some task has a result for, in the registry order', () => {
    expect(presentColumns(rows)).toEqual(['lots', 'keep-all', 'router', 'tto']);
    const text = formatComparisonTable(rows);
    expect(text).toContain('router fit/eval');
    expect(text).not.toContain('beam fit/eval');
    expect(methodNotes(rows, { router: 'LLM router' })).toEqual([
      '',
      'how each method chose, where it has something to say:',
      '  t1 · LLM router: all replies read',
    ]);
  });
});
