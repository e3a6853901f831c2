// Use cases "sweep" and "evaluate" on a benchmark project (`lots sweep`, `lots evaluate`). Their loop lives
// in benchmark/tasks.ts, below the job runtime, so that the Studio's sweep job (jobs/sweep-job.ts) runs the
// same one; the sweep job's spec is built and checked here (`sweepJobSpec`).
import { resolve } from 'node:path';
import type { SweepJobSpec } from '../jobs/protocol';
import { checkModelPath } from '../llama';
import type { ProjectStore } from '../store';
export { evaluateBenchTasks, selectBenchTasks, sweepBenchTasks } from '../benchmark/tasks';
export type { EvaluateTasksOptions, SweepTasksOptions, TaskOutcome } from '../benchmark/tasks';

export interface SweepJobRequest {
  task: string;
  /** The GGUF file (resolved against the working folder). */
  model: string;
  run?: string;
  /** Compare LOTS with the baselines that call no model at the chosen K (default: yes). */
  baselines?: boolean;
}

/** The checked spec of the Studio's sweep job on `store` (the job runs `sweepBenchTasks` and `compareAtBudget`
 * in the job worker: jobs/sweep-job.ts); a missing model file is an error where the user asked. */
export function sweepJobSpec(store: ProjectStore, request: SweepJobRequest): Omit<SweepJobSpec, 'jobId'> {
  checkModelPath(request.model);
  return {
    project: store.dir,
    task: request.task,
    model: resolve(request.model),
    ...(request.run ? { run: request.run } : {}),
    baselines: request.baselines ?? true,
  };
}
