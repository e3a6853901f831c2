// `lots demo` as a job, run in the job worker's process: the same runDemo the CLI calls, its stages folded
// into a step list (demo-steps.ts), its log lines kept, cancel through the control's AbortSignal. Every
// stage is stored as it completes, so a cancelled (or killed) demo resumes when it is started again on
// the same folder: served and scored traces are skipped, measured budgets and baselines are reused.
import { runDemo, type DemoResult } from '../benchmark/demo';
import type { JobControl } from './control';
import { DemoSteps } from './demo-steps';
import { toFailure } from './failure';
import type { DemoJobSpec, DemoProgress, JobEvent } from './protocol';
import { percent } from '../../../shared/text';

export type DemoJobEvent = JobEvent<DemoProgress>;

/** Log lines a demo job keeps (the newest). */
export const DEMO_LOG_LINES = 40;
/** Progress within a step is reported at most this often; a step that starts or ends is reported at once. */
const REPORT_INTERVAL_MS = 250;

export async function runDemoJob(spec: DemoJobSpec, control: JobControl, emit: (e: DemoJobEvent) => void): Promise<void> {
  const registries = [...new Set(spec.registries?.length ? spec.registries : [15])];
  const steps = new DemoSteps(registries);
  const log: string[] = [];
  const progress = (message = steps.message): DemoProgress => ({ done: steps.done, total: steps.total, message, steps: steps.list(), log: [...log] });
  let last = 0;
  const report = (now: boolean) => {
    if (!now && Date.now() - last < REPORT_INTERVAL_MS) return;
    last = Date.now();
    emit({ type: 'progress', progress: progress() });
  };
  report(true);
  try {
    const result = await runDemo({
      out: spec.out,
      modelPath: spec.modelPath,
      preset: spec.preset,
      registries,
      ...(spec.families ? { families: spec.families } : {}),
      ...(spec.seed !== undefined ? { seed: spec.seed } : {}),
      ...(spec.fit !== undefined ? { fit: spec.fit } : {}),
      ...(spec.eval !== undefined ? { eval: spec.eval } : {}),
      ...(spec.draws !== undefined ? { draws: spec.draws } : {}),
      ...(spec.kMax !== undefined ? { kMax: spec.kMax } : {}),
      ...(spec.maxTokens !== undefined ? { maxTokens: spec.maxTokens } : {}),
      ...(spec.threads !== undefined ? { threads: spec.threads } : {}),
      ...(spec.gpu ? { gpu: spec.gpu } : {}),
      command: spec.command,
      signal: control.signal,
      log: (line) => {
        log.push(line);
        if (log.length > DEMO_LOG_LINES) log.splice(0, log.length - DEMO_LOG_LINES);
        report(true);
      },
      onStage: (event) => report(steps.apply(event)),
    });
    steps.finish();
    emit({ type: 'finished', status: 'done', progress: progress(summary(result)) });
  } catch (e) {
    if (control.signal.aborted) {
      emit({
        type: 'finished',
        status: 'cancelled',
        progress: progress(`cancelled: everything stored so far in ${spec.out} is kept; resume to continue where it stopped`),
      });
    } else emit({ type: 'failed', error: toFailure(e), progress: progress() });
  }
}

/** The headline of a finished demo: LOTS against keep-all on the evaluation requests, and where it is. */
function summary(result: DemoResult): string {
  const mean = (name: string) => {
    const cells = result.rows.map((r) => r.results.get(name)?.eval).filter((b) => b !== undefined);
    return cells.length ? cells.reduce((a, b) => a + b.accuracy, 0) / cells.length : undefined;
  };
  const lots = mean('lots');
  const all = mean('keep-all');
  const minutes = result.seconds < 120 ? `${result.seconds.toFixed(0)} s` : `${Math.round(result.seconds / 60)} min`;
  return `done in ${minutes}: LOTS ${percent(lots)} against keep-all ${percent(all)} on the evaluation requests; the project is in ${result.dir}`;
}
