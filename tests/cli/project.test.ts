// `lots scores import/export`, `lots fit --project` and `lots export` against a real project folder.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ProjectStore } from '../../electron/engine/store';
import type { Trace } from '../../shared/trace/schema';
import { jsonl, runCli, tempDir } from './io';

const tmp = tempDir();
afterAll(() => tmp.cleanup());

const calc = {
  name: 'Calculator',
  description: 'Evaluate an expression',
  parameters: { type: 'object', properties: { expression: { type: 'string' } }, required: ['expression'] },
};
const doc = { name: 'DocRetrieve', description: 'Fetch a document' };
const rate = {
  name: 'ExchangeRate',
  description: 'Rate between two currencies',
  parameters: { type: 'object', properties: { from: { type: 'string' }, to: { type: 'string' } } },
};
const trace = (id: string, task: string | undefined, tools: Trace['tools']): Trace => ({
  v: 1,
  id,
  ...(task ? { task } : {}),
  tools,
  turns: [{ request: `request ${id}`, steps: [], answer: '42' }],
});

const rows = [
  {
    trace: 'r1',
    task: 'fx',
    exposed: ['Calculator', 'DocRetrieve', 'ExchangeRate', 'Ghost'],
    scores: { Calculator: 0.4, DocRetrieve: 0.2, ExchangeRate: 0.6 },
  },
  { trace: 'r2', task: 'fx', exposed: ['Calculator', 'DocRetrieve', 'ExchangeRate'], scores: { Calculator: 0.2, DocRetrieve: -0.1, ExchangeRate: 0.5 } },
  { trace: 'r3', exposed: ['Calculator', 'Ghost'], scores: { Calculator: 0.3, Ghost: 0.9 } }, // task from the project's trace
  { trace: 'x1', task: 'other', exposed: ['Calculator'], scores: { Calculator: 0.1 } }, // no trace in the project
];

let project: string;
let scoresFile: string;

beforeAll(() => {
  project = join(tmp.dir, 'proj');
  const store = ProjectStore.create(project);
  store.addTraces(
    [
      trace('r1', 'fx', [{ ...calc, description: 'old description' }, doc, rate, { name: 'Ghost' }]),
      trace('r2', 'fx', [calc, doc, rate]),
      trace('r3', 'fx', [calc]), // Ghost has a definition only on r1's menu
    ],
    'test',
  );
  scoresFile = tmp.file('scores.jsonl', jsonl(rows));
});

describe('lots scores import / export', () => {
  it('imports every valid line (exit 0) and skips them on a second import', async () => {
    const first = await runCli(['scores', 'import', scoresFile, '--project', project]);
    expect(first.code).toBe(0);
    expect(first.out).toContain('imported 4 score records');
    expect(first.out).toContain('run "import:scores.jsonl"');
    expect(first.err).toMatch(/1 record refers to a trace the project does not hold/);
    const again = await runCli(['scores', 'import', scoresFile, '--project', project]);
    expect(again.code).toBe(0);
    expect(again.out).toContain('imported 0 score records');
    expect(again.out).toContain('4 already present');
  });

  it('exports the rows in the exchange format, tasks filled from the traces', async () => {
    const r = await runCli(['scores', 'export', '--project', project]);
    expect(r.code).toBe(0);
    const back = r.out
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(back).toEqual([rows[0], rows[1], { ...rows[2], task: 'fx' }, rows[3]]);
    const out = join(tmp.dir, 'out', 'scores.jsonl');
    const w = await runCli(['scores', 'export', '--project', project, '--out', out]);
    expect(w.code).toBe(0);
    expect(
      readFileSync(out, 'utf8')
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l)),
    ).toEqual(back);
  });

  it('exit 1 when some lines are rejected, 2 when none is usable', async () => {
    const partial = tmp.file(
      'partial.jsonl',
      `${JSON.stringify({ trace: 'p1', task: 'fx', exposed: ['Calculator'], scores: { Calculator: 1 } })}\n{"trace":"p2","exposed":["A"],"scores":{"A":NaN}}\n`,
    );
    const p = await runCli(['scores', 'import', partial, '--project', project, '--run', 'second']);
    expect(p.code).toBe(1);
    expect(p.err).toContain(`${partial}:2: `);
    expect(p.out).toContain('imported 1 score record ');
    const none = tmp.file('none.jsonl', '{"trace":1}\n');
    const n = await runCli(['scores', 'import', none, '--project', project]);
    expect(n.code).toBe(2);
    expect(n.err).toMatch(/none\.jsonl:1: trace: /);
    const usage = await runCli(['scores', 'import', '--project', project]);
    expect(usage.code).toBe(2);
    const missingProject = await runCli(['scores', 'export', '--project', join(tmp.dir, 'nowhere')]);
    expect(missingProject.code).toBe(2);
    expect(missingProject.err).toContain('not a LOTS project');
    const unknownRun = await runCli(['scores', 'export', '--project', project, '--run', 'nope']);
    expect(unknownRun.code).toBe(2);
    expect(unknownRun.err).toContain('no scoring run "nope"');
  });
});

