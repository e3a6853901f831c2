// Demo jobs as the engine sees them (`lots demo` from the Studio): one at a time, each in a job worker
// (demo-job.ts runs runDemo), its steps and log lines on the JobInfo. A state file per job under the
// user's data folder records what it runs, so a demo whose process died with the Studio (a crash, a
// kill, a restart) is listed as interrupted. Resume — after a cancel, a failure or an interruption —
// starts the same spec again under the same id, and runDemo continues in the same folder from what it
// stored; Cancel of an interrupted demo dismisses it (its folder is kept).
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import type { JobInfo } from '../../../shared/api/types';
import { ExpectedError } from '../../../shared/api/errors';
import { JobStateSchema, type JobState } from '../store';
import { writeJsonAtomic } from '../store/atomic';
import { withHint } from './failure';
import { newJobId, patchJobInfo, startingJobInfo } from './ids';
import type { WorkerLauncher, WorkerStdio } from './launcher';
import { startJob, type WorkerJob } from './process';
import type { DemoJobSpec, DemoProgress } from './protocol';
import { alive } from './queue';

export interface DemoRunsOptions {
  launcher: WorkerLauncher;
  stdio: WorkerStdio;
  /** Where demo jobs' state files live (the user's data folder); without one, an interrupted demo is not found after a restart. */
  stateDir?: string;
}

interface DemoRun {
  info: JobInfo;
  spec: DemoJobSpec;
  job?: WorkerJob<{ kind: 'demo'; spec: DemoJobSpec }>;
  /** Found from its state file: its process is gone. */
  interrupted?: JobState;
}

/** How often a running demo's state file is rewritten with its progress. */
const STATE_INTERVAL_MS = 2000;

export class DemoRuns {
  private readonly runs = new Map<string, DemoRun>();
  /** The app is quitting: a worker it stops is not a failure, its state file keeps saying running. */
  private disposed = false;

  constructor(
    private readonly emit: (job: JobInfo) => void,
    private readonly options: DemoRunsOptions,
  ) {
    this.findInterrupted();
  }

  has(id: string): boolean {
    return this.runs.has(id);
  }

  list(): JobInfo[] {
    return [...this.runs.values()].map((r) => r.info);
  }

  /** Start a demo (one at a time: it loads a model and uses every core it is given). */
  start(spec: Omit<DemoJobSpec, 'jobId'>): JobInfo {
    return this.launch({ ...spec, jobId: newJobId('demo') });
  }

  /** Run a cancelled, failed or interrupted demo again, under its id, with its spec: its folder resumes. */
  resume(id: string): JobInfo {
    const run = this.require(id);
    if (run.info.status === 'running') throw new ExpectedError('INVALID_INPUT', 'this demo is running; it can be cancelled');
    if (!run.info.canResume)
      throw new ExpectedError(
        'INVALID_INPUT',
        `this demo ${run.info.status === 'done' ? 'is done' : 'was dismissed'}; start a new one from the Demo view (the same folder resumes it)`,
      );
    return this.launch(run.spec, run.info.createdAt);
  }

  cancel(id: string): JobInfo {
    const run = this.require(id);
    if (run.interrupted) {
      const message = `dismissed after it was interrupted; what it stored in ${run.spec.out} is kept (start the demo again on that folder to continue it)`;
      this.writeState(run.spec, { status: 'cancelled', createdAt: run.info.createdAt, message, done: run.info.done, total: run.info.total });
      run.interrupted = undefined;
      return this.update(run, { status: 'cancelled', message, canResume: false, canCancel: false });
    }
    if (run.job && run.info.status === 'running') {
      run.job.cancel();
      return this.update(run, { message: 'cancelling: the stage in progress stops at its next step; what is stored is kept', canCancel: false });
    }
    return run.info;
  }

  /** The app is quitting: stop the workers (their state files say running; the next start lists them as interrupted). */
  dispose(): void {
    this.disposed = true;
    for (const run of this.runs.values()) if (run.job && run.info.status === 'running') run.job.kill('SIGTERM');
  }

