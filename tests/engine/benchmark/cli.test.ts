// The bench commands end to end on a tiny benchmark with the random-weight fixture model.
import { mkdtempSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { tmpdir } from 'node:os';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { main } from '../../../electron/cli/main';
import { captureIO as capture } from '../../cli/io';
import { ProjectStore } from '../../../electron/engine/store';
import { DEMO_PRESETS } from '../../../electron/engine/benchmark/demo';
import { taskRanking } from '../../../electron/engine/benchmark/project';
import { approvedSpace } from '../../../electron/engine/read-model/approved-space';

/** `lots demo` on the fixture model, two families, one request of each split, short answers; `flags` override or add. */
function demoArgs(out: string, flags: Record<string, string> = {}): string[] {
  const all = { model: 'fixture:random', out, gpu: 'cpu', families: 'compute_only,no_tool', fit: '1', eval: '1', draws: '2', 'max-tokens': '3', ...flags };
  return ['demo', ...Object.entries(all).flatMap(([flag, value]) => [`--${flag}`, value])];
}

describe('lots demo, serve, sweep, evaluate', () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'lots-bench-cli-'));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('demo runs the whole loop, shows progress, prints the table and stores everything', async () => {
    const io = capture();
    const out = join(dir, 'demo');
    const code = await main(demoArgs(out), io);
    expect(io.stderr.join('\n')).toMatch(/serve 2\/2/);
    expect(code).toBe(0);
    const text = io.stdout.join('\n');
    for (const step of [
      'loaded ',
      '1/5 ',
      '2/5 served 2 fitting requests',
      '3/5 scored them with the re-execute intervention (2 new, 0 stored before)',
      `4/5 compute_only: budget sweep K=1…${DEMO_PRESETS.quick.kMax}`,
      '5/5 evaluated',
    ])
      expect(text).toContain(step);
    expect(text).toMatch(
      /task\s+K\s+kept tools\s+lots fit\/eval\s+keep-all fit\/eval\s+no-tools fit\/eval\s+random fit\/eval\s+bm25 fit\/eval\s+dense fit\/eval\s+tool2vec fit\/eval\s+router fit\/eval\s+trace-judge fit\/eval\s+tto fit\/eval\s+beam fit\/eval\s+oracle fit\/eval\s+lots-k2 fit\/eval\s+lots-k4 fit\/eval\s+lots-deferred fit\/eval\s+prompt tok lots\/all/,
    );
    // Every baseline of the paper's Table 1 that runs locally, and the reference rows (oracle, fixed K, pinned + deferred), named in the log line; the cost of selection under the tables.
    expect(text).toContain(
      '5/5 evaluated LOTS against Keep-all, No tools, Random, BM25, Dense, Tool2Vec, LLM router, Trace judge, TTO†, Beam†, Oracle (gold chain), LOTS K=2, LOTS K=4, LOTS pinned + deferred',
    );
    expect(text).toMatch(/cost of selection[^\n]*\n.*\n.*\nLOTS\s+\d+\s+[\d,]+ in \d+ fits?/);
    expect(text).toMatch(/LLM router\s+\d+\s+[\d,]+ per request/);
    expect(text).toContain('how each method chose, where it has something to say:');
    // The pinned + deferred row against top-K only and keep-all, with the requests that asked for a deferred tool.
    expect(text).toMatch(
      /LOTS pinned \+ deferred on the evaluation requests[^\n]*\ntask\s+asked\s+right after asking[^\n]*\n[-\s]+\ncompute_only\s+\d+\/\d+\s/,
    );
    // The random model answers nothing right at any K: K = 1 is the rule's default, and the table says so.
    expect(text).toMatch(/\ncompute_only\s+1\*\s+\S+/);
    expect(text).toContain("* no K answered a fitting request right: K is the rule's default (the smallest), not evidence");
    expect(text).toMatch(/\nmean\s+/);
    const store = ProjectStore.open(out);
    expect(
      store
        .listSweeps()
        .map((s) => s.task)
        .sort(),
    ).toEqual(['compute_only', 'no_tool']);
    expect(store.listSpaces()).toHaveLength(2);
    // The accepted space is the three-state proposal at the sweep's K: the rest of the scored tools deferred.
    const sweep = store.readSweep('compute_only')!;
    const approved = approvedSpace(store, 'compute_only')!;
    const ranked = taskRanking(store.listScores(sweep.run), 'compute_only').map((t) => t.tool);
    expect(approved.tools).toEqual(sweep.points.find((p) => p.k === sweep.bestK)!.tools);
    expect(approved.deferred.length).toBeGreaterThan(0);
    expect(approved.deferred).toEqual(ranked.filter((t) => !approved.tools.includes(t)));
    const record = store.readDemo()!;
    expect(record).toMatchObject({
      preset: { name: 'quick', fit: 1, eval: 1, draws: 2, kMax: DEMO_PRESETS.quick.kMax, registry: 15, families: ['compute_only', 'no_tool'] },
      growth: [],
    });
    expect(record.command).toContain('demo --model fixture:random');
    expect(record.modelHash).toMatch(/^[0-9a-f]{16}$/);
  });

  it('the same command on the same folder resumes: nothing is served or scored again', async () => {
    const io = capture();
    const out = join(dir, 'demo');
    const code = await main(demoArgs(out), io);
    expect(code).toBe(0);
    const text = io.stdout.join('\n');
    expect(text).toContain(`resuming the demo in ${out}`);
    expect(text).toContain('(0 new, 2 stored before)');
    expect(text).toMatch(/done: 0 answers generated/);
    const other = capture();
    expect(await main(demoArgs(out, { families: 'compute_only' }), other)).toBe(2);
    expect(other.stderr.join('\n')).toMatch(
      /holds another benchmark .* choose a new output folder \(--out\), or run it again with the same options to resume it/,
    );
  });

  it('--registry 15,30 runs the families at each size and records accuracy against registry size', async () => {
    const io = capture();
    const out = join(dir, 'growth');
    const code = await main(demoArgs(out, { families: 'compute_only', draws: '1', 'k-max': '2', registry: '30,15' }), io);
    expect(code).toBe(0);
    const text = io.stdout.join('\n');
    expect(text).toContain('— registry of 15 tools (.) —');
    expect(text).toContain(`— registry of 30 tools (${join('growth', 'registry-30')}) —`);
    expect(text).toMatch(/registry\s+keep-all acc\s+LOTS acc\s+keep-all tok\s+LOTS tok/);
    const record = ProjectStore.open(out).readDemo()!;
    expect(record.growth.map((g) => [g.registry, g.project])).toEqual([
      [15, '.'],
      [30, join('growth', 'registry-30')],
    ]);
    const [small, large] = record.growth;
    // Keep-all serves the whole registry: twice the tools, more prompt tokens; LOTS serves at most K = 2.
    expect(small!.methods['keep-all']!.tools).toBe(15);
    expect(large!.methods['keep-all']!.tools).toBe(30);
    expect(large!.methods['keep-all']!.promptTokens).toBeGreaterThan(small!.methods['keep-all']!.promptTokens);
    expect(large!.methods.lots!.tools).toBeLessThanOrEqual(2);
    expect(
      ProjectStore.open(join(out, 'growth', 'registry-30'))
        .listSweeps()
        .map((s) => s.task),
    ).toEqual(['compute_only']);
  });

  it('after a restart, evaluate prints the stored table, sweep reuses its points, serve answers the evaluation split', async () => {
    const out = join(dir, 'demo');
    const table = capture();
    expect(await main(['evaluate', '--project', out], table)).toBe(0);
    expect(table.stdout.join('\n')).toMatch(/compute_only\s+1\*\s/);

    const sweep = capture();
    expect(await main(['sweep', '--project', out, '--model', 'fixture:random', '--gpu', 'cpu', '--task', 'no_tool', '--max-tokens', '3'], sweep)).toBe(0);
    expect(sweep.stdout.join('\n')).toMatch(/no_tool: K=\d+/);
    expect(sweep.stdout.join('\n')).toMatch(/K=\s+15\s+fitting accuracy 0\.00/);
    expect(sweep.stdout.join('\n')).toContain("no K answered a fitting request right: K=1 is the rule's default (the smallest K), not evidence");

    const serve = capture();
    expect(
      await main(['serve', '--project', out, '--model', 'fixture:random', '--gpu', 'cpu', '--split', 'eval', '--menu', 'space', '--max-tokens', '3'], serve),
    ).toBe(0);
    expect(serve.stdout.join('\n')).toMatch(/served 2 requests .* \(2 new, 0 already served\)/);
    expect(serve.stdout.join('\n')).toMatch(/compute_only\s+1 served\s+accuracy 0\.00/);

    const json = capture();
    expect(await main(['evaluate', '--project', out, '--json'], json)).toBe(0);
    const parsed = JSON.parse(json.stdout.join('')) as { tasks: Record<string, { bestK: number }> };
    expect(Object.keys(parsed.tasks).sort()).toEqual(['compute_only', 'no_tool']);
  });

  it('a sweep from another scoring run drops the rows built from the old ranking, says so, and evaluate measures them again', async () => {
    const out = join(dir, 'demo');
    const before = ProjectStore.open(out).readSweep('no_tool')!;
    expect(before.baselines.some((b) => b.name === 'lots')).toBe(true);
    const file = join(dir, 'no_tool-scores.jsonl');
    expect(await main(['scores', 'export', '--project', out, '--out', file], capture())).toBe(0);
    expect(await main(['scores', 'import', file, '--project', out, '--run', 'import:other'], capture())).toBe(0);
    const sweep = capture();
    const args = ['--project', out, '--model', 'fixture:random', '--gpu', 'cpu', '--task', 'no_tool', '--max-tokens', '3'];
    expect(await main(['sweep', ...args, '--run', 'import:other'], sweep)).toBe(0);
    expect(sweep.stderr.join('\n')).toMatch(
      /no_tool: the stored rows of lots\b.* were measured against the previous ranking or K and are dropped; lots evaluate/,
    );
    const after = ProjectStore.open(out).readSweep('no_tool')!;
    expect(after.run).toBe('import:other');
    expect(after.baselines.some((b) => b.name === 'lots')).toBe(false);
    // Keep-all does not depend on LOTS: its measurement stands.
    expect(after.baselines.filter((b) => b.name === 'keep-all')).toEqual(before.baselines.filter((b) => b.name === 'keep-all'));
    expect(await main(['evaluate', ...args], capture())).toBe(0);
    expect(
      ProjectStore.open(out)
        .readSweep('no_tool')!
        .baselines.some((b) => b.name === 'lots'),
    ).toBe(true);
  });

  it('errors name the problem and the next step', async () => {
    const noBench = capture();
    ProjectStore.create(join(dir, 'empty'));
    expect(await main(['sweep', '--project', join(dir, 'empty'), '--model', 'fixture:random'], noBench)).toBe(2);
    expect(noBench.stderr.join('\n')).toMatch(/holds no benchmark requests; create a benchmark project with `lots bench make/);

    const noModel = capture();
    expect(await main(['serve', '--project', join(dir, 'demo')], noModel)).toBe(2);
    expect(noModel.stderr.join('\n')).toMatch(/--model is required/);

    const missing = capture();
    expect(await main(['serve', '--project', join(dir, 'demo'), '--model', join(dir, 'nope.gguf')], missing)).toBe(2);
    expect(missing.stderr.join('\n')).toMatch(/nope\.gguf/);

    const badGpu = capture();
    expect(await main(['demo', '--model', 'fixture:random', '--out', join(dir, 'g'), '--gpu', 'tpu'], badGpu)).toBe(2);
    expect(badGpu.stderr.join('\n')).toMatch(/--gpu must be one of/);
  });
});
