// `lots bench scoring --project P [--trace id]` (issue 43): a project's recorded traces — here a real
// tau-bench airline trajectory (tests/fixtures/real/scoring/SOURCE.md) imported with `lots import` —
// are what the bench scores; an unknown trace id or --trace without --project is an error that says
// what to do. (The bench's own figures on that record are checked in tests/engine/scoring/multi-turn-plan.test.ts.)
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { projectTraces } from '../../electron/engine/scoring/speed';
import { runCli, tempDir } from './io';

const FIXTURE = join(__dirname, '..', 'fixtures', 'real', 'scoring', 'tau-bench-airline-task-2.json');
const tmp = tempDir();
afterAll(() => tmp.cleanup());

describe('bench scoring on a project', () => {
  it("reads the project's traces, the ones asked for, and names a missing one with the ids there are", async () => {
    const project = join(tmp.dir, 'tau');
    const imported = await runCli(['import', FIXTURE, '--project', project]);
    expect(imported.code).toBe(0);
    const all = projectTraces(project, undefined);
    expect(all).toHaveLength(1);
    const id = all[0]!.id;
    expect(all[0]!.turns.length).toBe(5);
    expect(projectTraces(project, [id]).map((t) => t.id)).toEqual([id]);
    expect(() => projectTraces(project, ['nope'])).toThrow(new RegExp(`no trace "nope" in .*; its traces: ${id}`));
  });

  it('refuses --trace without --project, saying why', async () => {
    const r = await runCli(['bench', 'scoring', '--trace', 'x']);
    expect(r.code).not.toBe(0);
    expect(r.err).toMatch(/--trace needs --project/);
  });
});
