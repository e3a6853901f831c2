// The read model's one answer to "what is the approved space of task T" and "what state is tool X in for
// task T" (what a gateway adapter asks per tool), on a real project folder; and updates keep the
// operator's sticky edits (pin in, ban and defer out of the pinned set).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ProjectStore } from '../../../electron/engine/store';
import { approvedIn, approvedSpace, toolState } from '../../../electron/engine/read-model/approved-space';
import { withEdits } from '../../../electron/engine/read-model/proposal';

const dir = mkdtempSync(join(tmpdir(), 'lots-approved-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('approved space read model', () => {
  it('is null before any approval, then the latest version; tool states follow it', () => {
    const store = ProjectStore.create(join(dir, 'p'));
    expect(approvedSpace(store, 't')).toBeNull();
    expect(toolState(store, 't', 'A')).toBeNull();
    store.acceptSpace({ task: 't', tools: ['A'], pinned: [], banned: [], rule: { kind: 'manual' }, note: 'v0' });
    expect(toolState(store, 't', 'B')).toBe('hidden'); // v0 deferred nothing
    store.acceptSpace({ task: 't', tools: ['B'], deferred: ['A'], deferEdits: ['A'], pinned: [], banned: [], rule: { kind: 'manual' }, note: 'v1' });
    expect(approvedSpace(store, 't')).toMatchObject({ version: 1, tools: ['B'], deferred: ['A'] });
    expect(['A', 'B', 'C'].map((tool) => toolState(store, 't', tool))).toEqual(['deferred', 'pinned', 'hidden']);
    expect(store.listActivity().map((a) => a.message)).toContain('space v1 of t accepted (1 tool pinned, 1 deferred)');
    // A reader of every task (the gateway's project view) gets the same answer from the space records.
    expect(store.listSpaces().map((s) => [s.task, approvedIn(s)?.version])).toEqual([['t', 1]]);
    expect(approvedIn({ task: 'none', versions: [] })).toBeNull();
  });

  it('updates keep pins in and bans and defer edits out of the pinned set', () => {
    const store = ProjectStore.open(join(dir, 'p'));
    store.acceptSpace({ task: 'u', tools: ['B', 'P'], deferred: ['A'], pinned: ['P'], deferEdits: ['A'], banned: ['X'], rule: { kind: 'manual' }, note: 'x' });
    expect(withEdits(['A', 'B', 'X'], approvedSpace(store, 'u'))).toEqual(['B', 'P']);
  });
});
