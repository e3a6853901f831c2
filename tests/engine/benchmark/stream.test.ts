// `lots bench stream` through real llama.cpp with the evidence-copy fixture (it copies the last tool
// line's value, so scores and spaces mean something mechanically): arrivals, arms on the same requests,
// the frozen arm keeping its first space, the capped cold start, credited accuracy, what is stored.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { main } from '../../../electron/cli/main';
import { ProjectStore } from '../../../electron/engine/store';
import { taskHistory } from '../../../electron/engine/usecases/update';
import type { CliIO } from '../../../electron/cli/command';

const dir = mkdtempSync(join(tmpdir(), 'lots-stream-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function capture(): { io: CliIO; out: () => string; err: () => string } {
  const out: string[] = [];
  const err: string[] = [];
  return { io: { out: (t) => out.push(t), err: (t) => err.push(t), isTTY: false }, out: () => out.join('\n'), err: () => err.join('\n') };
}

describe('lots bench stream', () => {
  it('runs the arms batch by batch on two families and stores the stream and the updated history', async () => {
    const out = join(dir, 's');
    const c = capture();
    const code = await main(
      [
        'bench',
        'stream',
        '--model',
        'fixture:evidence-copy',
        '--out',
        out,
        '--gpu',
        'cpu',
        '--families',
        'compute_only,table_total',
        '--batches',
        '3',
        '--batch-size',
        '1',
        '--eval',
        '1',
        '--cap',
        '4',
        '--epsilon',
        '1',
        '--explore-size',
        '6',
        '--arrival-every',
        '2',
        '--k',
        '2',
        '--max-tokens',
        '4',
        '--threads',
        '1',
      ],
      c.io,
    );
    expect(code, c.err()).toBe(0);
    const record = ProjectStore.open(out).readStream()!;
    expect(record.options).toMatchObject({
      families: ['compute_only', 'table_total'],
      batches: 3,
      batchSize: 1,
      cap: 4,
      epsilon: 1,
      exploreSize: 6,
      arrivalEvery: 2,
      rule: { kind: 'topk', k: 2 },
    });
    const [a, b] = record.tasks;
    expect(a!.arrival).toBe(1);
    expect(b!.arrival).toBe(3);
    // compute_only alone at steps 1–2; then the family with fewer batches goes first (ties: arrival order).
    expect(record.credited.map((c) => [c.step, c.task])).toEqual([
      [1, 'compute_only'],
      [2, 'compute_only'],
      [3, 'table_total'],
      [4, 'table_total'],
      [5, 'compute_only'],
      [6, 'table_total'],
    ]);
    for (const t of record.tasks) {
      for (const arm of ['keep-all', 'frozen', 'updated', 'capped'] as const) expect(t.arms[arm]).toHaveLength(3);
      const keepAll = t.arms['keep-all'];
      expect(keepAll.every((x) => x.menuSize === 15 && x.space.length === 15)).toBe(true);
      // The frozen arm keeps the space of the first update; the first batch is the updated arm's.
      const first = t.arms.updated[0]!;
      expect(first.menuSize).toBe(15);
      expect(first.space.length).toBeLessThanOrEqual(2);
      expect(t.arms.frozen.every((x) => JSON.stringify(x.space) === JSON.stringify(first.space))).toBe(true);
      // Later batches of the updated arm explore without a cap (ε = 1): its space plus other tools, up to 6.
      expect(t.arms.updated.slice(1).every((x) => x.explored === 1 && x.menuSize === 6)).toBe(true);
      expect(t.arms.frozen.slice(1).every((x) => x.explored === 0)).toBe(true);
      // The capped arm's first batch sees 4 registry tools; later requests explore (ε = 1) up to the cap.
      const capped = t.arms.capped!;
      expect(capped[0]!.menuSize).toBe(4);
      expect(capped.slice(1).every((x) => x.explored === 1 && x.menuSize === 4)).toBe(true);
      // Prompt tokens: the small spaces cost less than the registry.
      expect(t.arms.updated[2]!.served.promptTokens).toBeLessThan(keepAll[2]!.served.promptTokens);
    }
    // Credited accuracy: families not yet arrived count 0 over T = 2.
    const step1 = record.credited[0]!;
    expect(step1.arms['keep-all']).toBeCloseTo(a!.arms['keep-all'][0]!.eval.accuracy / 2, 12);
    const history = ProjectStore.open(out).readUpdates('compute_only')!;
    expect(history.batches.map((x) => x.label)).toEqual(['updated batch 1', 'updated batch 2', 'updated batch 3']);
    expect(history.batches.every((x) => x.accuracy !== undefined)).toBe(true);
    expect(c.out()).toMatch(/compute_only \(arrives at step 1\)\nbatch +step +keep-all +frozen +updated ε=1 +capped C=4 ε=1 +updated space/);
    expect(c.out()).toContain('credited accuracy A_t');
    // Table 12's prompt tokens: every served request, the explored ones included (2 later batches × 2 families).
    const cost = c.out().split('paper Table 12):\n')[1]!;
    expect(cost).toMatch(/^updated ε=1 +6 +4 +\d+$/m);
    expect(cost).toMatch(/^keep-all +6 +0 +\d+$/m);
    const tokens = (arm: string) => Number(new RegExp(`^${arm} .* (\\d+)$`, 'm').exec(cost)![1]);
    expect(tokens('updated ε=1')).toBeLessThan(tokens('keep-all'));
    // Served one sequence a decode batch: the record says so and the History view's stream card has no caveat;
    // a stream recorded before that mark existed gets one.
    const store = ProjectStore.open(out);
    expect(record.decode).toBe('one-sequence');
    expect(taskHistory(store, 'compute_only').stream!.caveat).toBeNull();
    const { decode: _, ...before } = record;
    store.writeStream(before);
    expect(taskHistory(store, 'compute_only').stream!.caveat).toMatch(/^This run was served before 2026-12-07/);
    store.writeStream(record);
  });

  it('refuses a folder that is not new and a cap the registry does not allow', async () => {
    const c = capture();
    expect(await main(['bench', 'stream', '--model', 'fixture:random', '--out', join(dir, 's'), '--gpu', 'cpu'], c.io)).toBe(2);
    expect(c.err()).toMatch(/already exists and is not empty; give --out a new folder/);
    const d = capture();
    expect(await main(['bench', 'stream', '--model', 'fixture:random', '--out', join(dir, 'capbad'), '--gpu', 'cpu', '--cap', '15'], d.io)).toBe(2);
    expect(d.err()).toMatch(/--cap must be an integer between 1 and 14/);
  });

  it("gives each family its own budget: a sweep of its first batch by default, another project's sweeps with --budgets-from", async () => {
    const base = ['bench', 'stream', '--model', 'fixture:evidence-copy', '--gpu', 'cpu', '--families', 'compute_only,table_total'];
    const small = ['--batches', '2', '--batch-size', '2', '--eval', '1', '--epsilon', '0', '--max-tokens', '4', '--threads', '1'];
    const fitted = join(dir, 'fitted');
    const c = capture();
    expect(await main([...base, '--out', fitted, ...small], c.io), c.err()).toBe(0);
    const store = ProjectStore.open(fitted);
    const record = store.readStream()!;
    expect(record.options.rule).toBeUndefined();
    expect(record.options.budgets).toEqual({ source: 'sweep' });
    const ks: Record<string, number> = {};
    for (const t of record.tasks) {
      // The family's sweep on its first batch (K = 1…|A_t| on those 2 requests) is stored; its bestK is the rule.
      const sweep = store.readSweep(t.task)!;
      expect(sweep.points.map((p) => p.k)).toEqual(sweep.points.map((_, i) => i + 1));
      expect(sweep.points.every((p) => p.n === 2)).toBe(true);
      expect(t.rule).toEqual({ kind: 'topk', k: sweep.bestK });
      ks[t.task] = sweep.bestK!;
      expect(t.arms.updated.every((b) => b.space.length <= sweep.bestK!)).toBe(true);
      expect(store.readUpdates(t.task)!.rule).toEqual({ kind: 'topk', k: sweep.bestK });
      expect(c.out()).toContain(`${t.task}: budget K = ${sweep.bestK} from its sweep on batch 1`);
      expect(c.out()).toContain(`${t.task} (arrives at step ${t.arrival}; K = ${sweep.bestK})`);
    }
    expect(c.out()).toContain("top-K at each family's budget, from a sweep of its first batch");

    // Another stream takes the budgets of those sweeps, and sweeps nothing itself.
    const reused = join(dir, 'reused');
    const d = capture();
    expect(await main([...base, '--out', reused, ...small, '--budgets-from', fitted], d.io), d.err()).toBe(0);
    const again = ProjectStore.open(reused);
    expect(again.readStream()!.options.budgets).toEqual({ source: 'project', from: fitted });
    expect(Object.fromEntries(again.readStream()!.tasks.map((t) => [t.task, t.rule]))).toEqual(
      Object.fromEntries(Object.entries(ks).map(([task, k]) => [task, { kind: 'topk', k }])),
    );
    expect(again.readSweep('compute_only')).toBeUndefined();
    expect(d.out()).not.toContain('from its sweep on batch 1');

    // A project without a sweep for a family is refused before any model is loaded.
    const e = capture();
    expect(await main([...base, '--out', join(dir, 'nobudget'), ...small, '--budgets-from', join(dir, 's')], e.io)).toBe(2);
    expect(e.err()).toMatch(/has no budget sweep for compute_only, table_total .*lots sweep --project/);
    const f = capture();
    expect(await main([...base, '--out', join(dir, 'both'), '--k', '2', '--budgets-from', fitted], f.io)).toBe(2);
    expect(f.err()).toMatch(/--budgets-from gives each family its top-K budget; it does not go with --k/);
  });

  it("--preset figure15 runs D.5's protocol: eight batches, the support rule at α = 0.2 and threshold 5%, no exploration", async () => {
    const out = join(dir, 'fig15');
    const c = capture();
    const args = ['bench', 'stream', '--preset', 'figure15', '--model', 'fixture:evidence-copy', '--gpu', 'cpu', '--max-tokens', '4', '--threads', '1'];
    // Families and batch sizes overridden to keep the test short; everything else is the preset's.
    expect(await main([...args, '--out', out, '--families', 'compute_only', '--batch-size', '1', '--eval', '1'], c.io), c.err()).toBe(0);
    const record = ProjectStore.open(out).readStream()!;
    expect(record.options).toMatchObject({
      preset: 'figure15',
      families: ['compute_only'],
      batches: 8,
      batchSize: 1,
      registry: 15,
      alpha: 0.2,
      epsilon: 0,
      rule: { kind: 'support', tau: 0.05, phi: 0.05 },
    });
    expect(record.options.budgets).toBeUndefined();
    const t = record.tasks[0]!;
    expect(t.arms.updated).toHaveLength(8);
    expect(t.arms.updated.every((b) => b.explored === 0)).toBe(true);
    expect(ProjectStore.open(out).readUpdates('compute_only')!).toMatchObject({ alpha: 0.2, rule: { kind: 'support', tau: 0.05, phi: 0.05 } });
    expect(c.out()).toContain('α = 0.2, support: share of requests with I > 0.05 ≥ 0.05');
    const d = capture();
    expect(await main([...args, '--out', join(dir, 'fig15k'), '--k', '2'], d.io)).toBe(2);
    expect(d.err()).toMatch(/--k is the budget of the top-K rule; the support rule \(the figure15 preset's\) has none: add --rule topk/);
  });
});
