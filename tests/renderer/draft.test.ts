// The space draft: K and edits give the kept set; approval goes through the engine with its checks.
import { describe, expect, it } from 'vitest';
import { selectKept } from '../../renderer/store/draft-slice';
import { scoredHarness } from './harness';

async function withDraft() {
  const h = await scoredHarness();
  const task = h.store.getState().route.task!;
  await h.store.getState().loadSpaces(task);
  h.store.getState().ensureDraft(task);
  return { ...h, task };
}

describe('space draft', () => {
  it('starts from the proposal and follows K', async () => {
    const { store, task } = await withDraft();
    const s = store.getState();
    expect(task).toBe('fx_settle');
    const ranking = s.spaces[task]!.value.candidates.filter((c) => c.rank !== null).map((c) => c.tool);
    expect(ranking[0]).toBe('CurrencyConvert');
    s.setK(task, 3);
    expect(selectKept(store.getState(), task)).toEqual(ranking.slice(0, 3));
    store.getState().setK(task, 1);
    expect(selectKept(store.getState(), task)).toEqual(['CurrencyConvert']);
  });

  it('returns the same kept array until the draft changes (selectors stay cheap)', async () => {
    const { store, task } = await withDraft();
    store.getState().setK(task, 4);
    const a = selectKept(store.getState(), task);
    expect(selectKept(store.getState(), task)).toBe(a);
    store.getState().setK(task, 5);
    expect(selectKept(store.getState(), task)).not.toBe(a);
  });

  it('keeps pins whatever K is, never keeps bans, and keep/drop edit the top-K', async () => {
    const { store, task } = await withDraft();
    const s = () => store.getState();
    const ranking = s()
      .spaces[task]!.value.candidates.filter((c) => c.rank !== null)
      .map((c) => c.tool);
    s().setK(task, 2);
    s().editTool(task, ranking[5]!, 'pin');
    s().editTool(task, ranking[0]!, 'ban');
    expect(selectKept(s(), task)).toEqual([ranking[1], ranking[5]]);
    s().editTool(task, ranking[0]!, 'keep'); // keep unbans
    expect(selectKept(s(), task)).toEqual([ranking[0], ranking[1], ranking[5]]);
    s().editTool(task, ranking[1]!, 'drop');
    expect(selectKept(s(), task)).toEqual([ranking[0], ranking[5]]);
    s().editTool(task, ranking[5]!, 'ban'); // ban unpins
    expect(s().drafts[task]!.pinned).toEqual([]);
    expect(selectKept(s(), task)).toEqual([ranking[0]]);
  });

  it('approves through the engine: an edit without a note is refused, with a note it becomes v0', async () => {
    const { store, task, service } = await withDraft();
    const s = () => store.getState();
    const ranking = s()
      .spaces[task]!.value.candidates.filter((c) => c.rank !== null)
      .map((c) => c.tool);
    s().setK(task, 3);
    s().editTool(task, ranking[6]!, 'pin');
    expect(await s().acceptDraft(task)).toBe(false);
    expect(s().notices.at(-1)).toMatchObject({ kind: 'error', code: 'INVALID_INPUT' });
    s().setNote(task, 'pinned a tool the team always needs');
    expect(await s().acceptDraft(task)).toBe(true);
    const state = await service.getSpaces({ task });
    expect(state.approved).toMatchObject({
      version: 0,
      tools: [...ranking.slice(0, 3), ranking[6]],
      pinned: [ranking[6]],
      note: 'pinned a tool the team always needs',
    });
    // The draft is rebuilt from the approved version once fresh spaces arrive.
    await s().loadSpaces(task);
    s().ensureDraft(task);
    expect(s().drafts[task]).toMatchObject({ k: 3, pinned: [ranking[6]], baseVersion: 0 });
    expect(selectKept(s(), task)).toEqual([...ranking.slice(0, 3), ranking[6]]);
  });

  it('approves the unedited proposal without a note', async () => {
    const { store, task, service } = await withDraft();
    store.getState().setK(task, 2);
    expect(await store.getState().acceptDraft(task)).toBe(true);
    expect((await service.getSpaces({ task })).approved).toMatchObject({ version: 0, rule: { kind: 'topk', k: 2 }, note: '' });
  });
});
