// `lots bench make`: same seed → byte-identical project; usage errors say what to do.
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { tmpdir } from 'node:os';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { main } from '../../../electron/cli/main';
import { captureIO as capture } from '../../cli/io';
import { makeBenchProject } from '../../../electron/engine/benchmark/make';
import { benchRequests } from '../../../electron/engine/benchmark/project';
import { ProjectStore } from '../../../electron/engine/store';
import { reexecuteWithout } from '../../../shared/benchmark/trace';

function files(dir: string): Map<string, Buffer> {
  const out = new Map<string, Buffer>();
  const walk = (d: string) => {
    for (const name of readdirSync(d).sort()) {
      const p = join(d, name);
      if (statSync(p).isDirectory()) walk(p);
      else out.set(relative(dir, p), readFileSync(p));
    }
  };
  walk(dir);
  return out;
}

describe('lots bench make', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'lots-bench-make-'));
  });
  afterEach(() => {
    vi.useRealTimers();
    rmSync(dir, { recursive: true, force: true });
  });

  it('writes byte-identical projects for the same seed, made at different times', () => {
    const options = { seed: '7', fit: 3, eval: 2, registry: 30 };
    makeBenchProject(join(dir, 'a'), options);
    vi.useFakeTimers({ now: Date.now() + 86_400_000, toFake: ['Date'] }); // a day later
    makeBenchProject(join(dir, 'b'), options);
    makeBenchProject(join(dir, 'c'), { ...options, seed: '8' });
    const a = files(join(dir, 'a'));
    const b = files(join(dir, 'b'));
    expect([...a.keys()]).toEqual(['activity.jsonl', 'project.json', 'traces/0001.index', 'traces/0001.jsonl', 'traces/0001.meta.json']);
    expect([...b.keys()]).toEqual([...a.keys()]);
    for (const [name, bytes] of a) expect(b.get(name)!.equals(bytes), name).toBe(true);
    expect(files(join(dir, 'c')).get('traces/0001.jsonl')!.equals(a.get('traces/0001.jsonl')!)).toBe(false);
  });

  it('the project holds requests per task and split, and every trace re-executes from itself alone', () => {
    makeBenchProject(join(dir, 'p'), { seed: 's', families: ['fx_settle', 'table_filter'], fit: 2, eval: 3 });
    const store = ProjectStore.open(join(dir, 'p'));
    const { byTask, registry } = benchRequests(store);
    expect([...byTask.keys()]).toEqual(['fx_settle', 'table_filter']);
    expect(byTask.get('fx_settle')!.fit.map((t) => t.id)).toEqual(['fx_settle-0000', 'fx_settle-0001']);
    expect(byTask.get('fx_settle')!.eval).toHaveLength(3);
    expect(registry).toHaveLength(15);
    for (const t of store.listTraces()) expect(reexecuteWithout(t, 0, 'Calculator').turns[0]!.steps).toHaveLength(1);
  });

  it('through the CLI: ok, then a refusal to overwrite, and usage errors that name the problem', async () => {
    const io = capture();
    const out = join(dir, 'cli');
    expect(await main(['bench', 'make', '--out', out, '--families', 'no_tool,compute_only', '--fit', '1', '--eval', '1'], io)).toBe(0);
    expect(io.stdout.join('\n')).toMatch(/wrote .*: 4 requests \(2 families × 1 fit \+ 1 eval\), registry of 15 tools, seed 0/);

    const again = capture();
    expect(await main(['bench', 'make', '--out', out], again)).toBe(2);
    expect(again.stderr.join('\n')).toMatch(/already exists and is not empty; give --out a new folder/);

    const bad = capture();
    expect(await main(['bench', 'make', '--out', join(dir, 'x'), '--families', 'tabel_total'], bad)).toBe(2);
    expect(bad.stderr.join('\n')).toMatch(/unknown family "tabel_total"; choose from table_total/);

    const noOut = capture();
    expect(await main(['bench', 'make'], noOut)).toBe(2);
    expect(noOut.stderr.join('\n')).toMatch(/--out is required/);

    writeFileSync(join(dir, 'file'), 'x');
    const registry = capture();
    expect(await main(['bench', 'make', '--out', join(dir, 'r'), '--registry', '1000'], registry)).toBe(2);
    expect(registry.stderr.join('\n')).toMatch(/--registry must be at most/);
  });
});
