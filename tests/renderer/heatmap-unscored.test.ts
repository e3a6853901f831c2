// Requests without any score for the run (a benchmark's unserved requests) are hidden from the heatmap
// by default once some request is scored, and a store toggle shows them; driven through the store and
// the model the canvas draws from, not the DOM.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { StudioService } from '../../electron/engine/api';
import { ProjectStore } from '../../electron/engine/store';
import type { HeatmapModel } from '../../renderer/heatmap/model';
import { heatmapViewKey, selectHeatmapView } from '../../renderer/store/heatmap-view-slice';
import { createStudioStore } from '../../renderer/store/store';
import { makeLineTraces, makeScoreRows } from '../e2e/fixtures';
import { inMemoryApi } from './harness';

/** 16 requests of one task, 4 of them scored (like a benchmark family: 4 served, 12 not). */
async function partlyScored(scored = 4) {
  const dir = mkdtempSync(join(tmpdir(), 'lots-renderer-unscored-'));
  const project = ProjectStore.create(dir, 'unscored-test');
  const traces = makeLineTraces({ task: 'fx_settle', requests: 16, tools: 8, exposed: 5 });
  project.addTraces(traces, 'gen.jsonl');
  // The scored ones are the last rows, so hiding the others changes which rows come first.
  if (scored > 0) project.appendScores(makeScoreRows(traces.slice(traces.length - scored)));
  const service = new StudioService({ transport: 'web', configDir: mkdtempSync(join(tmpdir(), 'lots-cfg-')) });
  service.setProject(ProjectStore.open(dir));
  const store = createStudioStore(inMemoryApi(service));
  await store.getState().boot();
  await store.getState().loadHeatmap('fx_settle');
  const model = store.getState().heatmaps.fx_settle!.value;
  return { store, model, traces };
}

const ids = (m: HeatmapModel) => Array.from({ length: m.visibleRows }, (_, r) => m.request(r)!.id);

describe('heatmap rows without scores', () => {
  it('knows which rows are scored', async () => {
    const { model, traces } = await partlyScored();
    expect(model.rows).toBe(16);
    expect(model.unscoredRows).toBe(12);
    expect(model.hidesUnscored).toBe(true);
    expect(Array.from(model.rowScored)).toEqual(traces.map((_, i) => (i >= 12 ? 1 : 0)));
  });

  it('shows the scored rows by default and counts the hidden ones; the toggle shows them all', async () => {
    const { store, model, traces } = await partlyScored();
    const s = store.getState();
    expect(s.hmShowUnscored).toBe(false);
    model.applyView(selectHeatmapView(s));
    expect(model.visibleRows).toBe(4);
    expect(ids(model)).toEqual(traces.slice(12).map((t) => t.id));
    expect(model.hiddenUnscored).toBe(12);
    expect(model.countHiddenUnscored(selectHeatmapView(s))).toBe(12);

    const before = heatmapViewKey(store.getState());
    store.getState().setHeatmapShowUnscored(true);
    expect(heatmapViewKey(store.getState())).not.toBe(before); // the canvas re-applies on this key
    model.applyView(selectHeatmapView(store.getState()));
    expect(model.visibleRows).toBe(16);
    expect(ids(model)).toEqual(traces.map((t) => t.id));
    expect(model.hiddenUnscored).toBe(0);
    expect(model.countHiddenUnscored(selectHeatmapView(store.getState()))).toBe(0);

    store.getState().setHeatmapShowUnscored(false);
    model.applyView(selectHeatmapView(store.getState()));
    expect(model.visibleRows).toBe(4);
  });

  it('counts only the hidden rows that pass the correctness filter and the search', async () => {
    const { store, model, traces } = await partlyScored();
    // makeLineTraces marks every request i with i % 5 === 3 wrong: 3, 8 among the unscored, 13 scored.
    store.getState().setHeatmapFilter('wrong');
    const opts = selectHeatmapView(store.getState());
    model.applyView(opts);
    expect(ids(model)).toEqual([traces[13]!.id]);
    expect(model.hiddenUnscored).toBe(2);
    expect(model.countHiddenUnscored(opts)).toBe(2);
    store.getState().setHeatmapFilter('all');
    store.getState().setHeatmapSearch('request 5)');
    const search = selectHeatmapView(store.getState());
    model.applyView(search);
    expect(model.visibleRows).toBe(0); // the one match is unscored: hidden, and counted
    expect(model.countHiddenUnscored(search)).toBe(1);
    store.getState().setHeatmapShowUnscored(true);
    model.applyView(selectHeatmapView(store.getState()));
    expect(ids(model)).toEqual([traces[5]!.id]);
  });

  it('sorts only the visible rows', async () => {
    const { store, model } = await partlyScored();
    store.getState().sortHeatmapBy(model.tools[0]!);
    model.applyView(selectHeatmapView(store.getState()));
    expect(model.visibleRows).toBe(4);
    for (let r = 0; r < model.visibleRows; r++) expect(model.rowScored[model.order[r]!]).toBe(1);
  });

  it('hides nothing when no request is scored (the exposure view) or every one is', async () => {
    for (const scored of [0, 16]) {
      const { store, model } = await partlyScored(scored);
      expect(model.hidesUnscored).toBe(false);
      model.applyView(selectHeatmapView(store.getState()));
      expect(model.visibleRows).toBe(16);
      expect(model.hiddenUnscored).toBe(0);
    }
  });
});
