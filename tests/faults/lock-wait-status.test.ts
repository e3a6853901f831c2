// Issue 13 #7 (rest): a scoring job whose writes meet another writer's project lock used to fail with
// PROJECT_LOCKED after 15 s. It now waits, and says so where the user looks — the job's status in the
// Studio, a line of `lots score` — naming the holder (pid, what it does, since when) and the limit; when
// the holder is done, the job goes on and finishes.
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { JobInfo } from '../../shared/api/types';
import { ProjectStore } from '../../electron/engine/store';
import { StudioService } from '../../electron/engine/api';
import { ensureFixtureModel } from '../../electron/engine/gguf/fixture-cache';
import { makeLineTraces } from '../e2e/fixtures';
import { runChild } from './kill';

let dir: string;
let project: string;
let holder: ChildProcess;
let lock: string;
const SINCE = '2026-12-01T10:00:00.000Z';

beforeEach(async () => {
  dir = mkdtempSync(join(tmpdir(), 'lots-lock-status-'));
  project = join(dir, 'p');
  ProjectStore.create(project).addTraces(makeLineTraces({ task: 'fx', requests: 6, tools: 4, seed: 3 }), 'gen.jsonl');
  holder = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 120_000)'], { stdio: 'ignore' });
  await new Promise((r) => holder.once('spawn', r));
  lock = join(project, '.lock');
  writeFileSync(lock, JSON.stringify({ pid: holder.pid, host: hostname(), since: SINCE, purpose: 'import big.jsonl' }));
});
afterEach(() => {
  holder.kill('SIGKILL');
  rmSync(dir, { recursive: true, force: true });
});

const model = (): string => ensureFixtureModel(join(tmpdir(), 'lots-fixtures'), { kind: 'random' });
const waitingLine = (pid: number) =>
  new RegExp(`waiting for the project lock: process ${pid} on .* \\(import big\\.jsonl, since ${SINCE.replace(/[.]/g, '\\.')}\\) .*will wait up to 2 min`);

describe('a scoring job waits for the project lock, visibly', () => {
  it('in the Studio: the job status names the holder and the limit, then the job finishes', async () => {
    const saved = process.env.LOTS_LOCK_WAIT_S;
    process.env.LOTS_LOCK_WAIT_S = '120'; // inherited by the job's worker process
    const service = new StudioService({ transport: 'web', configDir: mkdtempSync(join(dir, 'cfg-')), quietWorkers: true });
    try {
      await service.openProject({ dir: project });
      const updates: JobInfo[] = [];
      const waiting = new Promise<JobInfo>((resolve) =>
        service.onJobUpdate((job) => {
          updates.push(job);
          if (job.message?.includes('waiting for the project lock')) resolve(job);
        }),
      );
      const job = await service.startScoring({ model: model(), intervention: 'line', gpu: 'cpu' });
      const seen = await waiting;
      expect(seen.status).toBe('running');
      expect(seen.message).toMatch(waitingLine(holder.pid!));
      expect((await service.listJobs()).find((j) => j.id === job.id)?.message).toMatch(/waiting for the project lock/);
      unlinkSync(lock); // the other writer is done
      const done = new Promise<JobInfo>((resolve) =>
        service.onJobUpdate((j) => j.id === job.id && (j.status === 'done' || j.status === 'failed') && resolve(j)),
      );
      expect(await done).toMatchObject({ status: 'done', done: 6, total: 6 });
      expect(ProjectStore.open(project).listScores()).toHaveLength(6);
    } finally {
      service.dispose();
      if (saved === undefined) delete process.env.LOTS_LOCK_WAIT_S;
      else process.env.LOTS_LOCK_WAIT_S = saved;
    }
  }, 120_000);

  it('in `lots score`: a line names the holder and the limit, then the command finishes', async () => {
    let released = false;
    const run = await runChild(['bin/lots.mjs', 'score', '--project', project, '--model', model(), '--intervention', 'line', '--gpu', 'cpu'], {
      onLine: (line) => {
        if (!released && line.includes('waiting for the project lock')) {
          released = true;
          unlinkSync(lock);
        }
        return false;
      },
      env: { LOTS_LOCK_WAIT_S: '120' },
    });
    expect(run.code, run.stderr).toBe(0);
    expect(released).toBe(true);
    expect(run.stdout).toMatch(waitingLine(holder.pid!));
    expect(run.stdout).toMatch(/6 scored now/);
    expect(existsSync(lock)).toBe(false);
  }, 120_000);
});