  private launch(spec: DemoJobSpec, createdAt = new Date().toISOString()): JobInfo {
    const busy = [...this.runs.values()].find((r) => r.info.status === 'running');
    if (busy) {
      throw new ExpectedError(
        'INVALID_INPUT',
        `a demo is already running in ${busy.spec.out} (${busy.info.id}): cancel it or wait for it to end before starting another`,
      );
    }
    const job = startJob({ kind: 'demo', spec }, { launcher: this.options.launcher, stdio: this.options.stdio });
    const run: DemoRun = {
      spec,
      job,
      info: { ...startingJobInfo(spec.jobId, 'demo', demoTitle(spec), 'steps', 'starting the demo process', createdAt), result: { dir: spec.out } },
    };
    this.runs.set(spec.jobId, run);
    let written = 0;
    const persist = (progress: DemoProgress | undefined, status: JobState['status'], force: boolean) => {
      if (!force && Date.now() - written < STATE_INTERVAL_MS) return;
      written = Date.now();
      this.writeState(spec, {
        status,
        createdAt,
        message: progress?.message ?? run.info.message,
        done: progress?.done ?? 0,
        total: progress?.total ?? 0,
        pid: job.pid,
      });
    };
    persist(undefined, 'running', true);
    const fromProgress = (p: DemoProgress) => ({ done: p.done, total: p.total, message: p.message, steps: p.steps, log: p.log });
    job.on('event', (e) => {
      if (e.type === 'progress') {
        // (A cancel asked for keeps its message until the job ends.)
        this.update(run, { ...fromProgress(e.progress), ...(run.info.canCancel ? {} : { message: run.info.message }) });
        persist(e.progress, 'running', false);
      } else if (e.type === 'finished') {
        this.update(run, { ...fromProgress(e.progress), status: e.status, canCancel: false, canResume: e.status === 'cancelled', etaSeconds: 0 });
        persist(e.progress, e.status, true);
      } else if (e.type === 'failed') {
        if (this.disposed) return;
        this.update(run, { ...(e.progress ? fromProgress(e.progress) : {}), status: 'failed', error: withHint(e.error), canCancel: false, canResume: true });
        persist(e.progress, 'failed', true);
      }
    });
    this.emit(run.info);
    return run.info;
  }

  private update(run: DemoRun, patch: Partial<JobInfo>): JobInfo {
    run.info = patchJobInfo(run.info, patch);
    if (run.info.status !== 'failed') delete run.info.error;
    this.emit(run.info);
    return run.info;
  }

  private require(id: string): DemoRun {
    const run = this.runs.get(id);
    if (!run) throw new ExpectedError('NOT_FOUND', `no demo job "${id}"`);
    return run;
  }

  private writeState(
    spec: DemoJobSpec,
    s: { status: JobState['status']; createdAt: string; message?: string; done: number; total: number; pid?: number },
  ): void {
    if (!this.options.stateDir) return;
    const state: JobState = {
      id: spec.jobId,
      kind: 'demo',
      status: s.status,
      createdAt: s.createdAt,
      updatedAt: new Date().toISOString(),
      options: { ...spec },
      progress: { done: s.done, total: s.total, ...(s.message !== undefined ? { message: s.message } : {}) },
      ...(s.pid !== undefined ? { pid: s.pid } : {}),
    };
    try {
      writeJsonAtomic(join(this.options.stateDir, `${spec.jobId}.json`), state);
    } catch (e) {
      // The demo runs on; only its listing after a restart is lost.
      console.error(`lots: cannot record the demo job's state in ${this.options.stateDir}: ${(e as Error).message}`);
    }
  }

  /** State files of demos that were running when their process died: listed as interrupted. */
  private findInterrupted(): void {
    const dir = this.options.stateDir;
    if (!dir || !existsSync(dir)) return;
    for (const file of readdirSync(dir).filter((f) => f.endsWith('.json'))) {
      let state: JobState;
      try {
        state = JobStateSchema.parse(JSON.parse(readFileSync(join(dir, file), 'utf8')));
      } catch {
        continue; // not ours, or torn: nothing to resume from
      }
      const spec = state.options as unknown as DemoJobSpec;
      if (state.kind !== 'demo' || typeof spec.out !== 'string' || typeof spec.modelPath !== 'string') continue;
      if (!(state.status === 'running' || state.status === 'queued' || state.status === 'paused')) continue;
      if (state.pid !== undefined && alive(state.pid)) continue;
      const during = state.progress.message ? ` during "${state.progress.message}"` : '';
      this.runs.set(state.id, {
        spec: { ...spec, jobId: state.id },
        interrupted: state,
        info: {
          id: state.id,
          kind: 'demo',
          title: demoTitle(spec),
          status: 'interrupted',
          createdAt: state.createdAt,
          updatedAt: state.updatedAt,
          done: state.progress.done,
          total: state.progress.total,
          unit: 'steps',
          message: `interrupted: the process running it${state.pid ? ` (pid ${state.pid})` : ''} stopped${during} (the Studio was closed or killed); resume to continue in ${spec.out} where it stopped, or dismiss it`,
          canPause: false,
          canResume: true,
          canCancel: true,
          result: { dir: spec.out },
        },
      });
    }
  }
}

export function demoTitle(spec: Pick<DemoJobSpec, 'preset' | 'families' | 'registries' | 'modelPath'>): string {
  const families = spec.families?.length ? `${spec.families.length} famil${spec.families.length === 1 ? 'y' : 'ies'}` : 'all families';
  const registries = spec.registries && spec.registries.length > 1 ? `, registries ${spec.registries.join(' / ')}` : '';
  return `Demo (${spec.preset} preset, ${families}${registries}) on ${basename(spec.modelPath)}`;
}
