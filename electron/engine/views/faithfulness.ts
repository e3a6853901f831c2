// The faithfulness check as the Ranking view sees it: the stored points of the ranking's run, marked
// stale when the ranking moved since (more requests scored, another top-k), and the job spec that
// measures more of them with the model file the run was scored with.
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import type { FaithfulnessPoint } from '../../../shared/api/types';
import type { TaskFaithfulness } from '../../../shared/project/faithfulness';
import { parseRunKey } from '../../../shared/project/scores';
import { checkModelPath, type GpuChoice } from '../llama';
import { DEFAULT_FAITHFULNESS_DRAWS, DEFAULT_FAITHFULNESS_SEED } from '../jobs/faithfulness-job';
import type { FaithfulnessJobSpec } from '../jobs/protocol';
import { invalid } from '../../../shared/api/errors';
import type { TaskData } from '../read-model/project-index';

export function faithfulnessPoints(record: TaskFaithfulness, data: TaskData): FaithfulnessPoint[] {
  const check = data.run ? record.checks.find((c) => c.run === data.run) : undefined;
  if (!check || !data.fit) return [];
  const ranking = data.fit.ranking.map((r) => r.tool);
  return check.points.map((p) => ({
    k: p.k,
    drop: p.joint,
    additive: p.additive,
    random: p.random,
    draws: p.draws,
    beatsRandom: p.beatsRandom,
    n: p.n,
    tools: p.tools,
    stale: p.rows !== data.rows.length || p.tools.join('\u0000') !== ranking.slice(0, p.k).join('\u0000'),
    createdAt: p.createdAt,
  }));
}

/** The model file recorded with the run's scores, when it is on this machine. */
export function checkModelOf(data: TaskData): string | null {
  if (!data.run || !parseRunKey(data.run)) return null;
  const recorded = data.rows.find((r) => r.model !== undefined)?.model;
  return recorded !== undefined && existsSync(recorded) ? resolve(recorded) : null;
}

export interface FaithfulnessRequest {
  ks: number[];
  draws?: number;
  model?: string;
  gpu?: GpuChoice;
}

export function faithfulnessJobSpec(project: string, data: TaskData, input: FaithfulnessRequest): Omit<FaithfulnessJobSpec, 'jobId'> {
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
