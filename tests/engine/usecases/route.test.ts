// `lots route` run again after new unlabelled traces arrive: the requests routed before keep their task
// (routes.json held only the new routes, so every earlier route was lost), and the new requests are routed
// under cluster names of their own (a new "cluster-01" would have merged with the earlier one).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ProjectStore } from '../../../electron/engine/store';
import { routeProject, routeProjectWith } from '../../../electron/engine/usecases/route';
import { resolveModelArg } from '../../../electron/engine/models/model-arg';
import { makeLineTraces } from '../../e2e/fixtures';

const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

const unlabelled = (seed: number, prefix: string, topic: string) =>
  makeLineTraces({ task: 'x', requests: 6, tools: 5, seed }).map(({ task: _, ...t }) => ({
    ...t,
    id: `${prefix}-${t.id}`,
    turns: t.turns.map((u) => ({ ...u, request: `${topic} ${u.request}` })),
  }));

describe('routing a project again', () => {
  it('keeps the earlier routes and names the new clusters after them', () => {
    const dir = mkdtempSync(join(tmpdir(), 'lots-route-'));
    dirs.push(dir);
    const store = ProjectStore.create(dir);
    store.addTraces([...unlabelled(1, 'a', 'Book a flight to'), ...unlabelled(2, 'b', 'Settle the invoice of')], 'one.jsonl');
    const first = routeProject(store, { method: { kind: 'kmeans', k: 2 }, seed: 1 });
    expect(first.saved).toBe(true);
    expect(new Set(Object.values(first.routes))).toEqual(new Set(['cluster-01', 'cluster-02']));
    const earlier = { ...store.readRoutes() };
    expect(Object.keys(earlier)).toHaveLength(12);

    store.addTraces([...unlabelled(3, 'c', 'Translate the sentence'), ...unlabelled(4, 'd', 'Forecast the weather in')], 'two.jsonl');
    const second = routeProject(store, { method: { kind: 'kmeans', k: 2 }, seed: 1 });
    // Only the new requests were routed, under new names.
    expect(Object.keys(second.routes).sort()).toEqual(
      store
        .listTraces()
        .filter((t) => /^[cd]-/.test(t.id))
        .map((t) => t.id)
        .sort(),
    );
    expect(new Set(Object.values(second.routes))).toEqual(new Set(['cluster-03', 'cluster-04']));
    // Nothing routed before was lost or moved.
    const all = store.readRoutes();
    expect(Object.keys(all)).toHaveLength(24);
    for (const [id, task] of Object.entries(earlier)) expect(all[id], id).toBe(task);
    for (const t of store.listTraces()) expect(t.task, t.id).toBe(all[t.id]);
    // A third run with nothing new routes nothing and keeps everything.
    expect(routeProject(store, { method: { kind: 'kmeans', k: 2 }, seed: 1 }).saved).toBe(false);
    expect(Object.keys(store.readRoutes())).toHaveLength(24);
  });

  it("routes the unlabelled requests with a GGUF's own embeddings when asked (a generated fixture here)", async () => {
    const dir = mkdtempSync(join(tmpdir(), 'lots-route-'));
    dirs.push(dir);
    const store = ProjectStore.create(dir);
    store.addTraces([...unlabelled(1, 'a', 'Book a flight to'), ...unlabelled(2, 'b', 'Settle the invoice of')], 'one.jsonl');
    const r = await routeProjectWith(store, {
      method: { kind: 'kmeans', k: 2 },
      seed: 1,
      embedding: { kind: 'model', path: resolveModelArg('fixture:random'), gpu: 'cpu', threads: 1 },
    });
    expect(r.saved).toBe(true);
    expect(Object.keys(r.routes)).toHaveLength(12);
    expect(new Set(Object.values(r.routes))).toEqual(new Set(['cluster-01', 'cluster-02']));
    expect(Object.keys(store.readRoutes())).toHaveLength(12);
  });
});
