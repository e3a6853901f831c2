// The space editor's draft model (shared by the Space view and `lots space`): the proposal's three states,
// each edit's effect, and an approved version — old or new — read back as a draft with exactly its states.
import { describe, expect, it } from 'vitest';
import type { SpaceState } from '../../shared/api/types';
import { acceptInputOf, draftFrom, draftStates, editDraft, isEdited, rankingOf, sameAsVersion, type SpaceDraft } from '../../shared/lots/space-draft';
import { diffStates, SpaceVersionSchema, toolStateIn } from '../../shared/project/spaces';

const RANKED = ['A', 'B', 'C', 'D', 'E'];
const space = (approved: SpaceState['approved'] = null): SpaceState => ({
  task: 't',
  versions: approved ? [approved] : [],
  approved,
  proposal: { tools: ['A', 'B'], deferred: ['C', 'D', 'E'], rule: { kind: 'topk', k: 2 }, run: 'r' },
  candidates: [...RANKED.map((tool, i) => ({ tool, rank: i + 1, mean: 1 - i / 10, n: 5 })), { tool: 'Z', rank: null, mean: null, n: 0 }],
  changedSinceApproval: false,
  update: null,
});
const ranking = rankingOf(space());
const edit = (d: SpaceDraft, tool: string, action: Parameters<typeof editDraft>[2]) => editDraft(d, tool, action, ['A', 'B'].includes(tool));

describe('space draft', () => {
  it('proposes the top-K pinned, the other ranked tools deferred, the unranked hidden', () => {
    const d = draftFrom(space(), 'proposal');
    expect(draftStates(ranking, d)).toEqual({ pinned: ['A', 'B'], deferred: ['C', 'D', 'E'] });
    expect(isEdited(d)).toBe(false);
  });

  it('each edit moves the tool to its state; edits are idempotent', () => {
    let d = draftFrom(space(), 'proposal');
    d = edit(d, 'A', 'defer');
    d = edit(d, 'E', 'pin');
    d = edit(d, 'D', 'hide');
    d = edit(d, 'B', 'drop');
    d = edit(d, 'Z', 'defer');
    d = edit(d, 'C', 'ban');
    expect(edit(d, 'E', 'pin')).toEqual(d);
    expect(draftStates(ranking, d)).toEqual({ pinned: ['E'], deferred: ['A', 'Z'] });
    d = edit(d, 'C', 'keep'); // keep unbans and pins
    expect(draftStates(ranking, d).pinned).toEqual(['C', 'E']);
    const input = acceptInputOf('t', space(), d);
    expect(input).toMatchObject({ tools: ['C', 'E'], deferred: ['A', 'Z'], pinned: ['E'], deferEdits: ['A', 'Z'], rule: { kind: 'manual' } });
  });

  it('reads an approved version back as a draft with exactly its states (old versions: nothing deferred)', () => {
    const old = SpaceVersionSchema.parse({ version: 0, task: 't', tools: ['A', 'C'], rule: { kind: 'manual' }, note: 'x', createdAt: '2026-01-01T00:00:00Z' });
    expect(old.deferred).toEqual([]);
    expect(['A', 'B', 'Z'].map((t) => toolStateIn(old, t))).toEqual(['pinned', 'hidden', 'hidden']);
    const d = draftFrom(space(old), 'approved');
    expect(draftStates(ranking, d)).toEqual({ pinned: ['A', 'C'], deferred: [] });
    expect(sameAsVersion(acceptInputOf('t', space(old), d), old)).toBe(true);

    const v1 = SpaceVersionSchema.parse({ ...old, version: 1, tools: ['B', 'D'], deferred: ['A', 'Z'], deferEdits: ['A'], banned: ['E'] });
    const d1 = draftFrom(space(v1), 'approved');
    expect(draftStates(ranking, d1)).toEqual({ pinned: ['B', 'D'], deferred: ['A', 'Z'] });
    expect(diffStates(old, v1)).toEqual([
      { tool: 'A', from: 'pinned', to: 'deferred' },
      { tool: 'C', from: 'pinned', to: 'hidden' },
      { tool: 'B', from: 'hidden', to: 'pinned' },
      { tool: 'D', from: 'hidden', to: 'pinned' },
      { tool: 'Z', from: 'hidden', to: 'deferred' },
    ]);
  });
});
