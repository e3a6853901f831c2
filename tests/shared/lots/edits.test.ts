import { describe, expect, it } from 'vitest';
import { applyEdits } from '../../../shared/lots/edits';

describe('applyEdits', () => {
  const space = ['A', 'B', 'C'];

  it('keeps pinned tools, drops banned ones, adds and removes', () => {
    expect(applyEdits(space, { removed: ['B'], added: ['D'] })).toEqual(['A', 'C', 'D']);
    expect(applyEdits(space, { banned: ['A'], pinned: ['E'] })).toEqual(['B', 'C', 'E']);
    // A pinned tool survives its own removal; a banned tool cannot be added.
    expect(applyEdits(space, { removed: ['A'], pinned: ['A'], added: ['X'], banned: ['X'] })).toEqual(['A', 'B', 'C']);
    expect(applyEdits(space, {})).toEqual(space);
  });

  it('follows the ranking order when given, unranked tools last by name', () => {
    expect(applyEdits(['B', 'A'], { added: ['Z', 'Y', 'C'] }, ['C', 'A', 'B'])).toEqual(['C', 'A', 'B', 'Y', 'Z']);
  });

  it('refuses a tool that is both pinned and banned', () => {
    expect(() => applyEdits(space, { pinned: ['A'], banned: ['A'] })).toThrow(expect.objectContaining({ code: 'SPACE_EDIT_CONFLICT' }));
    expect(() => applyEdits(space, { pinned: ['A'], banned: ['A'] })).toThrow(/"A" is both pinned and banned/);
  });
});
