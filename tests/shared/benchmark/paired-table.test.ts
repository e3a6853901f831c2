// The paired block under the comparison table: requests paired by trace id per family, LOTS minus each
// baseline with McNemar's p, the pooled row, the token savings, and families measured before per-request
// outcomes were kept named instead of guessed.
import { describe, expect, it } from 'vitest';
import { formatPairedTable, pairedTable } from '../../../shared/benchmark/paired-table';
import type { BaselineResult } from '../../../shared/project/sweeps';
import { comparisonRow, evalResult } from './comparison-rows';

describe('the paired table', () => {
  it('pairs by request id and gives McNemar on the discordant pairs', () => {
    // Family a: LOTS right on r0 r1 r2, keep-all right on r2 r3 → discordant 2 (LOTS only) and 1 → p = 1.
    // Family b: LOTS right on all four, keep-all on none → 4 and 0 → p = 2/16. Keep-all's ids are listed
    // in another order: pairing is by id, not by position.
    const rows = [
      comparisonRow('a', [evalResult('lots', [1, 1, 1, 0], 100), evalResult('keep-all', [0, 0, 1, 1], 400)]),
      comparisonRow('b', [evalResult('lots', [1, 1, 1, 1], 120), evalResult('keep-all', [0, 0, 0, 0], 420, ['r3', 'r2', 'r1', 'r0'])]),
    ];
    const table = pairedTable(rows);
    expect(table.missing).toEqual([]);
    const keepAll = table.against.find((x) => x.baseline === 'keep-all')!;
    const [a, b] = keepAll.accuracy.families;
    expect(a!.result.discordant).toEqual({ aOnly: 2, bOnly: 1 });
    expect(a!.result.p).toBe(1);
    expect(b!.result.discordant).toEqual({ aOnly: 4, bOnly: 0 });
    expect(b!.result.p).toBeCloseTo(2 / 16, 12);
    // Pooled: the mean of +0.25 and +1.00; discordant 6 and 1 → p = 2 · (1 + 7) / 128.
    expect(keepAll.accuracy.pooled.difference).toBeCloseTo(0.625, 12);
    expect(keepAll.accuracy.pooled.p).toBeCloseTo(16 / 128, 12);
    expect(keepAll.tokens.pooled.difference).toBe(-300);

    const text = formatPairedTable(table);
    expect(text).toMatch(/^pooled +\+0\.63 p=0\.13$/m);
    expect(text).toMatch(/^a +\+0\.25 p=1$/m);
    expect(text).toContain('no interval where a family has fewer than 10 requests (here as few as 4); the pooled row is over all 8');
    expect(text).toContain('prompt tokens per request, LOTS − keep-all, pooled: −300');
  });

  it('says why an interval has zero width: every request of the family pairs the same way', () => {
    const ten = (v: number) => Array.from({ length: 10 }, () => v);
    const mixed = [1, 1, 1, 0, 1, 0, 1, 1, 0, 1];
    const rows = [
      comparisonRow('same', [evalResult('lots', ten(0), 100), evalResult('keep-all', ten(0), 400)]),
      comparisonRow('varied', [evalResult('lots', mixed, 100), evalResult('keep-all', ten(0), 400)]),
    ];
    const text = formatPairedTable(pairedTable(rows));
    expect(text).toMatch(/^same +\+0\.00 \[\+0\.00, \+0\.00\] p=1$/m);
    expect(text).toContain('1 per-family interval has zero width: every request of that family has the same paired difference');
    const varied = formatPairedTable(pairedTable([rows[1]!]));
    expect(varied).not.toContain('zero width');
  });

  it('names the families measured before per-request outcomes were kept', () => {
    const old = (name: string): BaselineResult => ({ name, k: 1, tools: [], accuracy: 0.5, n: 4, promptTokens: 100, split: 'eval' });
    const rows = [
      comparisonRow('old', [old('lots'), old('keep-all')]),
      comparisonRow('new', [evalResult('lots', [1, 0], 90), evalResult('keep-all', [1, 1], 300)]),
    ];
    const table = pairedTable(rows);
    expect(table.missing).toEqual(['old']);
    expect(table.against.map((x) => x.baseline)).toEqual(['keep-all']);
    expect(formatPairedTable(table)).toContain('left out (no per-request outcomes recorded): old');
    expect(formatPairedTable(pairedTable([rows[0]!]))).toMatch(/^paired statistics: no per-request outcomes recorded for old/);
  });
});
