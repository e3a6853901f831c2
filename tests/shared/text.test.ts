// One rounding rule for a number printed by the CLI and shown by the Studio: formatFixed rounds a half away
// from zero at the printed digit, as percent does, so 29/40 is "0.73" in a table and "73%" in the Demo view.
import { describe, expect, it } from 'vitest';
import { formatFixed, formatMinSec, listText, percent } from '../../shared/text';
import { formatSigned } from '../../shared/benchmark/paired';

describe('formatFixed', () => {
  it('rounds exact halves up whichever way the binary value lies', () => {
    // 0.725 is stored just below 0.725, 0.525 just above: toFixed splits them, formatFixed does not.
    expect((29 / 40).toFixed(2)).toBe('0.72');
    expect((21 / 40).toFixed(2)).toBe('0.53');
    expect(formatFixed(29 / 40)).toBe('0.73');
    expect(formatFixed(21 / 40)).toBe('0.53');
    expect(formatFixed(3 / 40)).toBe('0.08');
    expect(formatFixed(0.5, 0)).toBe('1');
  });

  it('prints the digits asked for, negatives without "-0"', () => {
    expect(formatFixed(1)).toBe('1.00');
    expect(formatFixed(0.1234, 3)).toBe('0.123');
    expect(formatFixed(-0.175)).toBe('-0.18');
    expect(formatFixed(-0.001)).toBe('0.00');
  });

  it('agrees with percent and with the signed points the Demo view prints', () => {
    for (let n = 1; n <= 400; n++) {
      for (const k of [0, 1, Math.floor(n / 3), Math.floor(n / 2), n - 1, n]) {
        const x = k / n;
        expect(`${Number(formatFixed(x).replace('.', ''))}%`).toBe(percent(x)); // "0.73" and "73%"
        expect(formatSigned(x)).toBe(`+${formatFixed(x)}`);
        expect(formatSigned(-x * 100, 0)).toBe(x * 100 < 0.5 ? '+0' : `−${formatFixed(x * 100, 0)}`);
      }
    }
  });
});

describe('formatMinSec', () => {
  it('rounds to whole seconds before splitting, so a minute never ends in "60 s"', () => {
    expect(formatMinSec(2879.6)).toBe('48 min 0 s'); // printed "47 min 60 s" before
    expect(formatMinSec(2879.4)).toBe('47 min 59 s');
    expect(formatMinSec(119.6)).toBe('2 min 0 s');
    expect(formatMinSec(95.2)).toBe('95 s');
  });
});

describe('listText', () => {
  it('joins with commas and a last "and"', () => {
    expect([[], ['a'], ['a', 'b'], ['a', 'b', 'c']].map((items) => listText(items))).toEqual(['', 'a', 'a and b', 'a, b and c']);
  });
});
