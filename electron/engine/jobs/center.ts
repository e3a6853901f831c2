// Jobs as the renderer sees them: scoring and faithfulness checks (the ScoringQueue), budget sweeps and
// demos (a job worker each; demos in demo-runs.ts), model downloads and imports (in this process), with progress, throughput, ETA,
// pause/resume/cancel and errors that say what to do. The service's own event loop only relays messages.
import { basename } from 'node:path';
import type { JobInfo, JobStatus } from '../../../shared/api/types';
import { scoreKey } from '../scoring/keys';
import type { JobState, ProjectStore } from '../store';
import { DemoRuns } from './demo-runs';
import { startDownload } from './download-job';
import { withHint } from './failure';
import type { JobHandle } from './handle';
import { newJobId, patchJobInfo, startingJobInfo } from './ids';
import { startImportJob, type ImportJobHandle } from './import-job';
import { forkLauncher, type WorkerLauncher } from './launcher';
import { startJob, type WorkerJob } from './process';
import type { DemoJobSpec, FaithfulnessJobSpec, ScoreJobSpec, SweepJobSpec } from './protocol';
import { DEFAULT_FAITHFULNESS_SEED } from './faithfulness-job';
import { UNROUTED } from '../../../shared/lots/aggregate';
import { ScoringQueue, type QueuedJob } from './queue';

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
  job: WorkerJob<{ kind: 'sweep'; spec: SweepJobSpec }>;
}

export interface JobCenterOptions {
  /** Workers' output is dropped instead of inherited (tests). */
  quiet?: boolean;
  /** How worker processes are started (default: child_process.fork; the desktop app: utilityProcess). */
  launcher?: WorkerLauncher;
  /** Where demo jobs record their state, so one interrupted by a restart is offered for resumption (the user's data folder). */
  demoStateDir?: string;
  /** Refuses a model file an interrupted job would be resumed with (`lots ui --root`: OUTSIDE_ROOT). */
  checkModel?: (model: string, what: string) => void;
}

export class JobCenter {
  private readonly queue: ScoringQueue;
  private readonly rates = new Map<string, Rate>();
  private readonly scoreInfo = new Map<string, JobInfo>();
  private readonly sweeps = new Map<string, SweepRun>();
  /** Jobs that run in this process (model downloads, imports): cancel only. */
  private readonly local = new Map<string, JobHandle & { info: JobInfo }>();
  /** Interrupted jobs found in the open project, resumable under their id. */
  private readonly interrupted = new Map<string, { state: JobState; info: JobInfo; store: ProjectStore }>();

  private readonly launcher: WorkerLauncher;
  private readonly demos: DemoRuns;
  private readonly checkModel: NonNullable<JobCenterOptions['checkModel']>;

  constructor(
    private readonly emit: (job: JobInfo) => void,
    options: JobCenterOptions = {},
  ) {
    this.launcher = options.launcher ?? forkLauncher;
    this.checkModel = options.checkModel ?? (() => undefined);
    this.queue = new ScoringQueue({ stdio: options.quiet ? 'ignore' : 'inherit', launcher: this.launcher });
    this.queue.on('update', (job) => this.emit(this.fromQueue(job)));
    this.demos = new DemoRuns(emit, {
      launcher: this.launcher,
      stdio: options.quiet ? 'ignore' : 'inherit',
      ...(options.demoStateDir ? { stateDir: options.demoStateDir } : {}),
    });
  }

  list(): JobInfo[] {
    return [...this.interrupted.values()]
      .map((i) => i.info)
      .concat(
        this.queue.list().map((j) => this.scoreInfo.get(j.id) ?? this.fromQueue(j)),
        [...this.sweeps.values()].map((s) => s.info),
        [...this.local.values()].map((l) => l.info),
        this.demos.list(),
      )
      .sort((a, b) => a.createdAt.localeCompare(b.createdAt));
  }

