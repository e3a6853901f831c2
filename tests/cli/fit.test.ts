// `lots fit --scores`: exit codes, file:line messages, the --json shape, usage errors without stack traces.
import { afterAll, describe, expect, it } from 'vitest';
import { jsonl, runCli, tempDir } from './io';

const tmp = tempDir();
afterAll(() => tmp.cleanup());

const good = [
  { trace: 'r1', task: 'fx', exposed: ['A', 'B', 'C'], scores: { A: 0.5, B: -0.1 } },
  { trace: 'r2', task: 'fx', exposed: ['A', 'B'], scores: { A: 0.3, B: 0.1 } },
  { trace: 'r3', task: 'fx', exposed: ['A', 'C', 'D'], scores: { C: 0.2, A: 0 } },
  { trace: 'r4', task: 'fx', exposed: ['B'], scores: { B: -0.3 } },
  { trace: 'q1', task: 'cal', exposed: ['X', 'Y'], scores: { X: 0.1, Y: 0.1 } },
];

function noStack(text: string) {
  expect(text).not.toMatch(/unexpected error|\n\s+at /);
}

describe('lots fit --scores', () => {
  it('prints exactly one JSON object with --json, exit 0', async () => {
    const file = tmp.file('good.jsonl', jsonl(good));
    const r = await runCli(['fit', '--scores', file, '--json', '--k', '2']);
    expect(r.code).toBe(0);
    expect(r.err).toBe('');
    const json = JSON.parse(r.out);
    expect(Object.keys(json)).toEqual(['tasks']);
    expect(Object.keys(json.tasks).sort()).toEqual(['cal', 'fx']);
    const fx = json.tasks.fx;
    expect(fx.space).toEqual(['A', 'C']);
    expect(fx.k).toBe(2);
    expect(fx.ranking.map((x: { tool: string }) => x.tool)).toEqual(['A', 'C', 'B']);
    expect(fx.ranking[1]).toMatchObject({ tool: 'C', mean: 0.2, n: 1, lo: 0.2, hi: 0.2 });
    for (const row of fx.ranking) {
      expect(Object.keys(row)).toEqual(expect.arrayContaining(['tool', 'mean', 'n', 'lo', 'hi']));
      expect(row.lo).toBeLessThanOrEqual(row.mean);
      expect(row.hi).toBeGreaterThanOrEqual(row.mean);
    }
    expect(fx.unscored).toEqual(['D']);
    // A tie (X, Y both 0.1) is broken by name.
    expect(json.tasks.cal.ranking.map((x: { tool: string }) => x.tool)).toEqual(['X', 'Y']);
    expect(json.tasks.cal.space).toEqual(['X', 'Y']); // |A_t| = 2 < K: no padding
  });

  it('without --k keeps every eligible tool (no budget sweep without a project)', async () => {
    const file = tmp.file('good2.jsonl', jsonl(good));
    const r = await runCli(['fit', '--scores', file, '--json', '--task', 'fx']);
    const json = JSON.parse(r.out);
    expect(Object.keys(json.tasks)).toEqual(['fx']);
    expect(json.tasks.fx).toMatchObject({ k: 3, space: ['A', 'C', 'B'], budgetSource: 'eligible' });
  });

  it('threshold and support rules', async () => {
    const file = tmp.file('good3.jsonl', jsonl(good));
    const t = JSON.parse((await runCli(['fit', '--scores', file, '--json', '--rule', 'threshold', '--tau', '0.25'])).out);
    expect(t.tasks.fx.space).toEqual(['A']);
    const s = JSON.parse((await runCli(['fit', '--scores', file, '--json', '--rule', 'support', '--phi', '0.5'])).out);
    expect(s.tasks.fx.space).toEqual(['A', 'C']);
    expect(s.tasks.fx.ranking.find((x: { tool: string }) => x.tool === 'B').support).toBeCloseTo(1 / 3, 12);
  });

  it('prints a readable table by default', async () => {
    const file = tmp.file('good4.jsonl', jsonl(good));
    const r = await runCli(['fit', '--scores', file, '--task', 'fx']);
    expect(r.code).toBe(0);
    expect(r.out).toContain('task fx: 4 requests, 3 tools scored');
    expect(r.out).toContain('space (3): A, C, B');
    expect(r.out).toContain('exposed but never scored (not eligible): D');
  });

  it('reports each malformed record as file:line: reason and exits 1 when the rest is usable', async () => {
    const lines = [
      JSON.stringify(good[0]),
      '{"trace":"n1","task":"fx","exposed":["A"],"scores":{"A":NaN}}',
      '{not json',
      JSON.stringify({ trace: 'w1', task: 'fx', exposed: 'A', scores: { A: 1 } }),
      JSON.stringify({ trace: 'w2', task: 'fx', exposed: ['A'], scores: { A: '0.4' } }),
      JSON.stringify({ trace: 'w3', task: 'fx', exposed: ['A'], scores: { Z: 1 } }),
      '',
      JSON.stringify({ trace: 'r1', task: 'fx', exposed: ['A'], scores: { A: 9 } }),
      JSON.stringify(good[1]),
    ];
    const file = tmp.file('mixed.jsonl', lines.join('\n') + '\n');
    const r = await runCli(['fit', '--scores', file, '--json']);
    expect(r.code).toBe(1);
    const errs = r.err.trim().split('\n');
    expect(errs).toHaveLength(6);
    expect(errs[0]).toMatch(new RegExp(`^${file.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}:2: .*finite number`));
    expect(errs[1]).toContain(':3: not valid JSON');
    expect(errs[2]).toMatch(/:4: exposed: .*expected array/);
    expect(errs[3]).toMatch(/:5: scores\.A: .*expected number/);
    expect(errs[4]).toMatch(/:6: scores: "Z" has a score but is not listed in "exposed"/);
    expect(errs[5]).toMatch(/:8: trace: "r1" already has a score record at line 1/);
    noStack(r.err);
    const json = JSON.parse(r.out);
    expect(json.tasks.fx.ranking.find((x: { tool: string }) => x.tool === 'A')).toMatchObject({ mean: 0.4, n: 2 });
  });

  it('exits 2 when nothing is usable, the file is missing or empty', async () => {
    const bad = await runCli(['fit', '--scores', tmp.file('bad.jsonl', '{oops\n[1]\n')]);
    expect(bad.code).toBe(2);
    expect(bad.err).toMatch(/bad\.jsonl:1: /);
    expect(bad.err).toMatch(/bad\.jsonl:2: each line must be one JSON object/);
    expect(bad.err).toContain('no usable score records');
    expect(bad.out).toBe('');
    const missing = await runCli(['fit', '--scores', tmp.dir + '/nope.jsonl']);
    expect(missing.code).toBe(2);
    expect(missing.err).toContain('no such file');
    const empty = await runCli(['fit', '--scores', tmp.file('empty.jsonl', '\n\n')]);
    expect(empty.code).toBe(2);
    expect(empty.err).toContain('no score records');
    noStack(bad.err + missing.err + empty.err);
  });

  it('usage errors exit 2 with a usage line, never a stack trace', async () => {
    const file = tmp.file('u.jsonl', jsonl(good));
    for (const argv of [
      ['fit'],
      ['fit', '--scores', file, '--project', tmp.dir],
      ['fit', '--scores', file, '--rule', 'best'],
      ['fit', '--scores', file, '--rule', 'threshold', '--k', '3'],
      ['fit', '--scores', file, '--tau', '0.1'],
      ['fit', '--scores', file, '--rule', 'support', '--phi', '2'],
      ['fit', '--scores', file, '--k', 'two'],
      ['fit', '--scores', file, '--bogus'],
      ['fit', '--scores', file, '--task', 'nope'],
      ['fit', '--scores', file, '--run', 'x'],
    ]) {
      const r = await runCli(argv);
      expect(r.code, argv.join(' ')).toBe(2);
      expect(r.err, argv.join(' ')).toMatch(/^lots fit: /);
      expect(r.out).toBe('');
      noStack(r.err);
    }
  });

  it('has help a newcomer can follow', async () => {
    const r = await runCli(['fit', '--help']);
    expect(r.code).toBe(0);
    expect(r.out).toContain('usage: lots fit');
    expect(r.out).toContain('--rule');
    expect(r.out).toContain('Exit codes');
  });
});