describe('lots fit --project', () => {
  it('gives the same result as --scores on the exported rows', async () => {
    const fromProject = await runCli(['fit', '--project', project, '--run', 'import:scores.jsonl', '--json']);
    expect(fromProject.code).toBe(0);
    const exported = tmp.file('exported.jsonl', (await runCli(['scores', 'export', '--project', project, '--run', 'import:scores.jsonl'])).out);
    const fromFile = await runCli(['fit', '--scores', exported, '--json']);
    expect(JSON.parse(fromProject.out)).toEqual(JSON.parse(fromFile.out));
    const fx = JSON.parse(fromProject.out).tasks.fx;
    expect(fx.ranking.map((x: { tool: string }) => x.tool)).toEqual(['Ghost', 'ExchangeRate', 'Calculator', 'DocRetrieve']);
    expect(fx.ranking.find((x: { tool: string }) => x.tool === 'Calculator').mean).toBeCloseTo(0.3, 12);
  });

  it('uses the latest run by default and says so', async () => {
    const r = await runCli(['fit', '--project', project, '--json']);
    expect(r.code).toBe(0);
    expect(r.err).toContain('using the latest scoring run "second"');
    expect(JSON.parse(r.out).tasks.fx.ranking).toHaveLength(1);
  });

  it('takes K from a stored budget sweep when --k is not given', async () => {
    ProjectStore.open(project).writeSweep({
      task: 'fx',
      model: 'm',
      points: [
        { k: 1, tools: ['Ghost'], accuracy: 0.5, n: 10, promptTokens: 100 },
        { k: 2, tools: ['Ghost', 'ExchangeRate'], accuracy: 0.9, n: 10, promptTokens: 120 },
      ],
      bestK: 2,
      baselines: [],
      createdAt: '2025-01-01T00:00:00Z',
    });
    const r = await runCli(['fit', '--project', project, '--run', 'import:scores.jsonl', '--json']);
    expect(JSON.parse(r.out).tasks.fx).toMatchObject({ k: 2, budgetSource: 'sweep', space: ['Ghost', 'ExchangeRate'] });
    const flagged = await runCli(['fit', '--project', project, '--run', 'import:scores.jsonl', '--json', '--k', '3']);
    expect(JSON.parse(flagged.out).tasks.fx).toMatchObject({ k: 3, budgetSource: 'flag' });
  });
});

