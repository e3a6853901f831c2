// Issue 13 #4: the return value of `writeSync` was ignored in the append, import-flush and atomic-write
// paths, so a short write (which a full disk gives first) committed a cut record with a false success.
// Injected here on the fs module those paths use: writes that write only part of what they are given,
// and a disk that fills up mid-write (a short write, then ENOSPC). Every write now writes everything
// or fails; a failed write fails the command (non-zero exit) and nothing partial is committed.
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

/** `chunk`: at most this many bytes per write call; `budget`: bytes left on the disk (undefined: unlimited). */
const disk = vi.hoisted(() => ({ chunk: Infinity, budget: undefined as number | undefined, zero: false, calls: 0, failAt: undefined as number | undefined }));

vi.mock('node:fs', async (importOriginal) => {
  const fs = await importOriginal<typeof import('node:fs')>();
  const writeSync = ((fd: number, data: string | NodeJS.ArrayBufferView, ...rest: unknown[]) => {
    let buf: Buffer;
    let off = 0;
    let len: number;
    if (typeof data === 'string') {
      buf = Buffer.from(data, (typeof rest[1] === 'string' ? rest[1] : 'utf8') as BufferEncoding);
      len = buf.length;
    } else {
      buf = Buffer.from(data.buffer, data.byteOffset, data.byteLength);
      off = typeof rest[0] === 'number' ? rest[0] : 0;
      len = typeof rest[1] === 'number' ? rest[1] : buf.length - off;
    }
    if (disk.zero) return 0;
    if (++disk.calls === disk.failAt)
      throw Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC', errno: -28, syscall: 'write' });
    let n = Math.min(len, disk.chunk);
    if (disk.budget !== undefined) {
      if (disk.budget === 0) throw Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC', errno: -28, syscall: 'write' });
      n = Math.min(n, disk.budget);
      disk.budget -= n;
    }
    return fs.writeSync(fd, buf, off, n);
  }) as typeof fs.writeSync;
  const patched = { ...fs, writeSync };
  return { ...patched, default: patched };
});

const { appendLines, writeFileAtomic } = await import('../../electron/engine/store/atomic');
const { ProjectStore } = await import('../../electron/engine/store');
const { recordFaults } = await import('./fault-tally');
const { runCli } = await import('../cli/io');
const { makeLineTraces, makeScoreRows, toJsonl } = await import('../e2e/fixtures');

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'lots-writes-'));
  Object.assign(disk, { chunk: Infinity, budget: undefined, zero: false, calls: 0, failAt: undefined });
});
afterEach(() => {
  Object.assign(disk, { chunk: Infinity, budget: undefined, zero: false, calls: 0, failAt: undefined });
  rmSync(dir, { recursive: true, force: true });
});

const lines = (path: string) =>
  readFileSync(path, 'utf8')
    .split('\n')
    .filter((l) => l !== '');

describe('short writes are completed', () => {
  it('in atomic writes, appends and imports', async () => {
    disk.chunk = 7;
    const text = JSON.stringify({ a: 'x'.repeat(1000), b: [1, 2, 3] });
    writeFileAtomic(join(dir, 'f.json'), text);
    expect(readFileSync(join(dir, 'f.json'), 'utf8')).toBe(text);
    appendLines(join(dir, 'a.jsonl'), ['{"n":1}', '{"n":2}', JSON.stringify({ long: 'y'.repeat(500) })]);
    expect(lines(join(dir, 'a.jsonl')).map((l) => JSON.parse(l))).toHaveLength(3);

    disk.chunk = 4096;
    const project = join(dir, 'p');
    const traces = makeLineTraces({ task: 't', requests: 400, tools: 6 });
    const file = join(dir, 'in.jsonl');
    writeFileSync(file, toJsonl(traces));
    const r = await runCli(['import', file, '--project', project]);
    expect(r.code).toBe(0);
    expect(lines(join(project, 'traces', '0001.jsonl'))).toHaveLength(400);
    const store = ProjectStore.open(project);
    expect(store.traceCount).toBe(400);
    expect(store.warnings).toEqual([]);
    store.appendScores(makeScoreRows(traces));
    expect(ProjectStore.open(project).listScores().length).toBe(makeScoreRows(traces).length);
  });

  it('and a write that writes nothing fails instead of looping', () => {
    disk.zero = true;
    expect(() => appendLines(join(dir, 'a.jsonl'), ['{"n":1}'])).toThrow(/short write/);
    expect(statSync(join(dir, 'a.jsonl')).size).toBe(0);
  });
});

