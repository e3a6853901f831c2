// `lots bench bfcl --diagnostic` end to end on the official package (provisioned once into the cached
// venv by the command itself): the gold sequences pass the official checker, the report has the four
// classes, and the gold traces it writes are canonical traces `lots import` takes.
import { readFileSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli, tempDir } from './io';
import { describeRequiring } from '../describe-requiring';
import { randomChatModel } from '../engine/fixtures';

const tmp = tempDir('lots-bfcl-');
afterAll(() => tmp.cleanup());

describe('lots bench bfcl', () => {
  it('names an unknown class and the classes there are', async () => {
    const r = await runCli(['bench', 'bfcl', '--classes', 'TradingBot,Robots']);
    expect(r.code).toBe(2);
    expect(r.err).toContain('--classes: unknown class Robots; the classes are GorillaFileSystem, TradingBot, TravelAPI, VehicleControlAPI');
  });

  it('has help naming the package, the protocol and the rankings', async () => {
    const r = await runCli(['bench', 'bfcl', '--help']);
    expect(r.code).toBe(0);
    expect(r.out).toContain('usage: lots bench bfcl [--model default] [--preset quick|paper]');
    expect(r.out).toContain('lots-demote:');
    expect(r.out).toContain('bfcl-eval==2026.3.23');
    expect(r.out).toContain('bm25:');
    expect(r.out).toContain('fit-gold:');
  });

  it('rejects a budget that is not a whole number', async () => {
    const r = await runCli(['bench', 'bfcl', '--diagnostic', '--k', '4,x']);
    expect(r.code).toBe(2);
    expect(r.err).toContain('--k x: a budget is a whole number ≥ 1');
  });

  it('runs the diagnostic on the 200 records and writes gold traces lots import takes', async () => {
    const traces = `${tmp.dir}/gold.jsonl`;
    const r = await runCli(['bench', 'bfcl', '--diagnostic', '--skip-dense', '--k', '8,200', '--json', '--traces-out', traces]);
    expect(r.code, r.err).toBe(0);
    const report = JSON.parse(r.out) as {
      records: number;
      checkerPassed: number;
      classes: { cls: string; fit: string[]; evaluate: string[]; rankings: Record<string, { coverage: { k: number; calls: number; records: number }[] }> }[];
      dense: { skipped?: string };
    };
    expect(report.dense.skipped).toMatch(/--skip-dense/);
    expect(report.classes.every((c) => !('dense' in c.rankings))).toBe(true);
    expect(report.records).toBe(200);
    expect(report.checkerPassed).toBe(200);
    expect(report.classes.map((c) => [c.cls, c.fit.length, c.evaluate.length])).toEqual([
      ['GorillaFileSystem', 10, 40],
      ['TradingBot', 10, 40],
      ['TravelAPI', 10, 40],
      ['VehicleControlAPI', 10, 40],
    ]);
    for (const c of report.classes) {
      const bm25 = c.rankings.bm25!.coverage;
      expect(bm25.map((x) => x.k)).toEqual([8, 200]);
      // Every candidate documented: every gold call of the evaluation records is covered.
      expect(bm25[1]).toEqual({ k: 200, calls: 1, records: 1 });
      expect(bm25[0]!.calls).toBeLessThan(1);
    }
    const lines = readFileSync(traces, 'utf8').trim().split('\n');
    expect(lines).toHaveLength(200);
    const imported = await runCli(['import', traces, '--project', `${tmp.dir}/p`]);
    expect(imported.code, imported.err).toBe(0);
    expect(imported.out).toMatch(/200/);
  });
});

