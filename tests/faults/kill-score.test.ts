// Fault suite: kill -9 of a scoring job at randomised points (N = 20): during start-up, or after a random
// number of traces were scored, a random moment later. After every kill the scores file holds each score
// once (a torn last line is cut by the next writer), no score the job reported as stored is missing, and
// the job's state on the next open is honest: "done" when its work is in fact complete (never offered for
// resumption), "interrupted" with the stored count otherwise. A last run finishes the project.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ProjectStore } from '../../electron/engine/store';
import { StudioService } from '../../electron/engine/api';
import { ensureFixtureModel } from '../../electron/engine/gguf/fixture-cache';
import type { JobEvent } from '../../electron/engine/jobs/protocol';
import { makeLineTraces } from '../e2e/fixtures';
import { recordFaults } from './fault-tally';
import { faultRandom, runChild, type ChildRun } from './kill';

const N = 20;
const TRACES = 80;

let dir: string;
let project: string;
let model: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'lots-kill-score-'));
  project = join(dir, 'p');
  ProjectStore.create(project).addTraces(makeLineTraces({ task: 'fx', requests: TRACES, tools: 5, exposed: 4, seed: 1 }), 'gen.jsonl');
  model = ensureFixtureModel(join(tmpdir(), 'lots-fixtures'), { kind: 'random' });
}, 120_000);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function events(run: ChildRun): JobEvent[] {
  return run.stdout
    .split('\n')
    .slice(0, -1)
    .map((l) => JSON.parse(l) as JobEvent);
}

/** Score lines on disk by key (complete lines only) and whether a torn last line is there. */
function scoreLines(): { byKey: Map<string, number>; torn: boolean } {
  let text = '';
  try {
    text = readFileSync(join(project, 'scores.jsonl'), 'utf8');
  } catch {
    return { byKey: new Map(), torn: false };
  }
  const lines = text.split('\n');
  const torn = lines.pop() !== '';
  const byKey = new Map<string, number>();
  for (const l of lines) {
    const key = (JSON.parse(l) as { key: string }).key;
    byKey.set(key, (byKey.get(key) ?? 0) + 1);
  }
  return { byKey, torn };
}

const score = (jobId: string, kill?: Parameters<typeof runChild>[1]) =>
  runChild(['--import', 'tsx', 'tests/faults/children/score.ts', project, model, jobId], kill);

describe('kill -9 during scoring', () => {
  it(`loses no stored score, duplicates none and never reports a false state over ${N} kills`, async () => {
    const random = faultRandom('scoring');
    const service = new StudioService({ transport: 'web', configDir: mkdtempSync(join(dir, 'cfg-')), quietWorkers: true });
    let injected = 0;
    let recovered = 0;
    let lost = 0;
    let falseSuccesses = 0;
    try {
      for (let i = 0; i < N; i++) {
        const jobId = `score-kill-${String(i).padStart(2, '0')}`;
        const afterScores = Math.floor(random() * 4);
        const run =
          random() < 0.3
            ? await score(jobId, { delayMs: Math.floor(random() * 2000) })
            : await score(jobId, {
                onLine: (line) =>
                  (JSON.parse(line) as JobEvent).type === 'progress' &&
                  (JSON.parse(line) as { progress: { scoredNow: number } }).progress.scoredNow >= afterScores,
                graceMs: Math.floor(random() * 80),
              });
        const seen = events(run);
        const reported = Math.max(0, ...seen.flatMap((e) => (e.type === 'progress' || e.type === 'finished' ? [e.progress.done] : [])));
        const finished = seen.some((e) => e.type === 'finished' && e.status === 'done');
        if (run.killed) injected++;
        else expect(run.code, run.stderr).toBe(0);

        const { byKey } = scoreLines();
        const stored = byKey.size;
        const duplicated = [...byKey.values()].filter((n) => n > 1).length;
        lost += Math.max(0, reported - stored);
        if (finished && stored < TRACES) falseSuccesses++;

        // What the next open says about the job.
        await service.openProject({ dir: project });
        const listed = (await service.listJobs()).find((j) => j.id === jobId);
        const state = ProjectStore.open(project).readJob(jobId);
        // Complete: "done", not offered. Else: never "running" or "paused", but "interrupted" with what is stored.
        let honest: boolean;
        if (stored === TRACES) honest = listed === undefined && (state === undefined || state.status === 'done');
        else if (state === undefined)
          honest = listed === undefined; // killed before it wrote its state
        else if (state.status === 'done') honest = false;
        else honest = listed?.status === 'interrupted' && listed.done === stored && listed.canResume && listed.canCancel;
        if (!honest) {
          falseSuccesses++;
          console.error(`job ${jobId}: ${stored}/${TRACES} stored, state ${JSON.stringify(state)}, listed ${JSON.stringify(listed)}`);
        }
        if (run.killed && honest && duplicated === 0 && reported <= stored) recovered++;
        expect(duplicated).toBe(0);
      }

      const last = await score('score-kill-last');
      expect(last.code, last.stderr).toBe(0);
      expect(events(last).at(-1)).toMatchObject({ type: 'finished', status: 'done' });
      const { byKey, torn } = scoreLines();
      lost += TRACES - byKey.size;
      recordFaults({ injected, recovered, lost, duplicated: [...byKey.values()].filter((n) => n > 1).length, falseSuccesses });
      expect(injected).toBeGreaterThan(0);
      expect(lost).toBe(0);
      expect(falseSuccesses).toBe(0);
      expect(byKey.size).toBe(TRACES);
      expect([...byKey.values()].every((n) => n === 1)).toBe(true);
      expect(torn).toBe(false);
      expect(ProjectStore.open(project).listScores()).toHaveLength(TRACES);
    } finally {
      service.dispose();
    }
  }, 300_000);
});
