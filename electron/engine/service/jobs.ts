// Jobs as the renderer sees them: scoring (the engine's ScoringQueue, one process per job) and budget
// sweeps (a sweep worker process), with progress, throughput, ETA, pause/resume/cancel and errors that
// say what to do. The service's own event loop only relays messages.
import { randomBytes } from 'node:crypto';
import { basename } from 'node:path';
import { ERROR_HINTS as HINTS } from '../../../shared/api/errors';
import type { JobInfo, JobStatus } from '../../../shared/api/types';
import { ScoringQueue, type QueuedJob } from '../scoring/jobs/queue';
import { scoreKey } from '../scoring/keys';
import type { JobState, ProjectStore } from '../store';
import { forkLauncher, workerEntry, type WorkerChannel, type WorkerLauncher } from '../workers/launcher';
import { startDownload, type DownloadHandle } from './download-job';
import { startImportJob, type ImportJobHandle } from './import-job';
import type { SweepJobEvent, SweepJobSpec } from './sweep-job';
import { ExpectedError } from '../../../shared/api/errors';

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
  private readonly imports = new Map<string, ImportJobHandle>();
  /** Interrupted jobs found in the open project, resumable under their id. */
  private readonly interrupted = new Map<string, { state: JobState; info: JobInfo; store: ProjectStore }>();

  private readonly launcher: WorkerLauncher;

  constructor(private readonly emit: (job: JobInfo) => void, options: JobCenterOptions = {}) {
    this.launcher = options.launcher ?? forkLauncher;
    this.queue = new ScoringQueue({ stdio: options.quiet ? 'ignore' : 'inherit', launcher: this.launcher });
    this.queue.on('update', (job) => this.emit(this.fromQueue(job)));
  }

  list(): JobInfo[] {
    return [...this.interrupted.values()].map((i) => i.info)
      .concat(this.queue.list().map((j) => this.scoreInfo.get(j.id) ?? this.fromQueue(j)), [...this.sweeps.values()].map((s) => s.info), [...this.downloads.values()].map((d) => d.info), [...this.imports.values()].map((i) => i.info))
      .sort((a, b) => a.createdAt.localeCompare(b.createdAt));
  }

  /**
   * A newly opened project. A job whose state file says it was running (or paused, or queued) but whose
   * process is gone — the host or the CLI was killed — is not running: when its work is in fact complete
   * (every trace it had to score is stored), its state becomes "done"; otherwise it is listed as
   * "interrupted", to resume where it left off or to dismiss.
   */
  projectOpened(store: ProjectStore): void {
    this.interrupted.clear();
    for (const state of ScoringQueue.interrupted(store)) {
      if (this.queue.get(state.id)) continue;
      const scored = scoredOf(store, state);
      const options = state.options as { model?: string };
      if (scored !== undefined && state.progress.total > 0 && scored >= state.progress.total) {
        const message = `done: all ${state.progress.total} traces are scored (the process that ran the job${state.pid ? `, pid ${state.pid},` : ''} stopped before it could record that)`;
        try {
          store.writeJob({ ...state, status: 'done', updatedAt: new Date().toISOString(), progress: { done: state.progress.total, total: state.progress.total, message } });
        } catch {
          /* a read-only project: it is still not offered for resumption */
        }
        continue;
      }
      const done = scored ?? state.progress.done;
      this.interrupted.set(state.id, {
        state,
        store,
        info: {
          id: state.id, kind: 'score', title: `Score with ${basename(String(options.model ?? 'a model'))}`, status: 'interrupted', createdAt: state.createdAt, updatedAt: state.updatedAt,
          done, total: state.progress.total, unit: 'traces',
          message: `interrupted: the process running it${state.pid ? ` (pid ${state.pid})` : ''} stopped (the app, the engine or \`lots score\` was closed or killed) with ${done} of ${state.progress.total} traces scored; resume to continue where it left off, or dismiss it`,
          canPause: false, canResume: true, canCancel: true,
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

  /** An import of the API as a job (progress, what it waits for, cancel); `signal` also cancels it. */
  startImport(names: readonly string[], signal?: AbortSignal): ImportJobHandle {
    const handle = startImportJob(names, this.emit, signal);
    this.imports.set(handle.info.id, handle);
    return handle;
  }

  pause(id: string): JobInfo {
    if (this.interrupted.has(id)) throw new ExpectedError('INVALID_INPUT', 'this job was interrupted: resume it, or dismiss it');
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
    const interrupted = this.interrupted.get(id);
    if (interrupted) {
      // Dismissed: its state file says so, and the scores it stored are kept.
      this.interrupted.delete(id);
      const message = `dismissed after it was interrupted (${interrupted.info.done} of ${interrupted.info.total} traces scored; those scores are kept)`;
      interrupted.store.writeJob({ ...interrupted.state, status: 'cancelled', updatedAt: new Date().toISOString(), progress: { ...interrupted.state.progress, message } });
      const info: JobInfo = { ...interrupted.info, status: 'cancelled', updatedAt: new Date().toISOString(), message, canResume: false, canCancel: false };
      this.emit(info);
      return info;
    }
    const download = this.downloads.get(id);
    if (download) {
      download.cancel();
      return download.info;
    }
    const imported = this.imports.get(id);
    if (imported) {
      if (imported.info.status === 'running') imported.cancel();
      return imported.info;
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
    for (const i of this.imports.values()) if (i.info.status === 'running') i.cancel();
  }

  private info(id: string): JobInfo {
    const job = this.queue.get(id);
    if (job) return this.fromQueue(job);
    const sweep = this.sweeps.get(id);
    if (sweep) return sweep.info;
    const download = this.downloads.get(id);
    if (download) return download.info;
    const imported = this.imports.get(id);
    if (imported) return imported.info;
    throw new ExpectedError('NOT_FOUND', `no job "${id}"`);
  }

  private scoringId(id: string): string {
    if (this.sweeps.has(id) || this.downloads.has(id) || this.imports.has(id)) throw new ExpectedError('INVALID_INPUT', 'this job can be cancelled, not paused');
    if (!this.queue.get(id)) throw new ExpectedError('NOT_FOUND', `no job "${id}"`);
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

/**
 * How many of the traces a score job was given hold a score from a run the job could have written (same
 * model file, intervention and span): the most of any such run. Undefined for other jobs.
 */
function scoredOf(store: ProjectStore, state: JobState): number | undefined {
  if (state.kind !== 'score') return undefined;
  const o = state.options as { model?: unknown; intervention?: unknown; span?: unknown; tasks?: unknown; format?: unknown };
  if (typeof o.model !== 'string') return undefined;
  const runs = new Set<string>();
  for (const r of store.listScores()) {
    if (r.model === o.model && r.intervention === o.intervention && r.span === o.span && (o.format === undefined || o.format === 'auto' || (o.format === 'plain') === (r.format === 'plain'))) runs.add(r.run);
  }
  const tasks = Array.isArray(o.tasks) && o.tasks.length > 0 ? new Set(o.tasks as string[]) : undefined;
  let best = 0;
  for (const run of runs) {
    let n = 0;
    for (const info of store.traceInfos()) {
      if (tasks && !(info.task !== undefined && tasks.has(info.task))) continue;
      if (store.hasScore(scoreKey(run, store.getTraceHash(info.id)!))) n++;
    }
    best = Math.max(best, n);
  }
  return best;
}
