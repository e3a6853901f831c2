// A demo's stage events (runDemo's onStage) folded into the step list the Studio shows: load the model,
// make the project, serve, score, sweep, evaluate, and — with several registry sizes — registry growth.
// Each step is done, running with its counts, or waiting. Sweep and evaluate alternate family by family,
// so while one runs the other waits with the families it has finished. With several registry sizes the
// project's steps start again for each size (their labels say which).
import type { JobStep } from '../../../shared/api/types';
import type { DemoStage, DemoStageEvent } from '../benchmark/demo';

const LABELS: Record<DemoStage, string> = {
  load: 'Load the model',
  make: 'Make the benchmark project',
  serve: 'Serve the fitting requests under the whole registry',
  score: 'Score them (re-execute intervention)',
  sweep: 'Sweep the budget K on the fitting requests',
  evaluate: 'Evaluate LOTS against keep-all, no tools, Random and BM25',
};

const UNITS: Record<DemoStage, string> = { load: '', make: '', serve: 'requests', score: 'traces', sweep: 'families', evaluate: 'families' };

/** The steps before `stage` that are over once it has started (sweep and evaluate alternate). */
const LINEAR: readonly DemoStage[] = ['load', 'make', 'serve', 'score'];
const PROJECT_STEPS: readonly DemoStage[] = ['make', 'serve', 'score', 'sweep', 'evaluate'];

export class DemoSteps {
  private readonly steps: JobStep[];
  private project = 0;

  /** `registries`: the demo's registry sizes, in the order they run. */
  constructor(private readonly registries: readonly number[]) {
    this.steps = (Object.keys(LABELS) as DemoStage[]).map((id) => ({ id, label: this.label(id, 0), status: 'waiting', done: 0, total: 0, unit: UNITS[id] }));
    if (registries.length > 1) {
      this.steps.push({
        id: 'growth',
        label: `Registry growth: ${registries.join(' → ')} tools`,
        status: 'waiting',
        done: 0,
        total: registries.length,
        unit: 'registry sizes',
      });
    }
  }

  /** Fold one event; true when a step changed status (worth reporting at once). */
  apply(e: DemoStageEvent): boolean {
    const before = this.steps.map((s) => s.status).join();
    if (e.stage === 'project') {
      for (const id of PROJECT_STEPS) this.set(id, { status: 'done' });
      const growth = this.get('growth');
      if (growth)
        Object.assign(growth, { done: e.done, total: e.total, status: e.done >= e.total ? 'done' : 'running', detail: `registry of ${e.registry} tools done` });
      return before !== this.steps.map((s) => s.status).join();
    }
    if (e.project !== this.project) {
      this.project = e.project;
      for (const id of PROJECT_STEPS) this.set(id, { label: this.label(id, e.project), status: 'waiting', done: 0, total: 0, detail: undefined });
    }
    const growth = this.get('growth');
    if (growth && growth.status !== 'done')
      Object.assign(growth, { status: 'running', done: e.project, detail: `registry of ${e.registry} tools (${e.project + 1} of ${e.projects})` });
    for (const id of LINEAR) {
      if (id === e.stage) break;
      this.set(id, { status: 'done' });
    }
    const finished = e.done >= e.total;
    this.set(e.stage, { status: finished ? 'done' : 'running', done: e.done, total: e.total, detail: e.detail ?? innerDetail(e) });
    // Sweep and evaluate take turns: the one not running waits with the families it has finished. An event
    // with `inner` is about family number `done` (0-based) in progress, whose sweep is then over.
    const other = e.stage === 'sweep' ? 'evaluate' : e.stage === 'evaluate' ? 'sweep' : undefined;
    if (other) {
      const step = this.get(other)!;
      if (step.status !== 'done')
        Object.assign(step, {
          status: 'waiting',
          detail: undefined,
          total: e.total,
          done: other === 'sweep' ? Math.max(step.done, e.done + (e.inner ? 1 : 0)) : step.done,
        });
    }
    return before !== this.steps.map((s) => s.status).join();
  }

  /** Every step is done (the demo finished). */
  finish(): void {
    for (const step of this.steps) {
      step.status = 'done';
      if (step.id === 'growth') step.done = step.total;
    }
  }

  list(): JobStep[] {
    return this.steps.map((s) => ({ ...s }));
  }

  get done(): number {
    return this.steps.filter((s) => s.status === 'done').length;
  }

  get total(): number {
    return this.steps.length;
  }

  /** The running step and its counts, for the job's status line. */
  get message(): string {
    const running = this.steps.filter((s) => s.status === 'running' && s.id !== 'growth').at(-1) ?? this.steps.find((s) => s.status === 'running');
    if (!running) return this.done === this.total ? 'done' : 'starting';
    const counts = running.unit ? ` ${running.done}/${running.total} ${running.unit}` : '';
    return `${running.label}${counts}${running.detail ? ` · ${running.detail}` : ''}`;
  }

  private label(id: DemoStage, project: number): string {
    const registry = this.registries[project];
    return this.registries.length > 1 && id !== 'load' && registry !== undefined ? `${LABELS[id]} (registry of ${registry})` : LABELS[id];
  }

  private get(id: string): JobStep | undefined {
    return this.steps.find((s) => s.id === id);
  }

  private set(id: DemoStage, patch: Partial<JobStep>): void {
    const step = this.get(id);
    if (step) Object.assign(step, patch);
  }
}

function innerDetail(e: DemoStageEvent): string | undefined {
  if (!e.task) return undefined;
  if (!e.inner) return e.task;
  const what = e.stage === 'sweep' ? `K ${e.inner.done}/${e.inner.total}` : `${e.inner.done}/${e.inner.total} measurements`;
  return `${e.task}: ${what}${e.inner.cached ? ' (reused)' : ''}`;
}
