// Deferred tools in the single-step protocol (shared/benchmark/deferred.ts): listed after the menu, not run,
// asked for once with "RUN: <Tool>"; the LOTS pinned + deferred row; and the comparison loop that serves it.
import { describe, expect, it } from 'vitest';
import { baselineSpaces } from '../../../shared/benchmark/baselines';
import type { ComparisonRow } from '../../../shared/benchmark/comparison-table';
import { DEFERRED_HEADER, deferredRequest } from '../../../shared/benchmark/deferred';
import { deferredTable, formatDeferredTable } from '../../../shared/benchmark/deferred-table';
import { instantiate } from '../../../shared/benchmark/instance';
import { registryDefs } from '../../../shared/benchmark/registry';
import { compareSpaces, type MenuEvaluator } from '../../../shared/benchmark/sweep';
import { buildBenchTrace, reexecuteWithout } from '../../../shared/benchmark/trace';
import { defaultDeferred } from '../../../shared/lots/space-draft';
import { BaselineResultSchema } from '../../../shared/project/sweeps';
import { DEFAULT_BASELINES } from '../../../shared/selection/registry';
import { deferredHint, renderedSystem, systemWithInlineMenu } from '../../../shared/trace/render-hints';

describe('a request for deferred tools', () => {
  const deferred = ['Calculator', 'TableQuery', 'UnitConvert'];
  it('names deferred tools after RUN, in the list spelling and order, case and punctuation aside', () => {
    expect(deferredRequest('RUN: Calculator', deferred)).toEqual(['Calculator']);
    expect(deferredRequest('  run tablequery, calculator.', deferred)).toEqual(['Calculator', 'TableQuery']);
    expect(deferredRequest('RUN: "UnitConvert"; RUN: Calculator', deferred)).toEqual(['Calculator', 'UnitConvert']);
  });
  it('is not one when the reply is an answer, names no deferred tool, or asks for a pinned one', () => {
    expect(deferredRequest('4818.69', deferred)).toBeUndefined();
    expect(deferredRequest('The answer is 12. RUN: Calculator', deferred)).toBeUndefined();
    expect(deferredRequest('RUN: GoogleSearch', deferred)).toBeUndefined();
    expect(deferredRequest('RUN:', deferred)).toBeUndefined();
    expect(deferredRequest('RUN: Calculator', [])).toBeUndefined();
  });
});

describe('a benchmark request served with deferred tools', () => {
  const instance = instantiate('0', 'table_total', 3);
  const trace = buildBenchTrace(instance, { menu: ['TableQuery'], deferred: ['Calculator', 'Barcode', 'TableQuery'], registry: 15, split: 'eval' });

  it('runs only the menu: the deferred tools get no line, and a menu tool is never listed as deferred', () => {
    expect(trace.turns[0]!.steps).toEqual([{ kind: 'lines', lines: [expect.objectContaining({ tool: 'TableQuery' })] }]);
    expect(deferredHint(trace)?.tools.map((t) => t.name)).toEqual(['Barcode', 'Calculator']);
  });

  it('lists them after the menu, under the line that says how to ask, with the compact few words', () => {
    const system = systemWithInlineMenu(trace);
    expect(system).toContain(
      `Tools:\n- TableQuery: rows of a data table\n\n${DEFERRED_HEADER}\n- Barcode: decodes an EAN-13 barcode\n- Calculator: evaluates arithmetic on earlier outputs`,
    );
    expect(renderedSystem(trace)).toBe(system);
  });

  it('keeps the deferred list under the verbose prompt too (in the system text, the menu in the template)', () => {
    const verbose = buildBenchTrace(instance, { menu: ['TableQuery'], deferred: ['Calculator'], registry: 15, split: 'eval', prompt: 'verbose' });
    expect(renderedSystem(verbose)).toMatch(new RegExp(`\\n\\n${DEFERRED_HEADER.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\n- Calculator: `));
  });

  it('renders as before without deferred tools (no render hint, the same system text)', () => {
    const plain = buildBenchTrace(instance, { menu: ['TableQuery'], registry: 15, split: 'eval' });
    expect(plain.meta?.render).toEqual({ menu: 'inline' });
    expect(deferredHint(plain)).toBeUndefined();
    expect(renderedSystem(plain)).toBe(systemWithInlineMenu(plain));
  });

  it('re-executes like any benchmark trace (the scorer removes a run tool; the deferred list stays)', () => {
    const served = buildBenchTrace(instance, { menu: ['TableQuery', 'Calculator'], deferred: ['Barcode'], registry: 15, split: 'eval' });
    const without = reexecuteWithout(served, 0, 'TableQuery');
    expect(without.turns[0]!.steps[0]).toMatchObject({ kind: 'lines', lines: [{ tool: 'Calculator', output: expect.stringContaining('NameError') }] });
    expect(deferredHint(without)?.tools.map((t) => t.name)).toEqual(['Barcode']);
  });
});