describe('a disk that fills up mid-write', () => {
  it('fails an append with the reason and keeps the file as it was', () => {
    const path = join(dir, 'a.jsonl');
    appendLines(path, ['{"n":1}']);
    disk.budget = 10;
    expect(() => appendLines(path, ['{"n":2}', '{"n":3}', '{"n":4}'])).toThrow(/cannot write .*a\.jsonl: no space left on the device \(ENOSPC\)/);
    expect(readFileSync(path, 'utf8')).toBe('{"n":1}\n');
  });

  it('fails an atomic write and keeps the old file, with no temp file left', () => {
    const path = join(dir, 'f.json');
    writeFileAtomic(path, '{"old":true}');
    disk.budget = 5;
    expect(() => writeFileAtomic(path, JSON.stringify({ new: 'z'.repeat(100) }))).toThrow(/ENOSPC/);
    expect(readFileSync(path, 'utf8')).toBe('{"old":true}');
    expect(readdirSync(dir)).toEqual(['f.json']);
  });

  it('fails storing scores (throws; nothing partial stored)', () => {
    const store = ProjectStore.create(join(dir, 'p'));
    const traces = makeLineTraces({ task: 't', requests: 30, tools: 5 });
    store.addTraces(traces, 'gen');
    const rows = makeScoreRows(traces);
    store.appendScores(rows.slice(0, 5));
    disk.budget = 300;
    expect(() => store.appendScores(rows.slice(5))).toThrow(/ENOSPC/);
    disk.budget = undefined;
    const again = ProjectStore.open(join(dir, 'p'));
    expect(again.listScores()).toHaveLength(5);
    expect(again.warnings).toEqual([]);
    expect(existsSync(join(dir, 'p', '.lock'))).toBe(false);
  });

  it('fails `lots import` (exit 2, the reason said), commits none of the file, and a retry imports it all', async () => {
    const project = join(dir, 'p');
    const file = join(dir, 'in.jsonl');
    writeFileSync(file, toJsonl(makeLineTraces({ task: 't', requests: 2000, tools: 6 })));
    // Enough for the project files, not for the traces.
    disk.budget = Math.floor(statSync(file).size / 2);
    const r = await runCli(['import', file, '--project', project]);
    expect(r.code).toBe(2);
    expect(r.err).toMatch(/no space left on the device \(ENOSPC\); nothing of this write was kept/);
    expect(readdirSync(join(project, 'traces'))).toEqual([]);
    expect(existsSync(join(project, '.lock'))).toBe(false);
    expect(ProjectStore.open(project).traceCount).toBe(0);
    disk.budget = undefined;
    const retry = await runCli(['import', file, '--project', project]);
    expect(retry.code).toBe(0);
    expect(ProjectStore.open(project).traceCount).toBe(2000);
  }, 30_000);
});

describe('a failed write at every write site', () => {
  // Each store operation is run once to count its writes, then once per write with that write failing
  // (ENOSPC). It must either fail (throw) and leave the project as it was, or succeed with everything
  // stored (a failed write of the activity log is allowed: the record is committed, the log is best effort).
  const traces = makeLineTraces({ task: 't', requests: 120, tools: 5, seed: 9 });
  const rows = makeScoreRows(traces);
  const operations: Record<
    string,
    { run: (s: ReturnType<typeof ProjectStore.open>) => void; count: (s: ReturnType<typeof ProjectStore.open>) => number; expected: number }
  > = {
    import: { run: (s) => void s.addTraces(traces, 'gen.jsonl'), count: (s) => s.traceCount, expected: traces.length },
    'score append': { run: (s) => void s.appendScores(rows), count: (s) => s.listScores().length, expected: rows.length },
    'space approval': {
      run: (s) => void s.acceptSpace({ task: 't', tools: ['A'], pinned: [], banned: [], rule: { kind: 'manual' }, note: 'n' }),
      count: (s) => s.readSpaces('t').versions.length,
      expected: 1,
    },
    'sweep write': {
      run: (s) =>
        s.writeSweep({ task: 't', model: 'm', points: [{ k: 1, tools: ['A'], accuracy: 0.5, n: 3, promptTokens: 10 }], baselines: [], createdAt: 'now' }),
      count: (s) => s.readSweep('t')?.points.length ?? 0,
      expected: 1,
    },
  };

  for (const [name, op] of Object.entries(operations)) {
    it(`${name}: fails whole or succeeds whole`, () => {
      const fresh = (i: number) => {
        const p = join(dir, `p${i}`);
        const store = ProjectStore.create(p);
        if (name === 'score append') store.addTraces(traces, 'gen.jsonl');
        return p;
      };
      const clean = fresh(0);
      disk.calls = 0;
      op.run(ProjectStore.open(clean));
      const writes = disk.calls;
      expect(writes).toBeGreaterThan(0);
      let falseSuccesses = 0;
      let lost = 0;
      let partial = 0;
      for (let k = 1; k <= writes; k++) {
        const p = fresh(k);
        disk.calls = 0;
        disk.failAt = k;
        let failed = false;
        try {
          op.run(ProjectStore.open(p));
        } catch (e) {
          failed = true;
          expect((e as Error).message).toMatch(/no space left on the device \(ENOSPC\)/);
        }
        disk.failAt = undefined;
        const after = ProjectStore.open(p);
        const n = op.count(after);
        if (!failed && n !== op.expected) {
          falseSuccesses++;
          lost += op.expected - n;
        }
        if (failed && n !== 0) partial++;
        expect(after.warnings.filter((w) => !/could not be logged/.test(w.message))).toEqual([]);
        expect(existsSync(join(p, '.lock'))).toBe(false);
      }
      recordFaults({ injected: writes, recovered: writes - falseSuccesses - partial, lost, falseSuccesses });
      expect(falseSuccesses).toBe(0);
      expect(partial).toBe(0);
    });
  }
});
