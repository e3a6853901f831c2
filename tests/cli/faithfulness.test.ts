// `lots score` on a project with unserved requests, then `lots faithfulness`: the skipped requests are
// named, the check's table is printed per task and stored in the project.
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ProjectStore } from '../../electron/engine/store';
import { copyTraces } from '../engine/copy-traces';
import { evidenceCopyModel } from '../engine/fixtures';
import { runCli, tempDir, type CliRun } from './io';

const tmp = tempDir();
afterAll(() => tmp.cleanup());

let project: string;
let scored: CliRun;

beforeAll(async () => {
  project = join(tmp.dir, 'proj');
  const unserved = copyTraces(2, 5, 62).map((t) => ({ ...t, id: `${t.id}-unserved`, turns: t.turns.map((turn) => ({ ...turn, answer: '' })) }));
  ProjectStore.create(project).addTraces([...copyTraces(6, 5, 61), ...unserved], 'gen');
  scored = await runCli(['score', '--project', project, '--model', evidenceCopyModel(), '--gpu', 'cpu', '--intervention', 'line']);
});

describe('lots score', () => {
  it('skips requests with no answer and says how many', () => {
    expect(scored.code, scored.err).toBe(0);
    expect(scored.out).toContain('6 scored now, 0 already scored, 2 skipped (no answer yet: serve them first), 6/6 in the project');
    expect(ProjectStore.open(project).listScores()).toHaveLength(6);
  });
});

describe('lots faithfulness', () => {
  it('prints a table per task with the joint, additive and random drops, and stores the check', async () => {
    const r = await runCli(['faithfulness', '--project', project, '--model', evidenceCopyModel(), '--gpu', 'cpu', '--k', '1,2', '--draws', '2']);
    expect(r.code, r.err).toBe(0);
    expect(r.out).toMatch(/^copy {2}\(run [0-9a-f]{16}\|line\|answer\|plain; line removal; 2 random draws per request/m);
    expect(r.out).toMatch(/K\s+together\s+Σ singles\s+random K\s+beats random\s+n\s+top-K/);
    expect(r.out).toMatch(/^\s+1\s+\d\.\d{4}\s+\d\.\d{4}\s+\d\.\d{4}\s+\d+%\s+6\s+TableQuery$/m);
    expect(r.out).toContain("K=1: Removing the top tool lowers the answer's log-likelihood");
    const check = ProjectStore.open(project).readFaithfulness('copy').checks[0]!;
    expect(check.points.map((p) => p.k)).toEqual([1, 2]);
    expect(check.points[0]!.joint).toBeGreaterThan(check.points[0]!.random);
  });

  it('says so when the model did not score the project', async () => {
    const r = await runCli(['faithfulness', '--project', project, '--model', join(project, 'project.json'), '--gpu', 'cpu']);
    expect(r.code).toBe(2);
    expect(r.err).toMatch(/not a readable GGUF|GGUF/);
  });
});
