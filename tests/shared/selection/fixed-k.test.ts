// Table 9's label-free rankings at a fixed K: Dense, Tool2Vec and Random keep their top K = 2 or 4 in every
// task, whatever K LOTS's sweep chose, and run only where named (or with --baselines all).
import { describe, expect, it } from 'vitest';
import { registryDefs } from '../../../shared/benchmark/registry';
import type { SelectionContext } from '../../../shared/selection/method';
import { ALL_BASELINES, BASELINE_NAMES, DEFAULT_BASELINES, expandBaselines, isFixedK, selectionMethod } from '../../../shared/selection/registry';
import { TABLE_COLUMNS } from '../../../shared/benchmark/comparison-table';
import { percent, plural } from '../../../shared/text';

/** Unit vectors from letter counts: enough for a ranking that depends on the text. */
function letters(text: string): Float64Array {
  const v = new Float64Array(26);
  for (const ch of text.toLowerCase()) {
    const i = ch.charCodeAt(0) - 97;
    if (i >= 0 && i < 26) v[i]! += 1;
  }
  const norm = Math.hypot(...v) || 1;
  return v.map((x) => x / norm);
}

function ctx(k: number): SelectionContext {
  return {
    task: 'table_total',
    registry: registryDefs('s', 15),
    k,
    space: [],
    requests: { fit: ['What is the total of the rows in the sales table?'], eval: [] },
    seed: 's',
    draws: 3,
    embed: async (texts) => ({ vectors: texts.map(letters), tokens: texts.length }),
  };
}

describe('rankings at a fixed K', () => {
  it('keep K tools whatever budget LOTS chose', async () => {
    for (const [id, k] of [
      ['dense-k2', 2],
      ['dense-k4', 4],
      ['random-k2', 2],
      ['random-k4', 4],
    ] as const) {
      for (const lotsK of [1, 3, 7]) {
        const s = await selectionMethod(id)!.select(ctx(lotsK));
        expect(s.k).toBe(k);
        for (const menu of s.menus) expect(menu).toHaveLength(k);
      }
    }
  });
  it("are their base method's choice at that K", async () => {
    const base = await selectionMethod('dense')!.select(ctx(4));
    const fixed = await selectionMethod('dense-k4')!.select(ctx(2));
    expect(fixed.menus).toEqual(base.menus);
    const random = await selectionMethod('random')!.select(ctx(2));
    expect((await selectionMethod('random-k2')!.select(ctx(5))).menus).toEqual(random.menus);
  });
  it('say their own K in their definitions, not the label-chosen K of their base method', () => {
    for (const [id, k] of [
      ['dense-k2', 2],
      ['dense-k4', 4],
      ['tool2vec-k2', 2],
      ['tool2vec-k4', 4],
      ['random-k2', 2],
      ['random-k4', 4],
    ] as const) {
      const { definition } = selectionMethod(id)!;
      expect(definition).toMatch(new RegExp(`(top|size) ${k}\\b`));
      expect(definition).not.toMatch(/top-K|LOTS's size K/);
      expect(definition).toContain('K fixed in every task');
      // The fixed-K row is a method of its own: it cannot be fixed again.
      expect(selectionMethod(id)!.definitionAt).toBeUndefined();
    }
  });
  it('are reference rows: run by --baselines all, not by the default of lots evaluate', () => {
    for (const id of ['dense-k2', 'dense-k4', 'tool2vec-k2', 'tool2vec-k4', 'random-k2', 'random-k4']) {
      expect(BASELINE_NAMES).toContain(id);
      expect(DEFAULT_BASELINES).not.toContain(id);
      expect(selectionMethod(id)!.needsLabels).toBe(false);
    }
  });
});

describe('--baselines groups', () => {
  it('all runs every baseline but the fixed-K rankings; fixed-k names those six; each name once', () => {
    expect(expandBaselines(['all'])).toEqual(ALL_BASELINES);
    expect(ALL_BASELINES).toContain('oracle');
    expect(ALL_BASELINES).not.toContain('dense-k2');
    expect(expandBaselines(['fixed-k', 'dense-k2', 'lots-k2'])).toEqual([
      'dense-k2',
      'dense-k4',
      'tool2vec-k2',
      'tool2vec-k4',
      'random-k2',
      'random-k4',
      'lots-k2',
    ]);
    expect(expandBaselines(['all', 'fixed-k', 'deletion'])).toHaveLength(BASELINE_NAMES.length);
    expect(expandBaselines([])).toEqual([]);
  });
});

describe('isFixedK', () => {
  it('names the six Table 9 rankings and nothing else; the comparison columns leave exactly those out', () => {
    expect(BASELINE_NAMES.filter(isFixedK)).toEqual(expandBaselines(['fixed-k']));
    expect(['lots', 'lots-k2', 'lots-k4', 'dense', 'random', 'oracle'].some(isFixedK)).toBe(false);
    expect(TABLE_COLUMNS.some(isFixedK)).toBe(false);
    expect(TABLE_COLUMNS).toEqual(expect.arrayContaining(['lots', 'dense', 'tool2vec', 'random', 'lots-k2', 'lots-k4']));
  });
});

describe('percent and plural (the tables’ words)', () => {
  it('rounds a share to a whole percent and shows a missing one as a dash', () => {
    expect([percent(0.346), percent(0), percent(1), percent(undefined), percent(Number.NaN)]).toEqual(['35%', '0%', '100%', '—', '—']);
    expect([plural(1, 'draw'), plural(5, 'draw')]).toEqual(['1 draw', '5 draws']);
  });
});
