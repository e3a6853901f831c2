// Jobs as the renderer sees them: scoring (the engine's ScoringQueue, one process per job) and budget
// sweeps (a sweep worker process), with progress, throughput, ETA, pause/resume/cancel and errors that
// say what to do. The service's own event loop only relays messages.
import { randomBytes } from 'node:crypto';
import { basename } from 'node:path';
import type { JobInfo, JobStatus } from '../../../shared/api/types';
import { ScoringQueue, type QueuedJob } from '../scoring/jobs/queue';
import type { JobState, ProjectStore } from '../store';
import { forkLauncher, workerEntry, type WorkerChannel, type WorkerLauncher } from '../workers/launcher';
import { startDownload, type DownloadHandle } from './download-job';
import type { SweepJobEvent, SweepJobSpec } from './sweep-job';

/** What to do about an expected failure, by code. */
const HINTS: Record<string, string> = {
  MODEL_NOT_FOUND: 'Check the path on the Models view (the file must be on the engine’s machine).',
  MODEL_CORRUPT: 'The file is not a complete GGUF model: download it again or pick another one.',
  MODEL_UNSUPPORTED: 'This architecture is not supported by the bundled llama.cpp: pick another model.',
  MODEL_DOES_NOT_FIT: 'Pick a smaller or more quantized model, or lower the context size.',
  GPU_UNAVAILABLE: 'Choose GPU “auto” or “CPU only” in the scoring form.',
  CONTEXT_OVERFLOW: 'A trace is longer than the model’s context: use a model with a longer context, or drop that trace.',
  WORKER_CRASHED: 'Start the job again: scores stored so far are kept and not recomputed.',
  PROJECT_LOCKED: 'Another process is writing to the project; wait for it to finish, then resume.',
  NOT_FOUND: 'Check the project: score it (or serve it, for a benchmark) first.',
  INVALID_INPUT: 'Check the job’s settings.',
  MODEL_MISMATCH: 'Pick the model file the run was scored with (its hash is part of the run), or score the task with this model first.',
  FORMAT_MISMATCH: 'The model now renders the traces differently from when the run was scored: score the task again.',
};

interface Sample {
  at: number;
  done: number;
}

/** Throughput over the last ~20 s of progress. */
class Rate {
  private samples: Sample[] = [];

  add(done: number): number | undefined {
    const at = Date.now();
    this.samples.push({ at, done });
    while (this.samples.length > 2 && at - this.samples[0]!.at > 20_000) this.samples.shift();
    const first = this.samples[0]!;
    const dt = (at - first.at) / 1000;
    return dt > 0.5 ? Math.max(0, (done - first.done) / dt) : undefined;
  }
}

interface SweepRun {
  info: JobInfo;
  child: WorkerChannel;
}

export interface JobCenterOptions {
  /** Workers' output is dropped instead of inherited (tests). */
  quiet?: boolean;
  /** How worker processes are started (default: child_process.fork; the desktop app: utilityProcess). */
  launcher?: WorkerLauncher;
}

export class JobCenter {
  private readonly queue: ScoringQueue;
  private readonly rates = new Map<string, Rate>();
  private readonly scoreInfo = new Map<string, JobInfo>();
  private readonly sweeps = new Map<string, SweepRun>();
  private readonly downloads = new Map<string, DownloadHandle>();
  /** Interrupted jobs found in the open project, resumable under their id. */
  private readonly interrupted = new Map<string, { state: JobState; info: JobInfo }>();

  private readonly launcher: WorkerLauncher;

  constructor(private readonly emit: (job: JobInfo) => void, options: JobCenterOptions = {}) {
    this.launcher = options.launcher ?? forkLauncher;
    this.queue = new ScoringQueue({ stdio: options.quiet ? 'ignore' : 'inherit', launcher: this.launcher });
    this.queue.on('update', (job) => this.emit(this.fromQueue(job)));
  }

