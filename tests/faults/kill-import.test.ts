// Fault suite: kill -9 of `lots import` at randomised points (N = 20). After every kill the project
// opens whole (a dead writer's temp file and lock are cleaned up or taken over), each file is either
// entirely committed or not at all, a run that reported success kept everything, and nothing is twice;
// importing the files again afterwards completes the project.
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ProjectStore } from '../../electron/engine/store';
import { makeLineTraces, toJsonl } from '../e2e/fixtures';
import { recordFaults } from './fault-tally';
import { faultRandom, runChild } from './kill';

const N = 20;
const PER_FILE = 2500;

let dir: string;
let project: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'lots-kill-import-'));
  project = join(dir, 'p');
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function file(i: number): string {
  const path = join(dir, `f${i}.jsonl`);
  const traces = makeLineTraces({ task: `task${i % 3}`, requests: PER_FILE, tools: 8, exposed: 5, seed: 100 + i }).map((t) => ({ ...t, id: `f${i}-${t.id}` }));
  writeFileSync(path, toJsonl(traces));
  return path;
}

/** How often each trace id occurs in the project's committed traces files. */
function idsOnDisk(): Map<string, number> {
  const ids = new Map<string, number>();
  let names: string[] = [];
  try {
    names = readdirSync(join(project, 'traces')).filter((n) => /^\d+\.jsonl$/.test(n));
  } catch {
    return ids;
  }
  for (const f of names) {
    for (const line of readFileSync(join(project, 'traces', f), 'utf8').split('\n')) {
      if (!line) continue;
      const id = (JSON.parse(line) as { id: string }).id;
      ids.set(id, (ids.get(id) ?? 0) + 1);
    }
  }
  return ids;
}

describe('kill -9 during `lots import`', () => {
  it(`loses nothing and commits nothing partial over ${N} kills at random points`, async () => {
    const random = faultRandom('import');
    const files = Array.from({ length: N + 1 }, (_, i) => file(i));
    // A first, whole run says how long an import takes here; the kill points are spread over it.
    const calibrate = Date.now();
    const first = await runChild(['bin/lots.mjs', 'import', files[N]!, '--project', project]);
    const duration = Date.now() - calibrate;
    expect(first.code, first.stderr).toBe(0);

    let injected = 0;
    let recovered = 0;
    let lost = 0;
    let falseSuccesses = 0;
    let partial = 0;
    const reportedDone = new Set<number>([N]);
    for (let i = 0; i < N; i++) {
      const run = await runChild(['bin/lots.mjs', 'import', files[i]!, '--project', project], { delayMs: Math.floor(random() * duration * 1.1) });
      if (run.killed) injected++;
      else {
        expect(run.code, run.stderr).toBe(0);
        expect(run.stdout).toContain(`traces imported: ${PER_FILE}`);
        reportedDone.add(i);
      }
      // The next open after the kill: whole, whatever was left behind.
      const store = ProjectStore.open(project);
      const damage = store.warnings.filter((w) => !/removed a temp file left by process \d+, which is gone/.test(w.message));
      const present = [...store.traceInfos()].filter((t) => t.id.startsWith(`f${i}-`)).length;
      if (present !== 0 && present !== PER_FILE) partial++;
      if (reportedDone.has(i) && present !== PER_FILE) {
        falseSuccesses++;
        lost += PER_FILE - present;
      }
      if (run.killed && damage.length === 0 && (present === 0 || present === PER_FILE)) recovered++;
      expect(damage).toEqual([]);
    }

    // Import every file again (an interrupted import is simply run again): the project is complete.
    const retry = await runChild(['bin/lots.mjs', 'import', ...files, '--project', project]);
    expect(retry.code, retry.stderr).toBe(0);
    const onDisk = idsOnDisk();
    const missing = files.length * PER_FILE - onDisk.size;
    const duplicated = [...onDisk.values()].filter((n) => n > 1).length;
    lost += missing;
    recordFaults({ injected, recovered: missing === 0 ? recovered : 0, lost, duplicated, falseSuccesses });
    expect(injected).toBeGreaterThan(0);
    expect(partial).toBe(0);
    expect(falseSuccesses).toBe(0);
    expect(missing).toBe(0);
    expect(duplicated).toBe(0);
    expect(ProjectStore.open(project).traceCount).toBe(files.length * PER_FILE);
    expect(readdirSync(join(project, 'traces')).filter((n) => n.endsWith('.tmp'))).toEqual([]);
  }, 240_000);
});
