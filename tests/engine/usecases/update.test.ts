// `lots update` on an imported (non-benchmark) project: each import is a batch; scored batches fold into
// the running scores by EMA, the rule proposes the next space, and nothing is applied before approval.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ProjectStore } from '../../../electron/engine/store';
import type { Trace } from '../../../shared/trace/schema';
import { jsonl, runCli, tempDir } from '../../cli/io';

const tmp = tempDir('lots-update-');
afterAll(() => tmp.cleanup());

const tools = ['Calculator', 'DocRetrieve', 'ExchangeRate', 'WebSearch'].map((name) => ({ name, description: `the ${name} tool` }));
const trace = (id: string): Trace => ({ v: 1, id, task: 'fx', tools, turns: [{ request: `request ${id}`, steps: [], answer: '42' }] });
const row = (trace: string, scores: Record<string, number>) => ({ trace, task: 'fx', exposed: tools.map((t) => t.name), scores });

let project: string;
const importBatch = async (name: string, ids: string[]) => {
  const file = join(tmp.dir, name);
  writeFileSync(file, jsonl(ids.map(trace)));
  const r = await runCli(['import', file, '--project', project]);
  expect(r.code, r.err).toBe(0);
};
const importScores = async (name: string, rows: unknown[]) => {
  const r = await runCli(['scores', 'import', tmp.file(name, jsonl(rows)), '--project', project, '--run', 'import:prod']);
  expect(r.code, r.err).toBe(0);
};
const update = async (...flags: string[]) => {
  const r = await runCli(['update', '--project', project, '--json', ...flags]);
  return { ...r, json: r.out ? JSON.parse(r.out) : undefined };
};

beforeAll(async () => {
  project = join(tmp.dir, 'proj');
  ProjectStore.create(project);
  await importBatch('monday.jsonl', ['m1', 'm2']);
  await importScores('monday-scores.jsonl', [
    row('m1', { Calculator: 0.4, DocRetrieve: 0.0, ExchangeRate: 0.8, WebSearch: 0.1 }),
    row('m2', { Calculator: 0.2, DocRetrieve: 0.1, ExchangeRate: 0.6, WebSearch: -0.1 }),
  ]);
});

describe('lots update', () => {
  it('folds the first batch, proposes the top-K and applies nothing', async () => {
    const r = await update('--k', '2', '--alpha', '0.25');
    expect(r.code, r.err).toBe(0);
    const fx = r.json.tasks.fx;
    expect(fx).toMatchObject({ run: 'import:prod', alpha: 0.25, rule: { kind: 'topk', k: 2 }, folded: [1], waiting: [], applied: false, approved: null });
    expect(fx.batches[0].source).toBe('0001.jsonl');
    expect(fx.batches[0].running.ExchangeRate).toBeCloseTo(0.7, 12);
    expect(fx.batches[0].running.Calculator).toBeCloseTo(0.3, 12);
    expect(fx.proposal).toEqual(['ExchangeRate', 'Calculator']);
    const store = ProjectStore.open(project);
    expect(store.readSpaces('fx').versions).toEqual([]); // proposed, not applied
    expect(store.readUpdates('fx')?.batches).toHaveLength(1);
  });

  it('a new import waits until it is scored, then folds by EMA with the stored α and rule', async () => {
    const store = ProjectStore.open(project);
    store.acceptSpace({
      task: 'fx',
      tools: ['ExchangeRate', 'Calculator'],
      pinned: [],
      banned: [],
      rule: { kind: 'topk', k: 2 },
      note: 'approved from batch 1',
    });
    await importBatch('tuesday.jsonl', ['t1', 't2']);
    const waiting = await update();
    expect(waiting.code).toBe(1);
    expect(waiting.json.tasks.fx.waiting).toEqual([{ source: '0002.jsonl', traces: 2 }]);
    expect(waiting.json.tasks.fx.folded).toEqual([]);

    await importScores('tuesday-scores.jsonl', [
      row('t1', { Calculator: 0.0, DocRetrieve: 0.9, ExchangeRate: 0.6 }),
      row('t2', { Calculator: 0.2, DocRetrieve: 0.7, ExchangeRate: 0.6 }),
    ]);
    const r = await update();
    expect(r.code, r.err).toBe(0);
    const fx = r.json.tasks.fx;
    expect(fx.folded).toEqual([2]);
    expect(fx.alpha).toBe(0.25);
    const b2 = fx.batches[1];
    expect(b2.batchMeans.DocRetrieve).toBeCloseTo(0.8, 12);
    expect(b2.running.DocRetrieve).toBeCloseTo(0.25 * 0.8 + 0.75 * 0.05, 12); // 0.2375
    expect(b2.running.Calculator).toBeCloseTo(0.25 * 0.1 + 0.75 * 0.3, 12); // 0.25
    expect(b2.running.ExchangeRate).toBeCloseTo(0.25 * 0.6 + 0.75 * 0.7, 12);
    expect(b2.running.WebSearch).toBe(0); // not scored by batch 2: kept (0.1 and -0.1 averaged to 0)
    expect(fx.proposal).toEqual(['ExchangeRate', 'Calculator']); // Calculator 0.25 still above DocRetrieve 0.2375
    expect(fx.diff).toEqual({ added: [], removed: [], kept: ['ExchangeRate', 'Calculator'] });
    expect(fx.approved.version).toBe(0);
  });

  it('the support rule folds the history again and proposes from running support', async () => {
    const r = await update('--rule', 'support', '--phi', '0.6');
    expect(r.code, r.err).toBe(0);
    const fx = r.json.tasks.fx;
    expect(fx.refolded).toBe(true);
    expect(fx.folded).toEqual([1, 2]);
    // share of requests with I > 0: batch 1 Calc 1, Doc 0.5, FX 1, Web 0.5; batch 2 Calc 0.5, Doc 1, FX 1
    expect(fx.batches[1].runningSupport).toEqual({ Calculator: 0.875, DocRetrieve: 0.625, ExchangeRate: 1, WebSearch: 0.5 });
    expect(fx.proposal).toEqual(['ExchangeRate', 'Calculator', 'DocRetrieve']);
    expect(fx.diff.added).toEqual(['DocRetrieve']);
    expect(ProjectStore.open(project).readSpaces('fx').versions).toHaveLength(1); // still only the operator's approval
  });

  it('prints the history with entering tools and the cut, and says nothing was applied', async () => {
    const r = await runCli(['update', '--project', project, '--rule', 'topk', '--k', '2']);
    expect(r.code, r.err).toBe(0);
    expect(r.out).toContain('task fx: run import:prod, α = 0.25, rule top-2 — history folded again: the rule changed');
    expect(r.out).toMatch(/batch 1 {2}0001\.jsonl \(monday\.jsonl\) {2}2\/2 scored {2}→ 2 tools: ExchangeRate, Calculator/);
    expect(r.out).toMatch(/\+ ExchangeRate entered \(running 0\.700 ≥ cut 0\.300\)/);
    expect(r.out).toContain('not applied');
    expect(r.out).toContain('against approved v0: no change');
  });

  it('refuses bad input with what to do', async () => {
    const bad = await runCli(['update', '--project', project, '--alpha', '1.5']);
    expect(bad.code).toBe(2);
    expect(bad.err).toMatch(/--alpha must be in \(0, 1\]/);
    const rule = await runCli(['update', '--project', project, '--rule', 'magic']);
    expect(rule.code).toBe(2);
    expect(rule.err).toMatch(/--rule must be one of topk, support/);
    const task = await runCli(['update', '--project', project, '--task', 'nope']);
    expect(task.code).toBe(2);
    expect(task.err).toMatch(/no task "nope" in .*; tasks: "fx"/);
  });
});