describe('LOTS pinned + deferred', () => {
  const registry = registryDefs('s', 15);
  const space = ['TableQuery', 'Calculator'];
  const observed = ['TableQuery', 'Calculator', 'GoogleSearch', 'Barcode', 'Summarize'];
  async function select(extra: { observed?: string[] } = {}) {
    const [s] = await baselineSpaces({ task: 'table_total', registry, k: 2, space, fittingRequests: [], seed: 's', names: ['lots-deferred'], ...extra });
    return s!;
  }
  it("pins LOTS's space and defers the task's other scored tools, as the space proposal does", async () => {
    const s = await select({ observed });
    expect(s).toMatchObject({ name: 'lots-deferred', k: 2, menus: [space], deferred: defaultDeferred(observed, space) });
    expect(s.deferred).toEqual(['GoogleSearch', 'Barcode', 'Summarize']);
    expect(s.note).toBeUndefined();
  });
  it('defers every other registry tool when no scores were read, and says so', async () => {
    const s = await select();
    expect(s.deferred).toHaveLength(13);
    expect(s.note).toContain('no scores were read');
  });
  it('is a reference row: not among the default baselines', () => {
    expect(DEFAULT_BASELINES).not.toContain('lots-deferred');
  });
});

describe('the comparison loop with a deferred list', () => {
  it('serves the list with the menu, records it with the requests that asked, and reuses it only for the same list', async () => {
    const calls: { menu: readonly string[]; deferred?: readonly string[] }[] = [];
    const evaluate: MenuEvaluator = async (menu, _split, _signal, deferred) => {
      calls.push({ menu, ...(deferred ? { deferred } : {}) });
      return {
        accuracy: 0.5,
        n: 2,
        promptTokens: 100,
        outcomes: [
          { request: 'a', correct: true, promptTokens: 150, ...(deferred ? { called: ['Calculator'] } : {}) },
          { request: 'b', correct: false, promptTokens: 50 },
        ],
      };
    };
    const spaces = [
      { name: 'lots', k: 1, menus: [['TableQuery']] },
      { name: 'lots-deferred', k: 1, menus: [['TableQuery']], deferred: ['Calculator', 'Barcode'] },
    ];
    const results = await compareSpaces({ spaces, splits: ['eval'], evaluate, requireOutcomes: true });
    expect(calls).toEqual([{ menu: ['TableQuery'] }, { menu: ['TableQuery'], deferred: ['Calculator', 'Barcode'] }]);
    const row = results.find((r) => r.name === 'lots-deferred')!;
    expect(row).toMatchObject({ deferred: ['Calculator', 'Barcode'], deferredCalls: 1 });
    expect(row.outcomes![0]!.called).toEqual(['Calculator']);
    expect(results.find((r) => r.name === 'lots')!.deferred).toBeUndefined();
    // What is stored parses back with the list and the calls.
    expect(BaselineResultSchema.parse(JSON.parse(JSON.stringify(row)))).toEqual(row);

    calls.length = 0;
    await compareSpaces({ spaces, splits: ['eval'], evaluate, previous: results, requireOutcomes: true });
    expect(calls).toEqual([]);
    await compareSpaces({ spaces: [{ ...spaces[1]!, deferred: ['Calculator'] }], splits: ['eval'], evaluate, previous: results, requireOutcomes: true });
    expect(calls).toEqual([{ menu: ['TableQuery'], deferred: ['Calculator'] }]);
  });
});

