import { describe, expect, it } from 'vitest';
import type { DemoData } from '../../../shared/api/types';
import { accuracyChart, accuracyTokensChart, growthChart, meanKept, renderDemoReport, tokensChart } from '../../../shared/export/demo-report';
import { CURRENT_DECODE, decodeCaveat } from '../../../shared/project/run-record';
import { fixedKTable } from '../../../shared/benchmark/fixed-k-table';
import type { GrowthPoint } from '../../../shared/project/demo';
import type { BaselineResult } from '../../../shared/project/sweeps';
import { pairedTable } from '../../../shared/benchmark/paired-table';
import { costTable } from '../../../shared/benchmark/cost-table';

const cell = (accuracy: number, n: number, promptTokens: number) => ({ accuracy, n, promptTokens });

const data: DemoData = {
  record: null,
  methods: ['lots', 'keep-all', 'random'],
  tasks: [
    {
      task: 'table_total',
      k: 2,
      kept: ['TableQuery', 'Calculator'],
      chain: ['TableQuery', 'Calculator'],
      methods: {
        lots: { fit: cell(1, 2, 160), eval: cell(0.75, 4, 170) },
        'keep-all': { fit: cell(0.5, 2, 580), eval: cell(0.25, 4, 590) },
        random: { eval: { ...cell(0, 4, 90), accuracyStd: 0.1 } },
      },
    },
    { task: '<b>x</b>', k: 1, kept: ['GoogleSearch'], chain: [], methods: { lots: { eval: cell(0.25, 4, 100) }, 'keep-all': { eval: cell(0.75, 4, 600) } } },
  ],
  mean: {
    lots: { fit: cell(1, 2, 160), eval: cell(0.5, 8, 135) },
    'keep-all': { fit: cell(0.5, 2, 580), eval: cell(0.5, 8, 595) },
    random: { eval: cell(0, 4, 90) },
  },
};

const point = (registry: number, lots: number, all: number): GrowthPoint => ({
  registry,
  project: '.',
  families: ['table_total'],
  seconds: 1,
  methods: { lots: { accuracy: lots, n: 3, promptTokens: 150, tools: 2 }, 'keep-all': { accuracy: all, n: 3, promptTokens: registry * 30, tools: registry } },
});

/** A demo record of one family, without its time or seeds (each test adds what it is about). */
const RECORD = {
  v: 1 as const,
  model: '/m/q.gguf',
  modelName: 'q.gguf',
  modelHash: 'h',
  command: 'lots demo --out d',
  machine: '2 × cpu',
  startedAt: '2026-12-03T12:04:00.000Z',
  preset: { name: 'standard', families: ['table_total'], fit: 8, eval: 40, registry: 15, draws: 3, kMax: 4, seed: '0' },
  growth: [],
};

