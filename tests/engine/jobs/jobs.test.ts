// Scoring jobs run in their own process: the caller stays responsive, pause / resume / cancel work,
// and a `lots score` killed with SIGKILL midway resumes with every score stored exactly once.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { ProjectStore } from '../../../electron/engine/store';
import { newJobId } from '../../../electron/engine/jobs/ids';
import { startJob, type StartOptions } from '../../../electron/engine/jobs/process';
import { ScoringQueue, type QueuedJob } from '../../../electron/engine/jobs/queue';
import type { JobEvent, ScoreJobSpec } from '../../../electron/engine/jobs/protocol';
import { multiTurnTraces, singleStepTraces } from '../../../electron/engine/scoring/synthetic-traces';
import { evidenceCopyModel } from '../fixtures';
import { readScoreLines } from '../fixtures';
import { alive } from '../../processes';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');
const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

function project(traceCount: number): string {
  const dir = mkdtempSync(join(tmpdir(), 'lots-jobs-'));
  dirs.push(dir);
  const store = ProjectStore.create(dir);
  store.addTraces([...singleStepTraces({ count: traceCount, tools: 8, seed: 5 }), ...multiTurnTraces({ count: 2, tools: 4, seed: 5 })], 'synthetic');
  return dir;
}

const scoreLines = (dir: string) => readScoreLines<{ key: string; trace: string; createdAt: string }>(dir);

function spec(dir: string, over: Partial<ScoreJobSpec> = {}): ScoreJobSpec {
  return { jobId: newJobId('score'), project: dir, model: evidenceCopyModel(), intervention: 'line', span: 'answer', gpu: 'cpu', ...over };
}

const startScoreJob = (s: ScoreJobSpec, options?: StartOptions) => startJob({ kind: 'score', spec: s }, options);

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function waitFor(check: () => boolean, what: string, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(25);
  }
}

