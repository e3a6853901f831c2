// The heatmap model: cell states, filters, sort and greying, on data from the engine.
import { describe, expect, it } from 'vitest';
import { CELL_EXPOSED, CELL_SCORED, CELL_UNEXPOSED } from '../../shared/api';
import { HeatmapModel } from '../../renderer/heatmap/model';
import { BUCKETS_PER_SIDE, bucketOf, valueAtDepth } from '../../renderer/heatmap/palette';
import { scoredHarness } from './harness';

async function model() {
  const h = await scoredHarness();
  return new HeatmapModel(await h.api.getHeatmap({ task: 'fx_settle' }));
}

describe('heatmap model', () => {
  it('orders columns by ranking and marks unexposed cells apart from scored ones', async () => {
    const m = await model();
    expect(m.rows).toBe(40);
    expect(m.tools[0]).toBe('CurrencyConvert');
    const means = m.means.filter((x): x is number => x !== null);
    expect([...means].sort((a, b) => b - a)).toEqual(means);
    const states = new Set(m.states);
    expect(states.has(CELL_SCORED)).toBe(true);
    expect(states.has(CELL_UNEXPOSED)).toBe(true);
    // Not exposed is never a zero score.
    for (let i = 0; i < m.states.length; i++) if (m.states[i] === CELL_UNEXPOSED) expect(m.values[i]).toBe(0);
    expect(states.has(CELL_EXPOSED)).toBe(false);
  });

  it('filters by correctness and searches request text', async () => {
    const m = await model();
    m.applyView({ correct: 'wrong', search: '', sortTool: null, sortDir: 'desc' });
    expect(m.visibleRows).toBe(8);
    for (let r = 0; r < m.visibleRows; r++) expect(m.request(r)!.correct).toBe(false);
    m.applyView({ correct: 'all', search: 'request 17)', sortTool: null, sortDir: 'desc' });
    expect(m.visibleRows).toBe(1);
    expect(m.request(0)!.id).toBe('fx_settle-00017');
  });

  it('sorts rows by a tool column, unscored cells last in both directions', async () => {
    const m = await model();
    const tool = m.tools[3]!;
    const c = m.column(tool);
    for (const dir of ['desc', 'asc'] as const) {
      m.applyView({ correct: 'all', search: '', sortTool: tool, sortDir: dir });
      const scored: number[] = [];
      let seenUnscored = false;
      for (let r = 0; r < m.visibleRows; r++) {
        const i = m.cellIndex(r, c);
        if (m.states[i] === CELL_SCORED) {
          expect(seenUnscored).toBe(false);
          scored.push(m.values[i]!);
        } else seenUnscored = true;
      }
      const sorted = [...scored].sort((a, b) => (dir === 'desc' ? b - a : a - b));
      expect(scored).toEqual(sorted);
    }
  });

  it('greys the columns outside the kept set and bumps its version only on change', async () => {
    const m = await model();
    const v = m.version;
    expect(m.setKept(new Set([m.tools[0]!, m.tools[1]!]))).toBe(true);
    expect(Array.from(m.greyed.slice(0, 3))).toEqual([0, 0, 1]);
    expect(m.setKept(new Set([m.tools[0]!, m.tools[1]!]))).toBe(false);
    expect(m.version).toBe(v + 1);
    m.setKept(null);
    expect(m.greyed.every((g) => g === 0)).toBe(true);
  });
});

describe('colour scale', () => {
  it('is centred on 0 and never paints a nonzero score with the zero colour', () => {
    expect(bucketOf(0, 1)).toBe(BUCKETS_PER_SIDE);
    expect(bucketOf(1e-9, 1)).toBe(BUCKETS_PER_SIDE + 1);
    expect(bucketOf(-1e-9, 1)).toBe(BUCKETS_PER_SIDE - 1);
    expect(bucketOf(5, 1)).toBe(2 * BUCKETS_PER_SIDE);
    expect(bucketOf(-5, 1)).toBe(0);
  });

  it('does not saturate (issue 40): the scale ends at the largest |I|, the strongest cell alone is the deepest colour', async () => {
    const m = await model();
    let max = 0;
    for (let i = 0; i < m.values.length; i++) if (m.states[i] === CELL_SCORED) max = Math.max(max, Math.abs(m.values[i]!));
    expect(m.scale).toBeCloseTo(max, 6);
    // Square-root depth: a cell at a quarter of the largest is half as deep, and distinct from it.
    expect(bucketOf(max, m.scale)).toBe(2 * BUCKETS_PER_SIDE);
    expect(bucketOf(max / 4, m.scale)).toBe(BUCKETS_PER_SIDE + BUCKETS_PER_SIDE / 2);
    expect(bucketOf(-max / 4, m.scale)).toBe(BUCKETS_PER_SIDE / 2);
    expect(bucketOf(0.9 * max, m.scale)).toBeLessThan(2 * BUCKETS_PER_SIDE);
    // The legend's ticks are the inverse: depth ½ is a quarter of the scale.
    expect(valueAtDepth(0.5, 2)).toBe(0.5);
  });
});
