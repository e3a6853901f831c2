// The router's threshold (issue 44, item 6): a request that names no task and is unrelated to every task
// of the project is not cut to the nearest task's space. Below the threshold the project's own data gives
// (shared/routing/nearest-task.ts) it is unrouted: passed through whole, counted, listed in the status
// record and recorded without a task, where `lots route` finds it. The real OpenAI gateway in front of a
// small real upstream on 127.0.0.1, on a project of the built-in benchmark's requests.
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { startOpenAIGateway } from '../../electron/engine/gateway/openai-gateway';
import { ProjectStore } from '../../electron/engine/store';
import { unlabelledRequests } from '../../electron/engine/usecases/route';
import { generateBenchmark } from '../../shared/benchmark/generate';
import { chooseRouteThreshold, fitNearestTask, lowerQuantile, withinTaskSimilarities, type TaskVector } from '../../shared/routing/nearest-task';
import { requestText } from '../../shared/routing/route';
import type { Trace } from '../../shared/trace/schema';
import { tempDir } from '../cli/io';
import { post } from './fixture';
import { startTinyUpstream } from './tiny-upstream';

const tmp = tempDir('lots-route-threshold-');
afterAll(() => tmp.cleanup());

function unit(xs: number[]): Float64Array {
  const n = Math.hypot(...xs);
  return Float64Array.from(xs, (x) => x / n);
}

describe('the threshold from within-task similarities', () => {
  const samples: TaskVector[] = [];
  for (let i = 0; i < 15; i++)
    samples.push({ task: 'a', vector: unit([1, 0.1 * (i % 5), 0.05 * i]) }, { task: 'b', vector: unit([0.05 * i, 1, 0.1 * (i % 3)]) });

  it('compares each request with its own task centroid computed without it', () => {
    const within = withinTaskSimilarities(samples);
    expect(within).toHaveLength(30);
    samples.forEach((s, i) => {
      const rest = samples.filter((o, j) => j !== i && o.task === s.task);
      const c = new Float64Array(3);
      for (const o of rest) o.vector.forEach((x, k) => (c[k] = c[k]! + x));
      const cos = s.vector.reduce((acc, x, k) => acc + x * c[k]!, 0) / Math.hypot(...c);
      expect(within[i]).toBeCloseTo(cos, 12);
    });
  });

  it("is the 1st percentile of them (their minimum under 100), the operator's when given, none with fewer than 20", () => {
    const within = withinTaskSimilarities(samples);
    expect(chooseRouteThreshold(samples)).toEqual({ value: Math.min(...within), from: 'data', samples: 30 });
    expect(lowerQuantile([...Array(201).keys()], 0.01)).toBe(2);
    expect(chooseRouteThreshold(samples, 0.5)).toEqual({ value: 0.5, from: 'operator', samples: 30 });
    expect(chooseRouteThreshold(samples.slice(0, 19))).toEqual({ from: 'none', samples: 19 });
    const router = fitNearestTask(samples)!;
    expect(router.route(unit([1, 0.2, 0.3]))).toMatchObject({ task: 'a' });
    const far = router.route(unit([0, 0, 1]));
    expect(far.task).toBeUndefined();
    expect(far).toMatchObject({ nearest: expect.any(String), threshold: Math.min(...within) });
    // Without a threshold (too little data) every request is routed, as before.
    expect(fitNearestTask(samples.slice(0, 4))!.route(unit([0, 0, 1])).task).toBeDefined();
  });
});

