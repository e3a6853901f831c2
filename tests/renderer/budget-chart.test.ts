// The Budget view's fit chart: distinct baseline styles, a layout in which no two markers overlap, and
// F̂ ticks with enough decimals to tell them apart.
import { describe, expect, it } from 'vitest';
import { baselineLabel, baselineLayout, baselineStyle, fmtAxisScore, tickDigits, type Point } from '../../renderer/views/budget-chart';
import { SELECTION_METHOD_IDS } from '../../shared/selection/registry';

const COLORS = { text: '#111', warn: '#a60', series3: '#74a', good: '#285', axis: '#999', pos: '#26a', neg: '#d61' };
const GAP = 13;
const OPTS = { gap: GAP, minX: 60, maxX: 560 };

function expectApart(points: readonly Point[]): void {
  for (let i = 0; i < points.length; i++) {
    for (let j = i + 1; j < points.length; j++) {
      const a = points[i]!;
      const b = points[j]!;
      const apart = Math.abs(a.x - b.x) >= GAP - 1e-9 || Math.abs(a.y - b.y) >= GAP - 1e-9;
      expect(apart, `markers ${i} and ${j} overlap at (${a.x}, ${a.y}) and (${b.x}, ${b.y})`).toBe(true);
    }
  }
}

describe('baseline markers', () => {
  it('give every method of the selection registry its own shape, none the unknown-name dot', () => {
    const shapes = SELECTION_METHOD_IDS.map((n) => baselineStyle(n, COLORS).shape);
    expect(SELECTION_METHOD_IDS.length).toBe(23);
    expect(new Set(shapes).size).toBe(SELECTION_METHOD_IDS.length);
    expect(shapes).not.toContain('dot');
    expect(baselineStyle('something-else', COLORS).shape).toBe('dot');
  });

  it("name each method by the registry's label", () => {
    expect(baselineLabel('router')).toBe('LLM router');
    expect(baselineLabel('tto')).toBe('TTO†');
    expect(baselineLabel('keep-all')).toBe('Keep-all');
    expect(baselineLabel('something-else')).toBe('something-else');
  });

  it('leave markers that do not collide where they are', () => {
    const pts = [
      { x: 100, y: 50 },
      { x: 300, y: 50 },
      { x: 100, y: 200 },
    ];
    expect(baselineLayout(pts, OPTS)).toEqual(pts);
  });

  it('spread coincident markers side by side around their position', () => {
    // bm25 and random at the same K and accuracy, as a random-weight model gives.
    const out = baselineLayout(
      [
        { x: 300, y: 280 },
        { x: 300, y: 280 },
        { x: 300, y: 280 },
      ],
      OPTS,
    );
    expect(out.map((p) => p.x)).toEqual([300 - GAP, 300, 300 + GAP]);
    expect(out.every((p) => p.y === 280)).toBe(true);
    expectApart(out);
  });

  it('keep spread markers inside the plot and apart when groups meet at the edges', () => {
    // no-tools at K = 0 and keep-all at the right end, both at 0 %, plus two in the middle.
    const pts = [
      { x: 60, y: 280 },
      { x: 64, y: 282 },
      { x: 560, y: 280 },
      { x: 556, y: 280 },
      { x: 310, y: 280 },
      { x: 315, y: 280 },
      { x: 320, y: 276 },
    ];
    const out = baselineLayout(pts, OPTS);
    expectApart(out);
    for (const p of out) {
      expect(p.x).toBeGreaterThanOrEqual(OPTS.minX);
      expect(p.x).toBeLessThanOrEqual(OPTS.maxX);
    }
    // Order within a group follows x.
    expect(out[0]!.x).toBeLessThan(out[1]!.x);
    expect(out[3]!.x).toBeLessThan(out[2]!.x);
  });

  it('merge groups that touch after spreading', () => {
    const pts = [
      { x: 200, y: 100 },
      { x: 200, y: 100 },
      { x: 214, y: 100 },
      { x: 214, y: 100 },
    ];
    const out = baselineLayout(pts, OPTS);
    expectApart(out);
  });
});

describe('F̂ tick decimals', () => {
  it('grow with a small span so the ticks differ, within 2 to 8', () => {
    expect(tickDigits([0, -0.8, -1.6])).toBe(2);
    expect(tickDigits([-5.52, -5.64])).toBe(2);
    expect(tickDigits([-5.52, -5.53])).toBe(3);
    expect(tickDigits([0, -0.0003, -0.00012])).toBe(5);
    expect(tickDigits([0, -1e-7])).toBe(8);
    expect(tickDigits([0, -1e-12])).toBe(8);
    expect(tickDigits([0.5, 0.5])).toBe(2);
    expect(tickDigits([])).toBe(2);
  });
});

describe('F̂ tick labels', () => {
  it('are fixed decimals for ordinary spans and short exponents for tiny ones, all distinct', () => {
    expect([0, -0.4, -0.8].map((v) => fmtAxisScore(v, 2))).toEqual(['0.00', '\u22120.40', '\u22120.80']);
    expect(fmtAxisScore(-0.00001, 2)).toBe('0.00');
    const ticks = [0, 2e-7, 4e-7, 6e-7, 8e-7, 1e-6];
    const digits = tickDigits(ticks);
    const labels = ticks.map((v) => fmtAxisScore(v, digits));
    expect(labels).toEqual(['0', '2.0e\u22127', '4.0e\u22127', '6.0e\u22127', '8.0e\u22127', '1.0e\u22126']);
    expect(fmtAxisScore(-3e-6, 7)).toBe('\u22123.0e\u22126');
  });
});

describe('small scores in the heatmap legend and tooltip', () => {
  it('keep fixed decimals where they show the value, two significant digits where they would read 0', async () => {
    const { fmtSignedSmall } = await import('../../renderer/format');
    expect(fmtSignedSmall(0.1234, 4)).toBe('+0.1234');
    expect(fmtSignedSmall(-0.1234, 4)).toBe('\u22120.1234');
    expect(fmtSignedSmall(0, 4)).toBe('0.0000');
    expect(fmtSignedSmall(2.34e-6, 4)).toBe('+2.3e\u22126');
    expect(fmtSignedSmall(-2.34e-6, 4)).toBe('\u22122.3e\u22126');
    expect(fmtSignedSmall(null)).toBe('—');
  });
});