describe('lots bench bfcl --diagnostic --tool2vec', () => {
  it("adds Tool2Vec over every class's candidates, its queries written by the model once per function and kept for a rerun", async () => {
    const out = `${tmp.dir}/t2v`;
    const args = ['bench', 'bfcl', '--diagnostic', '--skip-dense', '--tool2vec', '--model', randomChatModel(), '--threads', '1', '--out', out, '--k', '1,200'];
    const r = await runCli([...args, '--json']);
    expect(r.code, r.err).toBe(0);
    const report = JSON.parse(r.out) as {
      tool2vec: { model: string; generated: number; reused: number };
      classes: { cls: string; candidates: number; rankings: Record<string, { order: string[]; coverage: { k: number; calls: number }[]; note?: string }> }[];
    };
    // One completion per distinct function: the classes share their companions (TwitterAPI, MathAPI, …).
    const kept = readFileSync(`${out}/tool2vec-queries.jsonl`, 'utf8').trim().split('\n');
    const candidates = report.classes.reduce((n, c) => n + c.candidates, 0);
    expect(report.tool2vec.generated).toBe(kept.length);
    expect(report.tool2vec.generated + report.tool2vec.reused).toBe(candidates);
    expect(report.tool2vec.reused).toBeGreaterThan(0);
    for (const c of report.classes) {
      const t2v = c.rankings.tool2vec!;
      // The whole ranking: every candidate once, so K = all covers every evaluation gold call.
      expect(new Set(t2v.order).size).toBe(c.candidates);
      expect(t2v.order.sort()).toEqual([...c.rankings.bm25!.order].sort());
      expect(t2v.coverage[1]).toMatchObject({ k: 200, calls: 1 });
      expect(t2v.note).toMatch(/queries for \d+ tools/);
    }
    expect(r.err).toMatch(/bfcl: TradingBot: Tool2Vec queries for 70\/70 candidates/);

    const again = await runCli(args);
    expect(again.code, again.err).toBe(0);
    expect(again.out).toMatch(new RegExp(`tool2vec: queries written by .* \\(0 written now, ${candidates} reused`));
    expect(again.out).toMatch(/TradingBot +70 +25 +tool2vec /);
    expect(readFileSync(`${out}/tool2vec-queries.jsonl`, 'utf8').trim().split('\n')).toHaveLength(kept.length);
  }, 300_000);
});

describeRequiring('sentence-encoder', 'lots bench bfcl with the sentence encoder', () => {
  it('adds the Dense ranking, embedded by the sentence encoder, to every class', async () => {
    const r = await runCli(['bench', 'bfcl', '--diagnostic', '--k', '200']);
    expect(r.code, r.err).toBe(0);
    expect(r.out).toMatch(/dense: embedded by .*all-minilm-l6-v2/);
    for (const cls of ['GorillaFileSystem', 'TradingBot', 'TravelAPI', 'VehicleControlAPI'])
      expect(r.out).toMatch(new RegExp(`${cls} +\\d+ +\\d+ +dense +100\\.0 / 100`));
  }, 300_000);
});

describeRequiring('real-model', 'lots bench bfcl served by the default real model', () => {
  it('serves, scores, fits and evaluates one class end to end, graded by the official checker, and a rerun resumes without serving again', async () => {
    const out = `${tmp.dir}/run`;
    const args = ['bench', 'bfcl', '--classes', 'TradingBot', '--fit', '1', '--eval', '1', '--max-steps', '1', '--max-tokens', '64', '--out', out];
    const r = await runCli([...args, '--json']);
    expect(r.code, r.err).toBe(0);
    const report = JSON.parse(r.out) as {
      settings: { fitPerClass: number; evalPerClass: number; budgets: number[]; maxSteps: number };
      classes: { cls: string; fit: string[]; evaluate: string[]; k: number; lots: { tool: string }[] }[];
      arms: { arm: string; records: number; meanFirstPromptTokens: number; paired?: unknown }[];
      cost: { scoredTraces: number };
    };
    expect(report.settings).toMatchObject({ fitPerClass: 1, evalPerClass: 1, budgets: [8], maxSteps: 1 });
    expect(report.classes.map((c) => [c.cls, c.fit, c.evaluate, c.k])).toEqual([['TradingBot', ['multi_turn_base_100'], ['multi_turn_base_110'], 8]]);
    expect(report.cost.scoredTraces).toBe(1);
    expect(report.arms.map((a) => [a.arm, a.records])).toEqual([
      ['keep-all', 1],
      ['lots-demote', 1],
      ['lots-prune', 1],
      ['bm25-demote', 1],
    ]);
    const arm = (name: string) => report.arms.find((a) => a.arm === name)!;
    expect(arm('keep-all').paired).toBeUndefined();
    expect(arm('lots-demote').paired).toBeDefined();
    // Demotion and pruning shorten the menu the model reads.
    expect(arm('bm25-demote').meanFirstPromptTokens).toBeLessThan(arm('keep-all').meanFirstPromptTokens);
    expect(arm('lots-prune').meanFirstPromptTokens).toBeLessThan(arm('lots-demote').meanFirstPromptTokens);
    const served = readFileSync(`${out}/records.jsonl`, 'utf8').trim().split('\n');
    expect(served).toHaveLength(5);
    expect(readFileSync(`${out}/scores.jsonl`, 'utf8').trim().split('\n')).toHaveLength(1);

    const again = await runCli(args);
    expect(again.code, again.err).toBe(0);
    expect(again.err).toContain('bfcl: resuming, 5 served records');
    expect(again.err).not.toMatch(/bfcl: (keep-all|lots-demote|fit\/keep-all) multi_turn/);
    expect(again.out).toMatch(/keep-all +0\/1|keep-all +1\/1/);
    expect(readFileSync(`${out}/records.jsonl`, 'utf8').trim().split('\n')).toHaveLength(5);
  }, 900_000);
});