  list(): JobInfo[] {
    return [...this.interrupted.values()].map((i) => i.info)
      .concat(this.queue.list().map((j) => this.scoreInfo.get(j.id) ?? this.fromQueue(j)), [...this.sweeps.values()].map((s) => s.info), [...this.downloads.values()].map((d) => d.info))
      .sort((a, b) => a.createdAt.localeCompare(b.createdAt));
  }

  /** A newly opened project: its interrupted scoring jobs appear as paused, ready to resume. */
  projectOpened(store: ProjectStore): void {
    this.interrupted.clear();
    for (const state of ScoringQueue.interrupted(store)) {
      if (this.queue.get(state.id)) continue;
      const options = state.options as { model?: string };
      this.interrupted.set(state.id, {
        state,
        info: {
          id: state.id, kind: 'score', title: `Score with ${basename(String(options.model ?? 'a model'))}`, status: 'paused', createdAt: state.createdAt, updatedAt: state.updatedAt,
          done: state.progress.done, total: state.progress.total, unit: 'traces', message: 'interrupted (the app or the engine stopped): resume to continue where it left off',
          canPause: false, canResume: true, canCancel: false,
        },
      });
    }
  }

  startScoring(spec: Parameters<ScoringQueue['enqueue']>[0]): JobInfo {
    return this.fromQueue(this.queue.enqueue(spec));
  }

  startSweep(spec: Omit<SweepJobSpec, 'jobId'>): JobInfo {
    const id = `sweep-${new Date().toISOString().replace(/[-:.TZ]/g, '').slice(0, 14)}-${randomBytes(3).toString('hex')}`;
    const now = new Date().toISOString();
    const info: JobInfo = {
      id, kind: 'sweep', title: `Budget sweep of ${spec.task}`, status: 'running', createdAt: now, updatedAt: now, done: 0, total: 0, unit: 'budgets',
      message: 'starting', canPause: false, canResume: false, canCancel: true,
    };
    const { entry, execArgv } = workerEntry(import.meta.url, 'sweep-worker');
    const child = this.launcher.launch(entry, execArgv, { name: 'budget sweep', stdio: 'inherit' });
    const run: SweepRun = { info, child };
    this.sweeps.set(id, run);
    const rate = new Rate();
    const update = (patch: Partial<JobInfo>) => {
      run.info = { ...run.info, ...patch, updatedAt: new Date().toISOString() };
      this.emit(run.info);
    };
    let ended = false;
    child.onMessage((message) => {
      const e = message as SweepJobEvent;
      if (e.type === 'progress') {
        const throughput = rate.add(e.done);
        update({ done: e.done, total: e.total, message: e.message, ...(throughput !== undefined ? { throughput, etaSeconds: throughput > 0 ? (e.total - e.done) / throughput : undefined } : {}) });
      } else if (e.type === 'finished') {
        ended = true;
        update({ status: e.status, message: e.message, done: e.status === 'done' ? run.info.total : run.info.done, etaSeconds: 0, canCancel: false });
      } else {
        ended = true;
        update({ status: 'failed', error: { ...e.error, ...(HINTS[e.error.code] ? { hint: HINTS[e.error.code] } : {}) }, canCancel: false });
      }
    });
    child.onExit((code, signal) => {
      if (ended) return;
      update({ status: 'failed', canCancel: false, error: { code: 'WORKER_CRASHED', message: `the sweep process stopped unexpectedly (${signal ?? `exit code ${code}`}); measured budgets are kept`, hint: HINTS.WORKER_CRASHED } });
    });
    child.send({ type: 'start', spec: { ...spec, jobId: id } });
    this.emit(info);
    return info;
  }

  startDownload(uri: string, dir: string): JobInfo {
    const id = `download-${new Date().toISOString().replace(/[-:.TZ]/g, '').slice(0, 14)}-${randomBytes(3).toString('hex')}`;
    const handle = startDownload(id, uri, dir, this.emit);
    this.downloads.set(id, handle);
    this.emit(handle.info);
    return handle.info;
  }

  pause(id: string): JobInfo {
    this.queue.pause(this.scoringId(id));
    return this.info(id);
  }