describe('lots compare', () => {
  it('compares two runs of the same task (τ, top-K overlap, movers) and lists runs without --runs', async () => {
    const other = [
      row('m1', { Calculator: 0.9, DocRetrieve: 0.1, ExchangeRate: 0.2, WebSearch: 0.0 }),
      row('m2', { Calculator: 0.7, DocRetrieve: 0.3, ExchangeRate: 0.4, WebSearch: -0.2 }),
    ];
    const imp = await runCli(['scores', 'import', tmp.file('model-b.jsonl', jsonl(other)), '--project', project, '--run', 'import:model-b']);
    expect(imp.code, imp.err).toBe(0);
    const list = await runCli(['compare', '--project', project]);
    expect(list.code).toBe(0);
    expect(list.out).toContain('A = import:prod');
    const r = await runCli(['compare', '--project', project, '--runs', 'import:prod,import:model-b', '--k', '2', '--json']);
    expect(r.code, r.err).toBe(0);
    const fx = JSON.parse(r.out).tasks.fx;
    // A (prod, 4 rows): FX 0.65, Calc 0.2, Doc 0.425, Web 0 → FX > Doc > Calc > Web; B: Calc 0.8 > FX 0.3 > Doc 0.2 > Web -0.1
    expect(fx.common).toBe(4);
    expect(fx.topKA).toEqual(['ExchangeRate', 'DocRetrieve']);
    expect(fx.topKB).toEqual(['Calculator', 'ExchangeRate']);
    expect(fx.topKOverlap).toBe(0.5);
    expect(fx.tau).toBeCloseTo(1 / 3, 12); // concordant: FX-Doc, FX-Web, Doc-Web, Calc-Web; discordant: FX-Calc, Doc-Calc
    expect(fx.moved[0]).toMatchObject({ tool: 'Calculator', rankA: 3, rankB: 1 });
    // Pooled over the (task, tool) scores (here one task's four): Pearson of (0.2, 0.425, 0.65, 0) against
    // (0.8, 0.2, 0.3, −0.1) is 0.182 (Python's statistics.correlation); Spearman of ranks (3, 2, 1, 4) and (1, 3, 2, 4) 0.4.
    const text = await runCli(['compare', '--project', project, '--runs', 'import:prod,import:model-b', '--k', '2']);
    expect(text.out).toContain('pooled over 4 (task, tool) scores: Pearson r 0.182, Spearman ρ 0.400; the top-2 sets are the same in 0 of 1 tasks');
    const bad = await runCli(['compare', '--project', project, '--runs', 'import:prod,nope']);
    expect(bad.code).toBe(2);
    expect(bad.err).toMatch(/run "nope" is not in this project; its runs are: import:prod, import:model-b/);
  });
});