  /**
   * A newly opened project. A job of the scoring queue (scoring, a faithfulness check) whose state file says
   * it was running (or paused, or queued) but whose process is gone — the host or the CLI was killed — is
   * not running: when its work is in fact complete (every trace it had to score is stored; the check's
   * result is stored for every task and K), its state becomes "done"; otherwise it is listed as
   * "interrupted", to resume or to dismiss.
   */
  projectOpened(store: ProjectStore): void {
    this.interrupted.clear();
    for (const state of ScoringQueue.interrupted(store)) {
      if (this.queue.get(state.id)) continue;
      const by = `the process that ran the job${state.pid ? `, pid ${state.pid},` : ''} stopped before it could record that`;
      const stopped = `the process running it${state.pid ? ` (pid ${state.pid})` : ''} stopped (the app, the engine or the \`lots\` command was closed or killed)`;
      let info: JobInfo;
      if (state.kind === 'faithfulness') {
        const spec = state.options as unknown as FaithfulnessJobSpec;
        if (checkStored(store, state)) {
          markDone(store, state, `done: the check's results are stored for ${describeCheck(spec)} (${by})`);
          continue;
        }
        info = {
          id: state.id,
          kind: 'faithfulness',
          title: checkTitle(spec),
          ...(spec.tasks?.length === 1 ? { task: spec.tasks[0] } : {}),
          status: 'interrupted',
          createdAt: state.createdAt,
          updatedAt: state.updatedAt,
          // A check stores its result once it is complete: nothing of the interrupted one was kept.
          done: 0,
          total: state.progress.total,
          unit: 'requests',
          message: `interrupted: ${stopped} after checking ${state.progress.done} of ${state.progress.total} requests; a check stores its result only once complete, so resuming runs it again from the start; or dismiss it`,
          canPause: false,
          canResume: true,
          canCancel: true,
        };
      } else {
        const scored = scoredOf(store, state);
        const options = state.options as { model?: string };
        if (scored !== undefined && state.progress.total > 0 && scored >= state.progress.total) {
          markDone(store, state, `done: all ${state.progress.total} traces are scored (${by})`);
          continue;
        }
        const done = scored ?? state.progress.done;
        info = {
          id: state.id,
          kind: 'score',
          title: `Score with ${basename(String(options.model ?? 'a model'))}`,
          status: 'interrupted',
          createdAt: state.createdAt,
          updatedAt: state.updatedAt,
          done,
          total: state.progress.total,
          unit: 'traces',
          message: `interrupted: ${stopped} with ${done} of ${state.progress.total} traces scored; resume to continue where it left off, or dismiss it`,
          canPause: false,
          canResume: true,
          canCancel: true,
        };
      }
      this.interrupted.set(state.id, { state, store, info });
    }
  }

  startScoring(spec: Omit<ScoreJobSpec, 'jobId'>): JobInfo {
    return this.fromQueue(this.queue.enqueue({ kind: 'score', spec }));
  }

  /** A faithfulness check: queued with the scoring jobs (same model, same one-at-a-time GPU use). */
  startFaithfulness(spec: Omit<FaithfulnessJobSpec, 'jobId'>): JobInfo {
    return this.fromQueue(this.queue.enqueue({ kind: 'faithfulness', spec }));
  }

  startSweep(spec: Omit<SweepJobSpec, 'jobId'>): JobInfo {
    const id = newJobId('sweep');
    const info = startingJobInfo(id, 'sweep', `Budget sweep of ${spec.task}`, 'budgets');
    const job = startJob({ kind: 'sweep', spec: { ...spec, jobId: id } }, { launcher: this.launcher, stdio: 'inherit' });
    const run: SweepRun = { info, job };
    this.sweeps.set(id, run);
    const rate = new Rate();
    const update = (patch: Partial<JobInfo>) => {
      run.info = patchJobInfo(run.info, patch);
      this.emit(run.info);
    };
    job.on('event', (e) => {
      if (e.type === 'progress') {
        const { done, total, message } = e.progress;
        const throughput = rate.add(done);
        update({
          done,
          total,
          message,
          ...(throughput !== undefined ? { throughput, etaSeconds: throughput > 0 ? (total - done) / throughput : undefined } : {}),
        });
      } else if (e.type === 'finished') {
        update({ status: e.status, message: e.progress.message, done: e.status === 'done' ? run.info.total : run.info.done, etaSeconds: 0, canCancel: false });
      } else if (e.type === 'failed') {
        update({ status: 'failed', error: withHint(e.error), canCancel: false });
      }
    });
    this.emit(info);
    return info;
  }

  /** `lots demo` as a job (one at a time); Resume of a cancelled, failed or interrupted one continues its folder. */
  startDemo(spec: Omit<DemoJobSpec, 'jobId'>): JobInfo {
    return this.demos.start(spec);
  }