describe('the OpenAI gateway with a routed project', () => {
  function benchmarkProject(name: string): { dir: string; eval: Trace[] } {
    const traces = generateBenchmark({ fit: 10, eval: 2 });
    const dir = join(tmp.dir, name);
    const store = ProjectStore.create(dir);
    store.addTraces(
      traces.filter((t) => t.split === 'fit'),
      'bench.jsonl',
    );
    // The project has been routed once (`lots route`), so the gateway has a router.
    const first = traces.find((t) => t.split === 'fit')!;
    store.addTraces([{ ...first, id: 'unlabelled-1', task: undefined, split: undefined }], 'later.jsonl');
    store.writeRoutes({ 'unlabelled-1': first.task! }, 'test');
    return { dir, eval: traces.filter((t) => t.split === 'eval') };
  }

  const request = (t: Trace | string) => ({
    model: 'tiny',
    messages: [{ role: 'user', content: typeof t === 'string' ? t : requestText(t) }],
    tools:
      (typeof t === 'string' ? undefined : t.tools)?.map((x) => ({
        type: 'function',
        function: { name: x.name, parameters: x.parameters ?? { type: 'object' } },
      })) ?? menu,
  });
  let menu: unknown[] = [];

  it('routes the requests of its tasks, and passes a haiku request through whole, counted, listed and recorded without a task', async () => {
    const { dir, eval: evalTraces } = benchmarkProject('p1');
    const store = ProjectStore.open(dir);
    const task = evalTraces[0]!.task!;
    store.acceptSpace({ task, tools: [evalTraces[0]!.tools[0]!.name], pinned: [], banned: [], rule: { kind: 'topk', k: 1 }, note: 'one tool' });
    menu = request(evalTraces[0]!).tools;
    const upstream = await startTinyUpstream();
    const gateway = await startOpenAIGateway({ store: ProjectStore.open(dir), upstream: upstream.url, statusHeartbeatMs: 100 });
    try {
      expect((await post(gateway.url, request(evalTraces[0]!))).status).toBe(200);
      expect((upstream.received[0]!.body.tools as unknown[]).length).toBe(1); // routed to its task: cut to its space
      for (const t of evalTraces.slice(1)) expect((await post(gateway.url, request(t))).status).toBe(200);
      expect(gateway.stats.unroutedCount).toBe(0); // every request of the project's tasks is routed
      for (const t of evalTraces) expect(gateway.stats.tasks.get(t.task!)!.requests).toBeGreaterThan(0);

      const haiku = 'Write a haiku about the sea.';
      expect((await post(gateway.url, request(haiku))).status).toBe(200);
      const sent = upstream.received.at(-1)!.body;
      expect(sent.tools).toEqual(menu); // passed through whole, not cut to the nearest task's space
      expect(gateway.stats.unroutedCount).toBe(1);
      expect(gateway.stats.unroutedRecent).toEqual([
        { at: expect.any(String), text: haiku, nearest: expect.any(String), similarity: expect.any(Number), threshold: expect.any(Number) },
      ]);
      const [u] = gateway.stats.unroutedRecent;
      expect(u!.similarity).toBeLessThan(u!.threshold);
      expect(gateway.stats.summary().join('\n')).toMatch(/unrouted: 1 request\(s\) under the router's threshold/);
      for (let i = 0; i < 50 && !ProjectStore.open(dir).listGateways()[0]?.unrouted; i++) await new Promise((r) => setTimeout(r, 100));
      expect(ProjectStore.open(dir).listGateways()[0]!.unrouted).toEqual({ count: 1, recent: [u] });
    } finally {
      await gateway.close();
      await upstream.close();
    }
    // Recorded without a task: `lots route` finds it among the requests to route.
    const later = ProjectStore.open(dir);
    expect(unlabelledRequests(later).map((r) => r.text)).toContain('Write a haiku about the sea.');
  }, 60_000);

  it('routes it to the nearest task anyway under --route-threshold -1', async () => {
    const { dir } = benchmarkProject('p2');
    const upstream = await startTinyUpstream();
    const gateway = await startOpenAIGateway({ store: ProjectStore.open(dir), upstream: upstream.url, routeThreshold: -1 });
    try {
      menu = [];
      await post(gateway.url, request('Write a haiku about the sea.'));
      expect(gateway.stats.unroutedCount).toBe(0);
      expect(gateway.stats.bySource.router).toBe(1);
      expect(gateway.stats.tasks.size).toBe(1);
      expect([...gateway.stats.tasks.keys()][0]).not.toBe('(no task)');
    } finally {
      await gateway.close();
      await upstream.close();
    }
  }, 60_000);
});