  resume(id: string): JobInfo {
    const interrupted = this.interrupted.get(id);
    if (interrupted) {
      this.interrupted.delete(id);
      return this.fromQueue(this.queue.resumeInterrupted(interrupted.state));
    }
    this.queue.resume(this.scoringId(id));
    return this.info(id);
  }

  cancel(id: string): JobInfo {
    const download = this.downloads.get(id);
    if (download) {
      download.cancel();
      return download.info;
    }
    const sweep = this.sweeps.get(id);
    if (sweep) {
      sweep.child.send({ type: 'cancel' });
      const timer = setTimeout(() => sweep.child.kill('SIGKILL'), 10_000);
      timer.unref();
      sweep.child.onExit(() => clearTimeout(timer));
      sweep.info = { ...sweep.info, message: 'cancelling after the budget being measured', canCancel: false };
      this.emit(sweep.info);
      return sweep.info;
    }
    this.queue.cancel(this.scoringId(id));
    return this.info(id);
  }

  /** Stop every worker (app quit). Stored scores and measured budgets are kept. */
  dispose(): void {
    for (const j of this.queue.list()) if (j.status === 'running' || j.status === 'queued' || j.status === 'paused') this.queue.cancel(j.id);
    for (const s of this.sweeps.values()) s.child.kill();
    for (const d of this.downloads.values()) if (d.info.status === 'running') d.cancel();
  }

  private info(id: string): JobInfo {
    const job = this.queue.get(id);
    if (job) return this.fromQueue(job);
    const sweep = this.sweeps.get(id);
    if (sweep) return sweep.info;
    const download = this.downloads.get(id);
    if (download) return download.info;
    throw Object.assign(new Error(`no job "${id}"`), { code: 'NOT_FOUND' });
  }

  private scoringId(id: string): string {
    if (this.sweeps.has(id) || this.downloads.has(id)) throw Object.assign(new Error('this job can be cancelled, not paused'), { code: 'INVALID_INPUT' });
    if (!this.queue.get(id)) throw Object.assign(new Error(`no job "${id}"`), { code: 'NOT_FOUND' });
    return id;
  }

  private fromQueue(job: QueuedJob): JobInfo {
    let rate = this.rates.get(job.id);
    if (!rate) this.rates.set(job.id, (rate = new Rate()));
    const p = job.progress;
    const throughput = p && job.status === 'running' ? rate.add(p.done) : undefined;
    const prev = this.scoreInfo.get(job.id);
    const status: JobStatus = job.status;
    // The scoring queue also runs faithfulness checks (same model, same one-at-a-time GPU use).
    const check = job.spec.check;
    const info: JobInfo = {
      id: job.id,
      kind: check ? 'faithfulness' : 'score',
      title: check
        ? `Faithfulness check of ${job.spec.tasks?.join(', ') ?? 'every task'} (K = ${check.ks.join(', ')})`
        : `Score with ${basename(job.spec.model)}${job.spec.tasks?.length ? ` · ${job.spec.tasks.join(', ')}` : ''} (${job.spec.intervention})`,
      ...(check && job.spec.tasks?.length === 1 ? { task: job.spec.tasks[0] } : {}),
      status,
      createdAt: job.createdAt,
      updatedAt: job.updatedAt,
      done: p?.done ?? 0,
      total: p?.total ?? 0,
      unit: check ? 'requests' : 'traces',
      ...(throughput !== undefined ? { throughput } : prev?.throughput !== undefined ? { throughput: prev.throughput } : {}),
      ...(p?.tokensPerSecond !== undefined ? { tokensPerSecond: p.tokensPerSecond } : {}),
      ...(p?.etaSeconds !== undefined ? { etaSeconds: p.etaSeconds } : {}),
      ...(p?.message !== undefined ? { message: p.message } : {}),
      ...(job.error ? { error: { ...job.error, ...(HINTS[job.error.code] ? { hint: HINTS[job.error.code] } : {}) } } : {}),
      canPause: status === 'running' || status === 'queued',
      canResume: status === 'paused',
      canCancel: status === 'running' || status === 'queued' || status === 'paused',
    };
    this.scoreInfo.set(job.id, info);
    return info;
  }
}