  startDownload(uri: string, dir: string): JobInfo {
    const handle = startDownload(newJobId('download'), uri, dir, this.emit);
    this.local.set(handle.id, handle);
    this.emit(handle.info);
    return handle.info;
  }

  /** An import of the API as a job (progress, what it waits for, cancel); `signal` also cancels it. */
  startImport(names: readonly string[], signal?: AbortSignal): ImportJobHandle {
    const handle = startImportJob(names, this.emit, signal);
    this.local.set(handle.id, handle);
    return handle;
  }

  pause(id: string): JobInfo {
    if (this.demos.has(id)) throw new ExpectedError('INVALID_INPUT', 'a demo can be cancelled and resumed (it continues where it stopped), not paused');
    if (this.interrupted.has(id)) throw new ExpectedError('INVALID_INPUT', 'this job was interrupted: resume it, or dismiss it');
    this.queue.pause(this.scoringId(id));
    return this.info(id);
  }

  resume(id: string): JobInfo {
    if (this.demos.has(id)) return this.demos.resume(id);
    const interrupted = this.interrupted.get(id);
    if (interrupted) {
      const model = (interrupted.state.options as { model?: unknown }).model;
      if (typeof model === 'string') this.checkModel(model, `resumeJob: the model file of job ${id}`);
      this.interrupted.delete(id);
      // In the project it was found in (its state file may name the folder the project was copied from).
      return this.fromQueue(this.queue.resumeInterrupted({ ...interrupted.state, options: { ...interrupted.state.options, project: interrupted.store.dir } }));
    }
    this.queue.resume(this.scoringId(id));
    return this.info(id);
  }

