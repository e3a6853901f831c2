// Use cases "sweep" and "evaluate" on a benchmark project (`lots sweep`, `lots evaluate`). Their loop lives
// in benchmark/tasks.ts, below the job runtime, so that the Studio's sweep job (jobs/sweep-job.ts) runs the
// same one.
export { evaluateBenchTasks, selectBenchTasks, sweepBenchTasks } from '../benchmark/tasks';
export type { EvaluateTasksOptions, SweepTasksOptions, TaskOutcome } from '../benchmark/tasks';
