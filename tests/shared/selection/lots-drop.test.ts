// The deletion ablation: LOTS's space less its top-ranked tool, and less one tool drawn at random (seeded
// draws), each a reference row named or run with `--baselines deletion`, never by `all`.
import { describe, expect, it } from 'vitest';
import { registryDefs } from '../../../shared/benchmark/registry';
import type { SelectionContext } from '../../../shared/selection/method';
import { ALL_BASELINES, DEFAULT_BASELINES, expandBaselines, selectionMethod } from '../../../shared/selection/registry';

function ctx(extra: Partial<SelectionContext> = {}): SelectionContext {
  return {
    task: 'table_total',
    registry: registryDefs('s', 15),
    k: 3,
    // The space as the sweep stores it, not in ranking order; the ranking says which tool is first.
    space: ['Calculator', 'GoogleSearch', 'TableQuery'],
    ranking: ['TableQuery', 'Calculator', 'GoogleSearch', 'UnitConvert'],
    requests: { fit: [], eval: [] },
    seed: 's',
    draws: 6,
    ...extra,
  };
}

const select = (id: string, c: SelectionContext) => selectionMethod(id)!.select(c);

describe('the deletion ablation', () => {
  it('less the top tool removes the ranking’s first tool of the space, once', async () => {
    const top = await select('lots-drop-top', ctx());
    expect(top).toEqual({ k: 2, menus: [['Calculator', 'GoogleSearch']] });
  });

  it('less a random tool removes one tool of the space per seeded draw, the same draws for the same seed', async () => {
    const first = await select('lots-drop-random', ctx());
    expect(first.k).toBe(2);
    expect(first.menus).toHaveLength(6);
    for (const menu of first.menus) {
      expect(menu).toHaveLength(2);
      for (const tool of menu) expect(['TableQuery', 'Calculator', 'GoogleSearch']).toContain(tool);
    }
    // Over six draws of three tools, more than one tool is dropped (a fixed draw of this seed).
    const dropped = new Set(first.menus.map((m) => ['TableQuery', 'Calculator', 'GoogleSearch'].find((t) => !m.includes(t))));
    expect(dropped.size).toBeGreaterThan(1);
    expect((await select('lots-drop-random', ctx())).menus).toEqual(first.menus);
    expect((await select('lots-drop-random', ctx({ seed: 'other' }))).menus).not.toEqual(first.menus);
  });

  it('in a space of one tool both leave no tools, and say so', async () => {
    const one = ctx({ k: 1, space: ['Calculator'], ranking: ['Calculator', 'TableQuery'] });
    for (const id of ['lots-drop-top', 'lots-drop-random']) {
      const s = await select(id, one);
      expect(s.k).toBe(0);
      expect(new Set(s.menus.map((m) => m.join(',')))).toEqual(new Set(['']));
      expect(s.note).toBe("LOTS's space holds one tool (Calculator): removing it leaves no tools");
    }
  });

  it('without a ranking that matches the space, the space’s own order is taken', async () => {
    expect((await select('lots-drop-top', ctx({ ranking: undefined }))).menus).toEqual([['GoogleSearch', 'TableQuery']]);
  });

  it('runs when named or with --baselines deletion, not with all or by default', () => {
    expect(expandBaselines(['deletion'])).toEqual(['lots-drop-top', 'lots-drop-random']);
    expect(expandBaselines(['keep-all', 'deletion', 'lots-drop-top'])).toEqual(['keep-all', 'lots-drop-top', 'lots-drop-random']);
    expect(ALL_BASELINES).not.toContain('lots-drop-top');
    expect(DEFAULT_BASELINES).not.toContain('lots-drop-random');
  });
});
