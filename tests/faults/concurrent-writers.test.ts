// Issue 13 #2: two imports at once in one host took the same next traces file and the same temp file
// (the lock was re-entrant per process): one import failed, the other's traces vanished, and the project
// claimed traces it did not hold. Writers of one project are now serialised in the process (a queue per
// project, on top of the lock between processes) and every write has a temp file of its own.
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ProjectStore } from '../../electron/engine/store';
import { StudioService } from '../../electron/engine/api';
import { uniqueTempName, writeFileAtomic } from '../../electron/engine/store/atomic';
import { makeLineTraces, toJsonl } from '../e2e/fixtures';
import { recordFaults } from './fault-tally';

let dir: string;
let project: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'lots-concurrent-'));
  project = join(dir, 'p');
  ProjectStore.create(project);
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

/** Every trace id in the project's committed traces files, with how often it occurs. */
function idsOnDisk(): Map<string, number> {
  const ids = new Map<string, number>();
  for (const f of readdirSync(join(project, 'traces')).filter((n) => /^\d+\.jsonl$/.test(n))) {
    for (const line of readFileSync(join(project, 'traces', f), 'utf8').split('\n')) {
      if (!line) continue;
      const id = (JSON.parse(line) as { id: string }).id;
      ids.set(id, (ids.get(id) ?? 0) + 1);
    }
  }
  return ids;
}

describe('writers of one project in one process are serialised', () => {
  it('two concurrent importTraces calls keep every trace of both exactly once, with the right counts', async () => {
    const a = makeLineTraces({ task: 'alpha', requests: 3000, tools: 8, exposed: 5, seed: 1 });
    const b = makeLineTraces({ task: 'beta', requests: 3000, tools: 8, exposed: 5, seed: 2 });
    writeFileSync(join(dir, 'a.jsonl'), toJsonl(a));
    writeFileSync(join(dir, 'b.jsonl'), toJsonl(b));
    const service = new StudioService({ transport: 'web', configDir: mkdtempSync(join(dir, 'cfg-')) });
    service.setProject(ProjectStore.open(project));

    const [ra, rb] = await Promise.all([service.importTraces({ paths: [join(dir, 'a.jsonl')] }), service.importTraces({ paths: [join(dir, 'b.jsonl')] })]);
    expect(ra.files[0]).toMatchObject({ added: 3000, duplicates: 0 });
    expect(rb.files[0]).toMatchObject({ added: 3000, duplicates: 0 });

    const summary = await service.getProject();
    expect(summary?.traces).toBe(6000);
    expect(Object.fromEntries(summary!.tasks.map((t) => [t.task, t.requests]))).toEqual({ alpha: 3000, beta: 3000 });

    const onDisk = idsOnDisk();
    const expected = [...a, ...b].map((t) => t.id);
    const lost = expected.filter((id) => !onDisk.has(id)).length;
    const duplicated = [...onDisk.values()].filter((n) => n > 1).length;
    recordFaults({ injected: 1, recovered: lost === 0 && duplicated === 0 ? 1 : 0, lost, falseSuccesses: lost > 0 ? 1 : 0 });
    expect(lost).toBe(0);
    expect(duplicated).toBe(0);
    expect(onDisk.size).toBe(6000);
    // What another process sees: the same.
    const reopened = ProjectStore.open(project);
    expect(reopened.traceCount).toBe(6000);
    expect(reopened.warnings).toEqual([]);
    expect(readdirSync(join(project, 'traces')).filter((n) => n.endsWith('.tmp'))).toEqual([]);
  });

  it('an import and space approvals at once: both land', async () => {
    const traces = makeLineTraces({ task: 'alpha', requests: 2000, tools: 8, exposed: 5, seed: 3 });
    writeFileSync(join(dir, 'a.jsonl'), toJsonl(traces));
    const store = ProjectStore.open(project);
    store.addTraces(makeLineTraces({ task: 'gamma', requests: 5, tools: 4, seed: 4 }), 'g.jsonl');
    const service = new StudioService({ transport: 'web', configDir: mkdtempSync(join(dir, 'cfg-')) });
    service.setProject(store);
    const gammaTools = (await service.getSpaces({ task: 'gamma' })).candidates.map((c) => c.tool);
    const edit = { pinned: [], banned: [], rule: { kind: 'manual' as const }, note: 'concurrent approval' };
    const [report, v0, v1] = await Promise.all([
      service.importTraces({ paths: [join(dir, 'a.jsonl')] }),
      service.acceptSpace({ task: 'gamma', tools: gammaTools.slice(0, 2), ...edit }),
      service.acceptSpace({ task: 'gamma', tools: gammaTools.slice(0, 1), ...edit }),
    ]);
    expect(report.files[0]?.added).toBe(2000);
    expect([v0.version, v1.version].sort()).toEqual([0, 1]);
    expect(ProjectStore.open(project).readSpaces('gamma').versions).toHaveLength(2);
    expect(ProjectStore.open(project).traceCount).toBe(2005);
  });

  it('two atomic writes of one file in the same instant use temp files of their own', () => {
    const path = join(dir, 'x.json');
    // Same pid, same millisecond: the temp names must still differ (a shared name let one write rename the other's file).
    const names = new Set<string>();
    for (let i = 0; i < 1000; i++) names.add(uniqueTempName(path));
    expect(names.size).toBe(1000);
    writeFileAtomic(path, '{}\n');
    expect(readFileSync(path, 'utf8')).toBe('{}\n');
  });
});
