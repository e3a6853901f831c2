// `lots demo --seeds N --variant V`: one project per seed (the first in --out, the others in
// --out/seeds/seed-S), the variant in every request's meta.bench and in demo.json, a point per seed in
// demo.json, and a rerun that resumes instead of redoing. With the random-weight fixture model (its
// answers mean nothing; the mechanics are what is checked).
import { cpSync, existsSync, mkdtempSync, rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { tmpdir } from 'node:os';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureFixtureModel } from '../../../electron/engine/gguf/fixture-cache';
import { runDemo, seedDir, type DemoOptions } from '../../../electron/engine/benchmark/demo';
import { benchRequests } from '../../../electron/engine/benchmark/project';
import { seedPointsOf } from '../../../electron/engine/benchmark/seeds';
import { ProjectStore } from '../../../electron/engine/store';
import { readBenchMeta } from '../../../shared/benchmark/trace';
import { demoDuration } from '../../../shared/export/demo-report';
import { decodeCaveat } from '../../../shared/project/run-record';
import { runCli } from '../../cli/io';

let dir: string;
let options: DemoOptions;
const lines: string[] = [];

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'lots-demo-seeds-'));
  options = {
    out: join(dir, 'demo'),
    modelPath: ensureFixtureModel(resolve('tests/.fixtures/models'), { kind: 'random' }),
    families: ['schedule_gap'],
    variant: 'composition',
    seeds: 2,
    fit: 2,
    eval: 2,
    draws: 1,
    kMax: 1,
    maxTokens: 3,
    threads: 1,
    gpu: 'cpu',
    baselines: ['keep-all', 'random'],
    log: (line) => lines.push(line),
  };
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('lots demo --seeds 2 --variant composition', () => {
  it('runs one project per seed, each of the variant, and records a point per seed', async () => {
    // Seed 1 first on its own (as a long run is split over machines), then joined by the --seeds run.
    await runDemo({ ...options, seeds: 1, seed: '1', out: seedDir(options.out, '1') });
    const alone = ProjectStore.open(seedDir(options.out, '1')).readDemo()!.seconds!;
    const result = await runDemo(options);
    expect(result.projects.map((p) => [p.seed, p.dir])).toEqual([
      ['0', options.out],
      ['1', seedDir(options.out, '1')],
    ]);
    for (const [seed, project] of [
      ['0', options.out],
      ['1', seedDir(options.out, '1')],
    ] as const) {
      const requests = benchRequests(ProjectStore.open(project));
      expect([requests.seed, requests.variant]).toEqual([seed, 'composition']);
      for (const t of requests.byTask.get('schedule_gap')!.eval) expect(readBenchMeta(t)).toMatchObject({ seed, variant: 'composition' });
    }
    const record = ProjectStore.open(options.out).readDemo()!;
    expect(record.preset).toMatchObject({ seed: '0', seeds: 2, variant: 'composition' });
    expect(record.seeds!.map((p) => [p.seed, p.project])).toEqual([
      ['0', '.'],
      ['1', 'seeds/seed-1'],
    ]);
    // The time of seed 1's own run comes with its point; seed 0 was run by this demo (its own seconds).
    expect(record.seeds!.map((p) => p.seconds)).toEqual([undefined, alone]);
    // Both were served one sequence a decode batch, and the record and each seed point say so (no caveat).
    expect([record.decode, ...record.seeds!.map((p) => p.decode)]).toEqual(['one-sequence', 'one-sequence', 'one-sequence']);
    expect(decodeCaveat(record)).toBeUndefined();
    expect(demoDuration({ ...record, seconds: 60 * 100, seeds: record.seeds!.map((p) => (p.seconds ? { ...p, seconds: 60 * 25 } : p)) })).toBe(
      ` · 2 h 5 min over every seed's runs`,
    );
    expect(demoDuration(record)).toBe(` · ${Math.round((record.seconds! + alone) / 60)} min over every seed's runs`);
    for (const p of record.seeds!) {
      expect(Object.keys(p.accuracy).sort()).toEqual(['keep-all', 'lots', 'random']);
      expect(p.lotsMinus['keep-all']!.n).toBe(2);
    }
    expect(lines).toContainEqual(expect.stringMatching(/seed 1, composition variant$/));
    // `lots evaluate --project` recomputes the same points from the seed projects' stored sweeps.
    expect(seedPointsOf(ProjectStore.open(options.out))).toEqual(record.seeds);
    expect(seedPointsOf(ProjectStore.open(seedDir(options.out, '1')))).toBeUndefined();
  }, 900_000);

  it('a rerun resumes every seed; another variant on the same folder is refused', async () => {
    lines.length = 0;
    // A sitting with another command line is recorded beside the first one, once.
    const resumed = 'lots demo --out demo --seeds 2 --variant composition --baselines keep-all,random';
    await runDemo({ ...options, command: resumed });
    expect(lines.filter((l) => l.startsWith('3/5 ')).every((l) => l.includes('0 new, 2 stored before'))).toBe(true);
    expect(existsSync(join(options.out, 'seeds', 'seed-2'))).toBe(false);
    await runDemo({ ...options, command: resumed });
    // The same command on more cores is the same run: not recorded again.
    await runDemo({ ...options, command: `${resumed} --threads 2` });
    expect(ProjectStore.open(options.out).readDemo()).toMatchObject({ command: 'lots demo', resumedWith: [resumed] });
    // A seed folder whose own record was made before the one-sequence decode (no mark) is joined as such: its
    // point says so, and the caveat names that seed; the mark comes back with its record.
    const seedStore = ProjectStore.open(seedDir(options.out, '1'));
    const marked = seedStore.readDemo()!;
    const { decode: _, ...unmarked } = marked;
    seedStore.writeDemo(unmarked);
    await runDemo({ ...options, command: resumed });
    const joined = ProjectStore.open(options.out).readDemo()!;
    expect(joined.seeds!.map((p) => p.decode)).toEqual(['one-sequence', undefined]);
    expect(decodeCaveat(joined)).toMatch(/^Seed 1 of this run was served before 2026-12-07/);
    expect(seedPointsOf(ProjectStore.open(options.out))!.map((p) => p.decode)).toEqual(['one-sequence', undefined]);
    seedStore.writeDemo(marked);
    await runDemo({ ...options, command: resumed });
    expect(decodeCaveat(ProjectStore.open(options.out).readDemo()!)).toBeUndefined();
    await expect(runDemo({ ...options, variant: 'faithful' })).rejects.toThrow(/holds another benchmark \(seed 0, composition variant/);
  }, 900_000);

  it("lots evaluate on the folder brings demo.json's seed points up to date with the seed projects", async () => {
    const store = ProjectStore.open(options.out);
    const record = store.readDemo()!;
    // As if seed 1 had been evaluated again after the demo: its recorded point is out of date.
    store.writeDemo({ ...record, seeds: record.seeds!.map((p) => (p.seed === '1' ? { ...p, accuracy: { ...p.accuracy, lots: 0.123 } } : p)) });
    const first = await runCli(['evaluate', '--project', options.out]);
    expect(first.code, first.err).toBe(0);
    expect(first.out).toContain(`${join(options.out, 'demo.json')}: its seed points were brought up to date with the seed projects`);
    expect(ProjectStore.open(options.out).readDemo()!.seeds).toEqual(record.seeds);
    // Up to date: nothing written, nothing said.
    const again = await runCli(['evaluate', '--project', options.out]);
    expect(again.out).not.toContain('brought up to date');

    // The first project copied without its seed folders: the missing seed keeps its recorded point, said.
    const copy = join(dir, 'copy');
    cpSync(options.out, copy, { recursive: true, filter: (src) => !src.startsWith(join(options.out, 'seeds')) });
    const alone = await runCli(['evaluate', '--project', copy]);
    expect(alone.code, alone.err).toBe(0);
    expect(alone.err).toContain(`seed 1: ${join(copy, 'seeds', 'seed-1')} is not there; its point as demo.json recorded it is shown`);
    expect(alone.out).toMatch(/across 2 seeds \(0, 1\)/);
    expect(ProjectStore.open(copy).readDemo()!.seeds).toEqual(record.seeds);
  });

  it('--seeds with several registry sizes is refused before any model is loaded', async () => {
    await expect(runDemo({ ...options, out: join(dir, 'both'), registries: [15, 30], modelPath: join(dir, 'no-model.gguf') })).rejects.toThrow(
      /--seeds 2 runs one registry size; give one --registry \(got 15,30\)/,
    );
    expect(existsSync(join(dir, 'both'))).toBe(false);
  });
});