describe('lots export', () => {
  const run = ['--run', 'import:scores.jsonl'];

  it('refuses a task with no approved space (never an empty allow-list); --proposed exports the proposal, marked', async () => {
    for (const format of ['mcp', 'names', 'space']) {
      const refused = await runCli(['export', '--project', project, '--task', 'fx', '--format', format, ...run]);
      expect(refused.code).toBe(2);
      expect(refused.out).toBe('');
      expect(refused.err).toContain('task "fx" has no approved space, so there is nothing to export (an empty allow-list would block every tool)');
      expect(refused.err).toContain('lots space approve');
    }
    const r = await runCli(['export', '--project', project, '--task', 'fx', '--format', 'names', '--proposed', ...run]);
    expect(r.code).toBe(0);
    expect(r.out).toBe('Ghost\nExchangeRate\n');
    expect(r.err).toContain('has no approved space yet; exporting the proposal (K = 2, the best K of its budget sweep');
    const space = JSON.parse((await runCli(['export', '--project', project, '--task', 'fx', '--format', 'space', '--proposed', ...run])).out);
    expect(space).toMatchObject({
      format: 'lots-space',
      task: 'fx',
      version: null,
      status: 'proposed',
      tools: ['Ghost', 'ExchangeRate'],
      deferred: ['Calculator', 'DocRetrieve'],
      rule: { kind: 'topk', k: 2 },
    });
    expect(space.scores.Ghost).toEqual({ mean: 0.9, n: 1 });
  });

  it('exports the latest approved version, with definitions from the latest menus', async () => {
    const store = ProjectStore.open(project);
    store.acceptSpace({ task: 'fx', tools: ['ExchangeRate'], pinned: [], banned: [], rule: { kind: 'topk', k: 1 }, note: 'first', run: 'import:scores.jsonl' });
    store.acceptSpace({
      task: 'fx',
      tools: ['ExchangeRate', 'Calculator'],
      pinned: [],
      banned: ['Ghost'],
      rule: { kind: 'manual' },
      note: 'ghost is a stub',
      run: 'import:scores.jsonl',
    });
    const openai = await runCli(['export', '--project', project, '--task', 'fx', '--format', 'openai']);
    expect(openai.code).toBe(0);
    expect(openai.err).toBe('');
    expect(JSON.parse(openai.out)).toEqual([
      { type: 'function', function: { name: rate.name, description: rate.description, parameters: rate.parameters } },
      { type: 'function', function: { name: calc.name, description: calc.description, parameters: calc.parameters } },
    ]);
    const anthropic = JSON.parse((await runCli(['export', '--project', project, '--task', 'fx', '--format', 'anthropic'])).out);
    expect(anthropic[1]).toEqual({ name: 'Calculator', description: 'Evaluate an expression', input_schema: calc.parameters });
    const mcp = JSON.parse((await runCli(['export', '--project', project, '--task', 'fx', '--format', 'mcp'])).out);
    // Accepted without `deferred` (as versions were before the third state): nothing deferred.
    expect(mcp).toEqual({ task: 'fx', version: 1, names: 'as-recorded', allowedTools: ['ExchangeRate', 'Calculator'], deferredTools: [] });
    const space = JSON.parse((await runCli(['export', '--project', project, '--task', 'fx', '--format', 'space'])).out);
    expect(space).toMatchObject({ version: 1, status: 'approved', note: 'ghost is a stub', rule: { kind: 'manual' } });
  });

  it('writes an HTML report to --out', async () => {
    const out = join(tmp.dir, 'report', 'fx.html');
    const r = await runCli(['export', '--project', project, '--task', 'fx', '--format', 'report', '--out', out]);
    expect(r.code).toBe(0);
    expect(existsSync(out)).toBe(true);
    const html = readFileSync(out, 'utf8');
    expect(html).toContain('approved version 1');
    expect(html).toContain('ghost is a stub');
    expect(html.match(/<svg /g)).toHaveLength(2); // ranking bars + budget curve (sweep + surrogate)
    expect(r.err).toContain(`to ${out}`);
  });

  it('names a kept tool without a definition, an unknown task, a bad format (exit 2)', async () => {
    ProjectStore.open(project).acceptSpace({ task: 'other', tools: ['Calculator', 'Nowhere'], pinned: [], banned: [], rule: { kind: 'manual' }, note: 'x' });
    const missing = await runCli(['export', '--project', project, '--task', 'other', '--format', 'openai']);
    expect(missing.code).toBe(2);
    // Definitions come from the task's own traces: "other" has none, so Calculator (defined only on fx's
    // menus) is missing too.
    expect(missing.err).toContain('no definition for "Calculator", "Nowhere"');
    expect(missing.out).toBe('');
    const names = await runCli(['export', '--project', project, '--task', 'other', '--format', 'names']);
    expect(names.out).toBe('Calculator\nNowhere\n');
    const unknown = await runCli(['export', '--project', project, '--task', 'nope', '--format', 'names']);
    expect(unknown.code).toBe(2);
    expect(unknown.err).toContain('no task "nope"');
    expect(unknown.err).toContain('"fx"');
    const format = await runCli(['export', '--project', project, '--task', 'fx', '--format', 'yaml']);
    expect(format.code).toBe(2);
    expect(format.err).toContain('--format must be one of');
    for (const r of [missing, unknown, format]) expect(r.err).not.toMatch(/unexpected error|\n\s+at /);
  });
});
