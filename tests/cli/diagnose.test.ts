// `lots diagnose` on the sample project (a real scored benchmark run): what it prints agrees with the
// project's own fit, the refits and draws are reproducible, and bad input is refused.
import { cpSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { FAMILIES } from '../../shared/benchmark/families';
import { isFamilyName } from '../../shared/benchmark/family';
import { ProjectStore } from '../../electron/engine/store';
import { fitProject } from '../../electron/engine/usecases/fit';
import type { ProjectDiagnosis } from '../../electron/engine/usecases/diagnose';
import { runCli, tempDir } from './io';

const tmp = tempDir('lots-diagnose-');
const project = join(tmp.dir, 'p');
cpSync(join(__dirname, '..', '..', 'assets', 'sample-project'), project, { recursive: true });
afterAll(() => tmp.cleanup());

describe('lots diagnose', () => {
  it('diagnoses every scored task with the space lots fit proposes, and is reproducible', async () => {
    const args = ['diagnose', '--project', project, '--resamples', '200', '--draws', '50', '--json'];
    const first = await runCli(args);
    expect(first.code).toBe(0);
    const d = JSON.parse(first.out) as ProjectDiagnosis;
    const fits = fitProject(ProjectStore.open(project))!.fits;
    expect(d.tasks.map((t) => t.task)).toEqual(fits.map((f) => f.task));
    for (const t of d.tasks) {
      const fit = fits.find((f) => f.task === t.task)!;
      expect(t.space).toEqual(fit.space);
      expect(t.ranking).toEqual(fit.ranking.map((r) => r.tool));
      // Counted independently: the chain is found when each chain tool's rank is within |G|.
      if (isFamilyName(t.task) && FAMILIES[t.task].chainTools.length > 0) {
        const chain = FAMILIES[t.task].chainTools;
        expect(t.chain!.found).toBe(
          chain.every((tool) => fit.ranking.findIndex((r) => r.tool === tool) < chain.length && fit.ranking.some((r) => r.tool === tool)),
        );
      } else expect(t.chain).toBeUndefined();
      // Fitting on every trace gives back the full-data space.
      const all = t.counts.find((c) => c.traces === t.requests);
      if (all) expect(all).toMatchObject({ jaccard: 1, same: 1 });
      expect(t.recurrence.resamples).toBe(200);
    }
    // Table 18's mean ranks, counted independently from the fits: a chain's last tool is downstream.
    const up: number[] = [];
    const down: number[] = [];
    for (const fit of fits) {
      if (!isFamilyName(fit.task)) continue;
      const chain = FAMILIES[fit.task].chainTools;
      chain.forEach((tool, i) => (i === chain.length - 1 ? down : up).push(fit.ranking.findIndex((r) => r.tool === tool) + 1));
    }
    const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
    expect(up.every((r) => r > 0) && down.every((r) => r > 0)).toBe(true);
    expect(d.chainRanks!.upstream).toMatchObject({ tools: up.length, unranked: 0 });
    expect(d.chainRanks!.upstream.mean).toBeCloseTo(mean(up), 12);
    expect(d.chainRanks!.downstream).toMatchObject({ tools: down.length, unranked: 0 });
    expect(d.chainRanks!.downstream.mean).toBeCloseTo(mean(down), 12);
    expect((await runCli(args)).out).toBe(first.out);
  });

  it('prints the table with the chain summary line', async () => {
    const r = await runCli(['diagnose', '--project', project, '--resamples', '50', '--draws', '20', '--task', 'table_total,no_tool']);
    expect(r.code).toBe(0);
    expect(r.out).toMatch(/^table_total\s+\d+\s+\d/m);
    expect(r.out).toMatch(/^no_tool\s/m);
    expect(r.out).toMatch(/gold chain in the top \|G\|: \d of 1 tool-using families/);
    // table_total's chain is TableQuery → Calculator: one upstream tool, one downstream.
    expect(r.out).toMatch(/mean rank of the chain tools \(Table 18\): upstream \d\.\d\d over 1 tool, downstream \d\.\d\d over 1 tool$/m);
  });

  it("marks a K taken from another run's budget sweep, and says so", async () => {
    const copy = join(tmp.dir, 'two-runs');
    cpSync(project, copy, { recursive: true });
    const file = join(tmp.dir, 'scores.jsonl');
    expect((await runCli(['scores', 'export', '--project', copy, '--out', file])).code).toBe(0);
    const imported = await runCli(['scores', 'import', file, '--project', copy, '--run', 'import:copy']);
    expect(imported.code, imported.err).toBe(0);
    const own = await runCli([
      'diagnose',
      '--project',
      copy,
      '--run',
      '1d9614638d18024d|reexecute|answer|Qwen',
      '--resamples',
      '20',
      '--draws',
      '5',
      '--task',
      'table_total',
    ]);
    expect(own.code, own.err).toBe(0);
    expect(own.out).not.toContain('†');
    const other = await runCli(['diagnose', '--project', copy, '--run', 'import:copy', '--resamples', '20', '--draws', '5', '--task', 'table_total']);
    expect(other.code, other.err).toBe(0);
    expect(other.out).toMatch(/^table_total\s+\d+\s+\d+†\s/m);
    expect(other.out).toContain('† K from the stored budget sweep of another run (1d9614638d18024d|reexecute|answer|Qwen)');
    expect(other.out).toContain("lots sweep --run 'import:copy' sweeps this one");
  });

  it('refuses bad sizes and unknown tasks with a message', async () => {
    const bad = await runCli(['diagnose', '--project', project, '--sizes', '1,x']);
    expect(bad.code).toBe(2);
    expect(bad.err).toContain('--sizes');
    const unknown = await runCli(['diagnose', '--project', project, '--task', 'nope']);
    expect(unknown.code).toBe(2);
    expect(unknown.err).toContain('"nope"');
  });
});
