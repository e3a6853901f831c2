// The job runtime without a model: a WorkerJob over a stand-in channel (one failure path for a crash, a
// kill and an exit without an outcome; cancel asks once, then kills once), JobControl (cancellation is
// an AbortSignal; pause holds until resume or cancel), and the one form of a job id.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { holdWhilePaused, JobControl } from '../../../electron/engine/jobs/control';
import { newJobId } from '../../../electron/engine/jobs/ids';
import type { WorkerChannel } from '../../../electron/engine/jobs/launcher';
import { WorkerJob } from '../../../electron/engine/jobs/process';
import type { JobEvent, JobRequest } from '../../../electron/engine/jobs/protocol';

/** A worker that does what the test says: deliver a message, exit. */
function fakeChannel() {
  let onMessage: (m: unknown) => void = () => undefined;
  let onExit: (code: number | null, signal: NodeJS.Signals | null) => void = () => undefined;
  const sent: unknown[] = [];
  const kills: Array<NodeJS.Signals | undefined> = [];
  let exited = false;
  const channel: WorkerChannel = {
    pid: 4242,
    get exited() {
      return exited;
    },
    send: (m) => {
      sent.push(m);
      return !exited;
    },
    onMessage: (l) => (onMessage = l),
    onExit: (l) => (onExit = l),
    kill: (signal) => {
      kills.push(signal);
    },
    stdout: null,
    stderr: null,
  };
  return {
    channel,
    sent,
    kills,
    deliver: (m: JobEvent) => onMessage(m),
    exit: (code: number | null, signal: NodeJS.Signals | null) => {
      exited = true;
      onExit(code, signal);
    },
  };
}

const score: JobRequest = { kind: 'score', spec: { jobId: 'score-1', project: '/p', model: '/m.gguf', intervention: 'line', span: 'answer', gpu: 'cpu' } };
const sweep: JobRequest = { kind: 'sweep', spec: { jobId: 'sweep-1', project: '/p', task: 't', model: '/m.gguf' } };
const progress = { done: 3, total: 10, scoredNow: 3, skipped: 0 };

afterEach(() => {
  vi.useRealTimers();
});

describe('WorkerJob', () => {
  it.each<[string, number | null, NodeJS.Signals | null, RegExp]>([
    ['killed by a signal', 0, 'SIGKILL', /signal SIGKILL/],
    ['a non-zero exit', 3, null, /exit code 3/],
    ['an exit with no outcome', 0, null, /exit code 0/],
  ])('%s is one failure: WORKER_CRASHED, with the last progress and what is kept', async (_what, code, signal, says) => {
    const w = fakeChannel();
    const job = new WorkerJob(score, w.channel);
    const events: JobEvent[] = [];
    job.on('event', (e) => events.push(e as JobEvent));
    w.deliver({ type: 'progress', progress });
    w.exit(code, signal);
    const outcome = await job.outcome;
    expect(outcome).toMatchObject({ status: 'failed', progress, error: { code: 'WORKER_CRASHED' } });
    expect(outcome.error!.message).toMatch(says);
    expect(outcome.error!.message).toContain('scores stored so far are kept');
    expect(job.status).toBe('failed');
    expect(events.at(-1)).toEqual({ type: 'failed', error: outcome.error, progress });
  });

  it('a sweep that dies says what a sweep keeps', async () => {
    const w = fakeChannel();
    const job = new WorkerJob(sweep, w.channel);
    w.exit(null, 'SIGSEGV');
    expect((await job.outcome).error).toEqual({
      code: 'WORKER_CRASHED',
      message: 'the sweep process stopped unexpectedly (signal SIGSEGV); measured budgets are kept',
    });
  });

  it('an outcome reported before the exit is the outcome, whatever the exit', async () => {
    const w = fakeChannel();
    const job = new WorkerJob(score, w.channel);
    w.deliver({ type: 'failed', error: { code: 'MODEL_CORRUPT', message: 'bad file' }, progress });
    w.exit(0, null);
    expect(await job.outcome).toEqual({ status: 'failed', progress, error: { code: 'MODEL_CORRUPT', message: 'bad file' } });
    const done = fakeChannel();
    const second = new WorkerJob(score, done.channel);
    done.deliver({ type: 'finished', status: 'cancelled', progress });
    done.exit(null, 'SIGKILL');
    expect(await second.outcome).toEqual({ status: 'cancelled', progress });
  });

  it('cancel asks the worker, then kills it once if it lingers; an exit in time cancels the kill', async () => {
    vi.useFakeTimers();
    const lingering = fakeChannel();
    const job = new WorkerJob(score, lingering.channel);
    job.cancel(1000);
    job.cancel(1000);
    expect(lingering.sent).toEqual([{ type: 'cancel' }, { type: 'cancel' }]);
    vi.advanceTimersByTime(999);
    expect(lingering.kills).toEqual([]);
    vi.advanceTimersByTime(1);
    expect(lingering.kills).toEqual(['SIGKILL']);
    vi.advanceTimersByTime(10_000);
    expect(lingering.kills).toEqual(['SIGKILL']);

    const prompt = fakeChannel();
    const other = new WorkerJob(score, prompt.channel);
    other.cancel(1000);
    prompt.deliver({ type: 'finished', status: 'cancelled', progress });
    prompt.exit(0, null);
    vi.advanceTimersByTime(5000);
    expect(prompt.kills).toEqual([]);
    expect(await other.outcome).toMatchObject({ status: 'cancelled' });
  });

  it('tracks status and progress from the events, and relays pause and resume', () => {
    const w = fakeChannel();
    const job = new WorkerJob(score, w.channel);
    expect(job.id).toBe('score-1');
    job.pause();
    w.deliver({ type: 'status', status: 'paused' });
    expect(job.status).toBe('paused');
    job.resume();
    w.deliver({ type: 'status', status: 'running' });
    w.deliver({ type: 'progress', progress });
    expect(job.status).toBe('running');
    expect(job.progress).toEqual(progress);
    expect(w.sent).toEqual([{ type: 'pause' }, { type: 'resume' }]);
  });
});

describe('JobControl', () => {
  it('cancel aborts its signal, also while paused, and ends the wait', async () => {
    const control = new JobControl();
    control.pause();
    expect(control.stopRequested).toBe('pause');
    const waited = control.waitWhilePaused();
    control.cancel();
    expect(await waited).toBe('cancel');
    expect(control.signal.aborted).toBe(true);
    expect((control.signal.reason as { code: string }).code).toBe('CANCELLED');
    expect(control.stopRequested).toBe('cancel');
    control.pause(); // too late: a cancelled job stays cancelled
    expect(control.stopRequested).toBe('cancel');
  });

  it('a paused job records and says so, holds until resumed, then says it runs again', async () => {
    const control = new JobControl();
    const persisted: string[] = [];
    const said: string[] = [];
    control.pause();
    const held = holdWhilePaused(
      control,
      {},
      (s) => persisted.push(s),
      (e) => said.push(e.status),
    );
    // Holding: the job said `paused` and nothing more until the resume below.
    await Promise.resolve();
    expect(said).toEqual(['paused']);
    control.resume();
    expect(await held).toBe(true);
    expect(persisted).toEqual(['paused', 'running']);
    expect(said).toEqual(['paused', 'running']);
    expect(control.signal.aborted).toBe(false);
  });
});

describe('job ids', () => {
  it('name the kind and the start time, and differ', () => {
    const a = newJobId('sweep');
    expect(a).toMatch(/^sweep-\d{14}-[0-9a-f]{6}$/);
    expect(newJobId('sweep')).not.toBe(a);
  });
});