function lots(args: string[]): {
  done: Promise<{ code: number | null; signal: NodeJS.Signals | null; out: string; err: string }>;
  pid: number;
  kill: (s: NodeJS.Signals) => void;
} {
  const child = spawn(process.execPath, [join(ROOT, 'bin/lots.mjs'), ...args], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  child.stdout.on('data', (d) => (out += d));
  child.stderr.on('data', (d) => (err += d));
  const done = new Promise<{ code: number | null; signal: NodeJS.Signals | null; out: string; err: string }>((r) =>
    child.on('exit', (code, signal) => r({ code, signal, out, err })),
  );
  return { done, pid: child.pid!, kill: (s) => child.kill(s) };
}

describe('lots score', () => {
  it('killed with SIGKILL midway, a rerun completes with every score present exactly once', async () => {
    const dir = project(40);
    const total = ProjectStore.open(dir).traceCount;
    const first = lots(['score', '--project', dir, '--model', evidenceCopyModel(), '--gpu', 'cpu', '--intervention', 'line']);
    await waitFor(() => scoreLines(dir).length >= 3, 'the first scores');
    first.kill('SIGKILL');
    const killed = await first.done;
    expect(killed.signal).toBe('SIGKILL');
    // The worker notices its parent is gone and exits too (no orphan keeps writing).
    const worker = ProjectStore.open(dir).listJobs()[0]!;
    await waitFor(() => !alive(worker.pid!), 'the worker to exit', 15_000);
    const before = scoreLines(dir);
    expect(before.length).toBeLessThan(total);

    const second = lots(['score', '--project', dir, '--model', evidenceCopyModel(), '--gpu', 'cpu', '--intervention', 'line']);
    const result = await second.done;
    expect(result.code, result.err).toBe(0);
    const after = scoreLines(dir);
    expect(after).toHaveLength(total);
    expect(new Set(after.map((r) => r.key)).size).toBe(total);
    expect(new Set(after.map((r) => r.trace)).size).toBe(total);
    // Nothing scored before the kill was computed again: those records are untouched, and the rerun
    // says how many it skipped.
    expect(after.slice(0, before.length)).toEqual(before);
    expect(result.out).toContain(`${total - before.length} scored now, ${before.length} already scored, ${total}/${total} in the project`);
  });

  it('reports a missing model and a corrupt one as errors, exit code 2', async () => {
    const dir = project(1);
    const missing = await lots(['score', '--project', dir, '--model', join(dir, 'nope.gguf')]).done;
    expect(missing.code).toBe(2);
    expect(missing.err).toMatch(/lots score: model file not found: .*nope\.gguf/);
    const corrupt = await lots(['score', '--project', dir, '--model', join(dir, 'project.json')]).done;
    expect(corrupt.code).toBe(2);
    expect(corrupt.err).toMatch(/not a readable GGUF/);
  });
});

describe('scoring jobs in their own process', () => {
  it('never block the caller: its event loop keeps running while a job scores', async () => {
    const dir = project(12);
    let ticks = 0;
    const timer = setInterval(() => ticks++, 5);
    const job = startScoreJob(spec(dir), { stdio: 'ignore' });
    const events: JobEvent[] = [];
    let ticksAtFirstScore = -1;
    job.on('event', (e) => {
      events.push(e);
      if (e.type === 'progress' && e.progress.scoredNow === 1) ticksAtFirstScore = ticks;
    });
    const outcome = await job.outcome;
    clearInterval(timer);
    expect(outcome.status).toBe('done');
    expect(job.pid).not.toBe(process.pid);
    // Progress streamed while the work happened elsewhere, and the caller kept ticking meanwhile.
    // One progress event per trace scored; between them, progress inside the trace in flight (issue 43).
    expect(events.filter((e) => e.type === 'progress' && e.progress.scoredNow > 0 && !e.progress.inFlight).length).toBe(ProjectStore.open(dir).traceCount);
    for (const e of events)
      if (e.type === 'progress' && e.progress.inFlight) expect(e.progress.inFlight.sequencesDone).toBeLessThanOrEqual(e.progress.inFlight.sequences);
    expect(ticks - ticksAtFirstScore).toBeGreaterThan(0);
    const last = outcome.progress!;
    expect(last.tokensPerSecond).toBeGreaterThan(0);
    expect(last.etaSeconds).toBe(0);
    expect(ProjectStore.open(dir).listJobs()[0]).toMatchObject({ status: 'done', progress: { done: last.total, total: last.total } });
  });

  it('pause stops taking traces until resume; cancel stops and keeps what was scored', async () => {
    const dir = project(16);
    const total = ProjectStore.open(dir).traceCount;
    const job = startScoreJob(spec(dir), { stdio: 'ignore' });
    const events: JobEvent[] = [];
    let paused = false;
    let scoresAtResume = -1;
    job.on('event', (e) => {
      events.push(e);
      if (e.type === 'progress' && e.progress.scoredNow === 2 && !paused) {
        paused = true;
        job.pause();
      }
      // The worker says `running` again once it has taken the resume, before it scores anything more.
      if (e.type === 'status' && e.status === 'running' && paused && scoresAtResume < 0) scoresAtResume = scoreLines(dir).length;
    });
    await waitFor(() => job.status === 'paused', 'the job to pause');
    const pausedAt = events.length;
    const atPause = scoreLines(dir).length;
    expect(atPause).toBeLessThan(total);
    expect(ProjectStore.open(dir).readJob(job.spec.jobId)!.status).toBe('paused');
    // While it holds, a whole other job runs start to finish: the paused one says and stores nothing meanwhile.
    const other = await startScoreJob(spec(project(2)), { stdio: 'ignore' }).outcome;
    expect(other.status).toBe('done');
    expect(events.slice(pausedAt - 1)).toEqual([{ type: 'status', status: 'paused' }]);
    expect(scoreLines(dir).length).toBe(atPause);
    job.resume();
    await waitFor(() => scoreLines(dir).length > atPause, 'scoring to resume');
    expect(events[pausedAt]).toEqual({ type: 'status', status: 'running' });
    expect(scoresAtResume).toBe(atPause);
    job.cancel();
    const outcome = await job.outcome;
    expect(outcome.status).toBe('cancelled');
    const kept = scoreLines(dir);
    expect(kept.length).toBeGreaterThan(atPause);
    expect(kept.length).toBeLessThan(total);
    expect(new Set(kept.map((r) => r.key)).size).toBe(kept.length);
    expect(ProjectStore.open(dir).readJob(job.spec.jobId)!.status).toBe('cancelled');
  });

  it('a job with a corrupt model fails with its code, recorded in the job state', async () => {
    const dir = project(1);
    const job = startScoreJob(spec(dir, { model: join(dir, 'project.json') }), { stdio: 'ignore' });
    const outcome = await job.outcome;
    expect(outcome).toMatchObject({ status: 'failed', error: { code: 'MODEL_CORRUPT' } });
    expect(ProjectStore.open(dir).readJob(job.spec.jobId)).toMatchObject({ status: 'failed', error: { code: 'MODEL_CORRUPT' } });
  });

  it('a worker killed mid-job is found as interrupted and resumed by the queue under the same id', async () => {
    const dir = project(30);
    const total = ProjectStore.open(dir).traceCount;
    const job = startScoreJob(spec(dir), { stdio: 'ignore' });
    await waitFor(() => scoreLines(dir).length >= 2, 'the first scores');
    job.kill('SIGKILL');
    const crashed = await job.outcome;
    expect(crashed).toMatchObject({ status: 'failed', error: { code: 'WORKER_CRASHED' } });
    const partial = scoreLines(dir).length;
    expect(partial).toBeLessThan(total);

    const interrupted = ScoringQueue.interrupted(ProjectStore.open(dir));
    expect(interrupted.map((j) => j.id)).toEqual([job.spec.jobId]);
    const queue = new ScoringQueue({ stdio: 'ignore' });
    const updates: QueuedJob['status'][] = [];
    queue.on('update', (j) => updates.push(j.status));
    const resumed = queue.resumeInterrupted(interrupted[0]!);
    const other = queue.enqueue({ kind: 'score', spec: spec(project(2)) });
    expect(resumed.id).toBe(job.spec.jobId);
    expect(queue.get(other.id)!.status).toBe('queued'); // one job at a time
    await queue.idle();
    expect(queue.get(resumed.id)).toMatchObject({ status: 'done', progress: { done: total, total, skipped: partial, scoredNow: total - partial } });
    expect(queue.get(other.id)!.status).toBe('done');
    expect(updates).toContain('running');
    const all = scoreLines(dir);
    expect(all).toHaveLength(total);
    expect(new Set(all.map((r) => r.key)).size).toBe(total);
    expect(ScoringQueue.interrupted(ProjectStore.open(dir))).toEqual([]);
  });
});