describe('demo charts and report', () => {
  it('the accuracy chart has one labelled bar per method and split, the summary in its label', () => {
    const svg = accuracyChart(data);
    expect(svg).toContain('aria-label="Accuracy per method on evaluation requests: LOTS 50%, Keep-all 50%, Random 0%"');
    expect(svg.match(/<rect [^>]*><title>/g)).toHaveLength(5); // lots fit+eval, keep-all fit+eval, random eval
    expect(svg).toContain('<title>LOTS, fitting: 100% of 2</title>');
  });

  it("keeps Table 9's fixed-K rankings out of the charts and the family table, in a table of their own with Random's draws", () => {
    const fixed: DemoData = {
      ...data,
      methods: ['lots', 'keep-all', 'lots-deferred', 'lots-k2', 'dense-k2', 'random-k2'],
      mean: {
        ...data.mean,
        'lots-deferred': { eval: cell(0.5, 8, 300) },
        'lots-k2': { eval: cell(0.5, 8, 120) },
        'dense-k2': { eval: cell(0.25, 8, 110) },
        'random-k2': { eval: cell(0, 8, 100) },
      },
    };
    for (const svg of [accuracyChart(fixed), tokensChart(fixed), accuracyTokensChart(fixed)]) {
      expect(svg).toContain('LOTS K=2');
      expect(svg).not.toMatch(/Dense K=2|Random K=2/);
    }
    // The longest label ("LOTS pinned + deferred", 22 characters) gets room: the bars start right of it.
    expect(accuracyChart(fixed)).toMatch(/<rect x="147"/);
    expect(accuracyChart(data)).toMatch(/<rect x="90"/);
    const outcomes = (correct: number[]) => correct.map((c, i) => ({ request: `r${i}`, correct: c, promptTokens: 100 }));
    const result = (name: string, correct: number[], draws?: number): BaselineResult => ({
      name,
      k: 2,
      tools: [],
      accuracy: correct.reduce((a, b) => a + b, 0) / correct.length,
      n: correct.length,
      promptTokens: 100,
      split: 'eval',
      outcomes: outcomes(correct),
      ...(draws ? { draws } : {}),
    });
    const rows = [
      {
        task: 'table_total',
        k: 3,
        space: [],
        results: new Map([
          ['lots-k2', { eval: result('lots-k2', [1, 1, 1, 0]) }],
          ['dense-k2', { eval: result('dense-k2', [0, 1, 0, 0]) }],
          ['random-k2', { eval: result('random-k2', [0, 0, 0, 0], 1) }],
        ]),
      },
    ];
    const html = renderDemoReport({ ...fixed, fixedK: fixedKTable(rows)! }, { projectName: 'p' });
    expect(html).toContain("<h2>Every ranking at the same K (the paper's Table 9)</h2>");
    expect(html).toMatch(/<tr><td>Dense<\/td><td class="num">25%<\/td><td class="num">—<\/td><td class="num[^"]*">\+0\.50/);
    expect(html).toContain('<td>Random (1 draw)</td>');
    const familyHead = /<thead><tr><th>Family<\/th>.*?<\/tr><\/thead>/.exec(html)![0];
    expect(familyHead).toContain('LOTS K=2');
    expect(familyHead).not.toContain('Dense K=2');
    expect(renderDemoReport(fixed, { projectName: 'p' })).not.toContain("the paper's Table 9");
  });

  it('the accuracy-against-tokens chart moves a label off another it would cover', () => {
    const crowded: DemoData = {
      ...data,
      methods: ['lots', 'keep-all', 'no-tools', 'random'],
      mean: { ...data.mean, 'no-tools': { eval: cell(0.04, 8, 61) }, random: { eval: cell(0.05, 8, 141) } },
    };
    const svg = accuracyTokensChart(crowded);
    const y = (label: string) => Number(new RegExp(`<text x="[\\d.]+" y="([\\d.]+)"[^>]*>${label}`).exec(svg)![1]);
    // No tools (61 tokens, 4%) and Random (141 tokens, 5%): 1 point apart in height, their labels would overlap.
    expect(Math.abs(y('No tools 4%') - y('Random 5%'))).toBeGreaterThanOrEqual(11);
    // LOTS, placed first, stays beside its point (50% → y = 12 + 0.5 × 180 = 102, label 4 below).
    expect(y('LOTS 50%')).toBe(106);
  });

  it('the tokens chart scales bars to the largest mean', () => {
    const svg = tokensChart(data);
    expect(svg).toContain('Prompt tokens per request: LOTS 135, Keep-all 595, Random 90');
    const widths = [...svg.matchAll(/<rect x="\d+" y="[\d.]+" width="([\d.]+)"/g)].map((m) => Number(m[1]));
    expect(Math.max(...widths)).toBe(widths[1]); // keep-all is the widest
  });

  it('the growth chart needs two sizes and names each point', () => {
    expect(growthChart([point(15, 0.6, 0.4)])).toBe('');
    const svg = growthChart([point(15, 0.6, 0.4), point(30, 0.6, 0.2), point(60, 0.5, 0.1)]);
    expect(svg).toContain(
      'Accuracy against registry size: 15 tools: keep-all 40%, LOTS 60%; 30 tools: keep-all 20%, LOTS 60%; 60 tools: keep-all 10%, LOTS 50%',
    );
    expect(svg).toContain('1800 / 150 tok');
  });

  it('the report marks a family whose K no fitting label chose, with the footnote, and only then', () => {
    const html = renderDemoReport({ ...data, tasks: data.tasks.map((t, i) => (i === 1 ? { ...t, kByDefault: true } : t)) }, { projectName: 'p' });
    expect(html).toMatch(/<tr><td>&lt;b&gt;x&lt;\/b&gt;<\/td><td class="num">1<sup title="No K answered a fitting request right[^"]*">\*<\/sup><\/td>/);
    expect(html).toContain('<p class="meta">* No K answered a fitting request right, so K is the rule’s default');
    expect(renderDemoReport(data, { projectName: 'p' })).not.toContain('No K answered');
  });

  it('the report escapes names, marks kept tools against the chain, and carries the mean row', () => {
    const html = renderDemoReport(data, { projectName: 'p&q' });
    expect(html).toContain('<title>LOTS demo — p&amp;q</title>');
    expect(html).toContain('<td>&lt;b&gt;x&lt;/b&gt;</td>');
    expect(html).not.toContain('<b>x</b>');
    expect(html).toContain('<span class="hit">TableQuery</span>');
    expect(html).toContain('<span class="miss">GoogleSearch</span>');
    expect(html).toContain('0.00±0.10');
    expect(html).toMatch(/<tr class="mean"><td>mean<\/td><td class="num">1\.5<\/td>/);
    expect(meanKept(data)).toBe(1.5);
    expect(html).toContain(
      'LOTS keeps 1.5 tools per task and answers 50% of 8 evaluation requests, against 50% with the whole registry, using 135 instead of 595 prompt tokens per request.',
    );
  });

  it('the provenance line gives the minutes, and says so when the run has not finished (a stopped demo keeps its record)', () => {
    const record = { ...RECORD, seconds: 3 * 3600 + 240 };
    expect(renderDemoReport({ ...data, record }, { projectName: 'p' })).toContain('q.gguf · 2 × cpu · 2026-12-03 · 3 h 4 min so far, not finished<br>');
    const done = renderDemoReport({ ...data, record: { ...record, finishedAt: '2026-12-03T15:28:00.000Z' } }, { projectName: 'p' });
    expect(done).toContain('q.gguf · 2 × cpu · 2026-12-03 · 3 h 4 min<br>');
    // A resume with another command (here: more seeds) is listed after the first, escaped.
    const resumed = renderDemoReport({ ...data, record: { ...record, resumedWith: ['lots demo --out d --seeds 3 --baselines a<b'] } }, { projectName: 'p' });
    expect(resumed).toContain('<code>lots demo --out d</code> then, resumed with: <code>lots demo --out d --seeds 3 --baselines a&lt;b</code><br>');
    // A run of several seeds: the headline says its figures are the first seed's, with the mean over all.
    const seed = (s: string, lots: number, all: number) => ({
      seed: s,
      project: '.',
      accuracy: { lots, 'keep-all': all },
      lotsMinus: { 'keep-all': { difference: lots - all, n: 8 } },
    });
    const seeded = renderDemoReport({ ...data, record: { ...record, seeds: [seed('0', 0.5, 0.5), seed('1', 0.7, 0.4)] } }, { projectName: 'p' });
    expect(seeded).toContain(
      'prompt tokens per request. That is seed 0; over the 2 seeds LOTS answers 60% ± 14% and keep-all 45% ± 7% (LOTS − keep-all +15 ± 21 points).</p>',
    );
  });

  it('says when a run, or which of its seeds, was served before the one-sequence decode, and nothing when every one was served with it', () => {
    const record = RECORD;
    const seed = (s: string, decode?: 'one-sequence') => ({
      seed: s,
      project: s === '0' ? '.' : `seeds/seed-${s}`,
      accuracy: { lots: 0.5 },
      lotsMinus: {},
      ...(decode ? { decode } : {}),
    });
    expect(decodeCaveat(record)).toMatch(/^This run was served before 2026-12-07, when the requests sharing a decode batch could change one another's replies/);
    expect(decodeCaveat({ ...record, decode: CURRENT_DECODE })).toBeUndefined();
    // Several seeds: the seeds' own marks count (a seed folder run on its own, then joined), not the first project's alone.
    expect(decodeCaveat({ ...record, decode: CURRENT_DECODE, seeds: [seed('0', CURRENT_DECODE), seed('1'), seed('2')] })).toMatch(
      /^Seeds 1 and 2 of this run were served before/,
    );
    expect(decodeCaveat({ ...record, seeds: [seed('0'), seed('1', CURRENT_DECODE)] })).toMatch(/^Seed 0 of this run was served before/);
    expect(decodeCaveat({ ...record, seeds: [seed('0'), seed('1'), seed('2')] })).toMatch(/^Every seed of this run was served before/);
    expect(decodeCaveat({ ...record, seeds: [seed('0', CURRENT_DECODE), seed('1', CURRENT_DECODE)] })).toBeUndefined();
    // The report shows it under the headline, escaped, and leaves it out where it does not apply.
    expect(renderDemoReport({ ...data, record }, { projectName: 'p' })).toContain(
      '<p class="caveat" data-testid="decode-caveat">This run was served before 2026-12-07',
    );
    expect(renderDemoReport({ ...data, record: { ...record, decode: CURRENT_DECODE } }, { projectName: 'p' })).not.toContain('class="caveat"');
  });

  it('the report carries the paired block and the cost of selection when the data has them, and neither when not', () => {
    expect(renderDemoReport(data, { projectName: 'p' })).not.toContain('Is the difference real?');
    const outcomes = (correct: number[]) => correct.map((c, i) => ({ request: `r${i}`, correct: c, promptTokens: 100 }));
    const result = (name: string, correct: number[], promptTokens: number, selection?: BaselineResult['selection']) => ({
      name,
      k: 2,
      tools: [],
      accuracy: correct.reduce((a, b) => a + b, 0) / correct.length,
      n: correct.length,
      promptTokens,
      split: 'eval' as const,
      outcomes: outcomes(correct),
      ...(selection ? { selection } : {}),
    });
    // Twelve requests: LOTS right on 9, keep-all on 3, discordant 7 (LOTS only) against 1.
    const lots = [1, 1, 1, 1, 1, 1, 1, 1, 1, 0, 0, 0];
    const all = [1, 1, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0];
    const rows = [
      {
        task: 'table_total',
        k: 2,
        space: ['A'],
        results: new Map([
          ['lots', { eval: result('lots', lots, 150, { per: 'fit', promptTokens: 44_000, calls: 30 }) }],
          ['keep-all', { eval: result('keep-all', all, 590) }],
        ]),
      },
    ];
    const html = renderDemoReport({ ...data, paired: pairedTable(rows), cost: costTable(rows) }, { projectName: 'p' });
    expect(html).toContain('<h2>Is the difference real? LOTS minus each baseline</h2>');
    // +0.50 with McNemar exact p = 2 × P(X ≤ 1 | 8, ½) = 2 × 9/256 = 0.0703, printed 0.07.
    expect(html).toMatch(
      /<tr><td>Keep-all<\/td><td class="num strong">\+0\.50<\/td><td class="num">\[\+0\.\d\d, \+0\.\d\d\]<\/td><td class="num">0\.07<\/td><td class="num">7 \/ 1<\/td>/,
    );
    // The per-family table, open in the report (it is printed).
    expect(html).toContain('<details open><summary>Per family</summary>');
    expect(html).toContain('<h2>The cost of selection</h2>');
    // N = 44,000 / (590 − 150) = 100 requests.
    expect(html).toMatch(
      /<td>LOTS<\/td><td class="num">1<\/td><td class="num">44,000 in 1 fit<\/td><td class="num">150<\/td><td class="num">590<\/td><td class="num">100 requests<\/td>/,
    );
  });
});