  cancel(id: string): JobInfo {
    if (this.demos.has(id)) return this.demos.cancel(id);
    const interrupted = this.interrupted.get(id);
    if (interrupted) {
      // Dismissed: its state file says so, and the scores it stored are kept.
      this.interrupted.delete(id);
      const message =
        interrupted.info.kind === 'faithfulness'
          ? 'dismissed after it was interrupted (nothing of it was stored: a check stores its result only once complete)'
          : `dismissed after it was interrupted (${interrupted.info.done} of ${interrupted.info.total} traces scored; those scores are kept)`;
      interrupted.store.writeJob({
        ...interrupted.state,
        status: 'cancelled',
        updatedAt: new Date().toISOString(),
        progress: { ...interrupted.state.progress, message },
      });
      const info: JobInfo = { ...interrupted.info, status: 'cancelled', updatedAt: new Date().toISOString(), message, canResume: false, canCancel: false };
      this.emit(info);
      return info;
    }
    const local = this.local.get(id);
    if (local) {
      if (local.status === 'running') local.cancel();
      return local.info;
    }
    const sweep = this.sweeps.get(id);
    if (sweep) {
      sweep.job.cancel();
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
    for (const s of this.sweeps.values()) s.job.kill('SIGTERM');
    for (const l of this.local.values()) if (l.status === 'running') l.cancel();
    this.demos.dispose();
  }

  private info(id: string): JobInfo {
    const job = this.queue.get(id);
    if (job) return this.fromQueue(job);
    const sweep = this.sweeps.get(id);
    if (sweep) return sweep.info;
    const local = this.local.get(id);
    if (local) return local.info;
    throw new ExpectedError('NOT_FOUND', `no job "${id}"`);
  }

  private scoringId(id: string): string {
    if (this.sweeps.has(id) || this.local.has(id)) throw new ExpectedError('INVALID_INPUT', 'this job can be cancelled, not paused');
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
    const { request } = job;
    const check = request.kind === 'faithfulness';
    const info: JobInfo = {
      id: job.id,
      kind: request.kind,
      title:
        request.kind === 'faithfulness'
          ? checkTitle(request.spec)
          : `Score with ${basename(request.spec.model)}${request.spec.tasks?.length ? ` · ${request.spec.tasks.join(', ')}` : ''} (${request.spec.intervention})${request.spec.remote ? ` on ${remoteWhere(request.spec.remote.endpoints)}` : ''}`,
      ...(check && request.spec.tasks?.length === 1 ? { task: request.spec.tasks[0] } : {}),
      status,
      createdAt: job.createdAt,
      updatedAt: job.updatedAt,
      done: p?.done ?? 0,
      total: p?.total ?? 0,
      unit: check ? 'requests' : 'traces',
      ...(throughput !== undefined ? { throughput } : prev?.throughput !== undefined ? { throughput: prev.throughput } : {}),
      ...(p?.tokensPerSecond !== undefined ? { tokensPerSecond: p.tokensPerSecond } : {}),
      ...(p?.etaSeconds !== undefined ? { etaSeconds: p.etaSeconds } : {}),
      ...(p?.inFlight && status === 'running' ? { inFlight: p.inFlight } : {}),
      ...(p?.message !== undefined ? { message: p.message } : {}),
      ...(job.error ? { error: withHint(job.error) } : {}),
      canPause: status === 'running' || status === 'queued',
      canResume: status === 'paused',
      canCancel: status === 'running' || status === 'queued' || status === 'paused',
    };
    this.scoreInfo.set(job.id, info);
    return info;
  }
}

/** Where a remote score job runs, for its title. */
function remoteWhere(endpoints: readonly string[]): string {
  return endpoints.length === 1 ? endpoints[0]!.replace(/^https?:\/\//, '') : `${endpoints.length} scoring servers`;
}

function checkTitle(spec: Pick<FaithfulnessJobSpec, 'tasks' | 'ks'>): string {
  return `Faithfulness check of ${describeCheck(spec)}`;
}

function describeCheck(spec: Pick<FaithfulnessJobSpec, 'tasks' | 'ks'>): string {
  return `${spec.tasks?.join(', ') ?? 'every task'} (K = ${spec.ks.join(', ')})`;
}

/** A job whose process died after its work was complete: its state file says "done" (and why). */
function markDone(store: ProjectStore, state: JobState, message: string): void {
  try {
    store.writeJob({
      ...state,
      status: 'done',
      updatedAt: new Date().toISOString(),
      progress: { done: state.progress.total, total: state.progress.total, message },
    });
  } catch {
    /* a read-only project: it is still not offered for resumption */
  }
}

/**
 * Whether a faithfulness check's result is stored: for each task it checked (every task of its run when it
 * named none), a record of its run and seed with a point for every K it measured, at its draws, written
 * since the job was created. The job writes these just before it records "done".
 */
function checkStored(store: ProjectStore, state: JobState): boolean {
  const spec = state.options as Partial<FaithfulnessJobSpec>;
  if (typeof spec.run !== 'string' || !Array.isArray(spec.ks) || spec.ks.length === 0) return false;
  const tasks = spec.tasks?.length ? spec.tasks : [...new Set(store.listScores(spec.run).map((r) => r.task ?? UNROUTED))];
  if (tasks.length === 0) return false;
  const seed = spec.seed ?? DEFAULT_FAITHFULNESS_SEED;
  return tasks.every((task) => {
    let record;
    try {
      record = store.readFaithfulness(task).checks.find((c) => c.run === spec.run && c.seed === seed);
    } catch {
      return false; // a damaged record: the check is offered again
    }
    return spec.ks!.every((k) => record?.points.some((p) => p.k === k && p.draws === spec.draws && p.createdAt >= state.createdAt));
  });
}

/**
 * How many of the traces a score job was given hold a score from a run the job could have written (same
 * model file, intervention and span): the most of any such run. Undefined for other jobs.
 */
function scoredOf(store: ProjectStore, state: JobState): number | undefined {
  if (state.kind !== 'score') return undefined;
  const o = state.options as {
    model?: unknown;
    intervention?: unknown;
    span?: unknown;
    tasks?: unknown;
    format?: unknown;
    remote?: { backend?: unknown; servedModel?: unknown };
  };
  if (typeof o.model !== 'string') return undefined;
  // A remote job's rows name the server's model identity (`<backend>:<served name>@<hash>`), not the file.
  const remote =
    o.remote && typeof o.remote.backend === 'string'
      ? `${o.remote.backend}:${typeof o.remote.servedModel === 'string' ? `${o.remote.servedModel}@` : ''}`
      : undefined;
  const runs = new Set<string>();
  for (const r of store.listScores()) {
    if (
      (remote ? (r.model ?? '').startsWith(remote) : r.model === o.model) &&
      r.intervention === o.intervention &&
      r.span === o.span &&
      (o.format === undefined || o.format === 'auto' || (o.format === 'plain') === (r.format === 'plain'))
    )
      runs.add(r.run);
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
