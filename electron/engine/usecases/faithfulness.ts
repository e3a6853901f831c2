// Use case "faithfulness check": the job spec that measures more points of a task's check, with the
// model file the run was scored with (or the one given), built and checked here before the job starts.
import { resolve } from 'node:path';
import { parseRunKey } from '../../../shared/project/scores';
import { checkModelPath, type GpuChoice } from '../llama';
import { DEFAULT_FAITHFULNESS_DRAWS, DEFAULT_FAITHFULNESS_SEED } from '../jobs/faithfulness-job';
import type { FaithfulnessJobSpec } from '../jobs/protocol';
import { invalid } from '../../../shared/api/errors';
import type { TaskData } from '../read-model/project-index';
import { checkModelOf } from '../read-model/run-model';

export interface FaithfulnessRequest {
  ks: number[];
  draws?: number;
  model?: string;
  gpu?: GpuChoice;
}

/** What the front end supplies: where a model file may be read from (the web host's --root), checked here
 * for the run's own model file, which the user did not pick. */
export interface FaithfulnessDeps {
  checkPath?: (path: string, what: string) => void;
}

export function faithfulnessJobSpec(
  project: string,
  data: TaskData,
  input: FaithfulnessRequest,
  deps: FaithfulnessDeps = {},
): Omit<FaithfulnessJobSpec, 'jobId'> {
  if (!data.run) throw invalid(`task "${data.task}" has no scores yet: score it first (Jobs view)`);
  const parts = parseRunKey(data.run);
  if (!parts)
    throw invalid('these scores were imported: the check recomputes likelihoods with the model that computed them, so score the task with a local model first');
  const model = input.model ?? checkModelOf(data);
  if (!model) {
    throw invalid(
      `the model file this run was scored with (${data.rows.find((r) => r.model)?.model ?? 'unknown'}) is not on this machine; pick that file on the Models view`,
    );
  }
  // Without a model given, the run's own model file: confined like a path given.
  if (input.model === undefined) deps.checkPath?.(model, 'startFaithfulness: the model file the run was scored with');
  // Checked here so a wrong path is an error where the user clicked, not a failed job later.
  checkModelPath(model);
  return {
    project,
    model: resolve(model),
    gpu: input.gpu ?? 'auto',
    tasks: [data.task],
    run: data.run,
    ks: [...new Set(input.ks)].sort((a, b) => a - b),
    draws: input.draws ?? DEFAULT_FAITHFULNESS_DRAWS,
    seed: DEFAULT_FAITHFULNESS_SEED,
  };
}