describe('the pinned + deferred table', () => {
  const outcome = (request: string, correct: number, promptTokens: number, called?: string[]) => ({
    request,
    correct,
    promptTokens,
    ...(called ? { called } : {}),
  });
  const result = (name: string, outcomes: ReturnType<typeof outcome>[]) => ({
    name,
    k: 1,
    tools: ['A'],
    accuracy: outcomes.reduce((a, o) => a + o.correct, 0) / outcomes.length,
    n: outcomes.length,
    promptTokens: outcomes.reduce((a, o) => a + o.promptTokens, 0) / outcomes.length,
    split: 'eval' as const,
    outcomes,
  });
  const ids = Array.from({ length: 10 }, (_, i) => `r${i}`);
  const row = (task: string, deferredRight: number[], called: Record<number, string[]>): ComparisonRow => ({
    task,
    k: 1,
    space: ['A'],
    results: new Map([
      [
        'lots',
        {
          eval: result(
            'lots',
            ids.map((id, i) => outcome(id, i < 5 ? 1 : 0, 100)),
          ),
        },
      ],
      [
        'keep-all',
        {
          eval: result(
            'keep-all',
            ids.map((id) => outcome(id, 0, 400)),
          ),
        },
      ],
      [
        'lots-deferred',
        {
          eval: result(
            'lots-deferred',
            ids.map((id, i) => outcome(id, deferredRight.includes(i) ? 1 : 0, called[i] ? 260 : 130, called[i])),
          ),
        },
      ],
    ]),
  });

  it('counts the requests that asked, what they asked for and how many were then right, and pairs the row with top-K only and keep-all', () => {
    // t1: the five LOTS got right, plus two that asked and were then right; t2: two right fewer, one asked in vain.
    const table = deferredTable([row('t1', [0, 1, 2, 3, 4, 5, 6], { 5: ['B'], 6: ['B', 'C'] }), row('t2', [0, 1, 2], { 9: ['B'] })])!;
    expect(table.families.map((f) => [f.task, f.n, f.asked, f.rightAfterAsking, Object.fromEntries(f.tools)])).toEqual([
      ['t1', 10, 2, 2, { B: 2, C: 1 }],
      ['t2', 10, 1, 0, { B: 1 }],
    ]);
    expect(table.againstTopK!.families.map((f) => f.result.difference)).toEqual([0.2, -0.2]);
    expect(table.againstTopK!.families[0]!.result.discordant).toEqual({ aOnly: 2, bOnly: 0 });
    expect(table.againstKeepAll!.pooled.difference).toBeCloseTo(0.5);
    expect(table.families[0]!.promptTokens).toEqual({ deferred: 156, topK: 100, keepAll: 400 });
    const text = formatDeferredTable(table);
    expect(text).toMatch(/\nt1\s+2\/10\s+2\s+B ×2, C ×1\s+\+0\.20 \[[^\]]+\] p=0\.50\s+\+0\.70 \[[^\]]+\] p=0\.02\s+156\/100\/400/);
    expect(text).toMatch(/\npooled\s+3\/20\s+2\s+B ×3, C ×1\s+\+0\.00 /);
  });

  it('is absent when the run has no pinned + deferred results', () => {
    expect(deferredTable([{ ...row('t1', [], {}), results: new Map([['lots', {}]]) }])).toBeUndefined();
  });
});
