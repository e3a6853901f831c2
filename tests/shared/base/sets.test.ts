import { describe, expect, it } from 'vitest';
import { sameSet } from '../../../shared/base/sets';

describe('sameSet', () => {
  it('compares tool lists as sets: order and repeats do not count', () => {
    expect(sameSet(['a', 'b'], ['b', 'a'])).toBe(true);
    expect(sameSet([], [])).toBe(true);
    expect(sameSet(['a', 'a', 'b'], ['b', 'a'])).toBe(true);
  });

  it('tells different sets apart, whichever side holds the extra name', () => {
    expect(sameSet(['a', 'b'], ['a'])).toBe(false);
    expect(sameSet(['a'], ['a', 'b'])).toBe(false);
    expect(sameSet(['a', 'b'], ['a', 'a'])).toBe(false);
    expect(sameSet(['a', 'a'], ['a', 'b'])).toBe(false);
  });
});
