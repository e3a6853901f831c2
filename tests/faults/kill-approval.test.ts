// Fault suite: kill -9 while space versions are approved and a budget sweep stores its points (N = 20, at
// a random write). Every approval that returned is kept, versions stay numbered 0, 1, 2, … without gaps or
// repeats, the sweep keeps every point it stored, and neither file is ever half-written.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ProjectStore } from '../../electron/engine/store';
import { recordFaults } from './fault-tally';
import { faultRandom, runChild } from './kill';

const N = 20;
const TASK = 'fx settle';

let dir: string;
let project: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'lots-kill-approve-'));
  project = join(dir, 'p');
  ProjectStore.create(project);
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('kill -9 during space approval and sweep writes', () => {
  it(`keeps every approved version and sweep point over ${N} kills at random writes`, async () => {
    const random = faultRandom('approval');
    let injected = 0;
    let recovered = 0;
    let lost = 0;
    let duplicated = 0;
    let approvedBefore = 0;
    let sweptBefore = 0;
    for (let i = 0; i < N; i++) {
      // Killed after a random number of writes of this run, a random moment after the last one returned.
      const writes = 1 + Math.floor(random() * 40);
      let seen = 0;
      const run = await runChild(['--import', 'tsx', 'tests/faults/children/approve.ts', project, TASK], {
        onLine: () => ++seen >= writes,
        graceMs: Math.floor(random() * 3),
      });
      expect(run.killed, run.stderr).toBe(true);
      injected++;
      const printed = run.stdout.split('\n').slice(0, -1);
      const approved = printed.filter((l) => l.startsWith('accepted ')).map((l) => Number(l.slice(9)));
      const swept = Math.max(0, ...printed.filter((l) => l.startsWith('swept ')).map((l) => Number(l.slice(6))));

      // Reads as an undamaged file (a half-written one would throw PROJECT_FILE_DAMAGED).
      const store = ProjectStore.open(project);
      const versions = store.readSpaces(TASK).versions.map((v) => v.version);
      const sweep = store.readSweep(TASK);
      const expectedVersions = approvedBefore + approved.length;
      lost += approved.filter((v) => !versions.includes(v)).length;
      duplicated += versions.length - new Set(versions).size;
      lost += Math.max(0, swept - (sweep?.points.length ?? 0));
      const numbered = versions.every((v, j) => v === j);
      if (numbered && versions.length >= expectedVersions && approved.every((v) => versions.includes(v))) recovered++;
      expect(numbered).toBe(true);
      // At most the one write in flight at the kill may have landed without being printed.
      expect(versions.length - expectedVersions).toBeLessThanOrEqual(1);
      approvedBefore = versions.length;
      sweptBefore = sweep?.points.length ?? sweptBefore;
    }
    recordFaults({ injected, recovered, lost, duplicated, falseSuccesses: 0 });
    expect(lost).toBe(0);
    expect(duplicated).toBe(0);
    expect(recovered).toBe(N);
    expect(sweptBefore).toBeGreaterThan(0);
  }, 240_000);
});
