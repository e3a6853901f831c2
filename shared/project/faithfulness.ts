// Faithfulness checks as a project keeps them (faithfulness/<task>.json): per scoring run, one point per
// budget K measured. A new measurement of the same run and K replaces the old one.
import { z } from 'zod';
import { INTERVENTION_KINDS } from '../trace/interventions';
import { ScoreSpanSchema } from './scores';

const finite = z.number().refine(Number.isFinite, { message: 'must be a finite number' });

export const FaithfulnessPointSchema = z.object({
  k: z.number().int().positive(),
  /** The task's top-K when the check ran (each request removes the best-ranked K of its own scoreable tools). */
  tools: z.array(z.string()),
  /** Requests measured: those with at least K scoreable tools on a scored turn. */
  n: z.number().int().nonnegative(),
  /** Mean of L(y|h) − L(y|h^{−TopK}) over the requests: the top-K removed together. */
  joint: finite,
  /** Mean of Σ_{s∈TopK} I_x(s): what the single-tool scores predict (the additive surrogate). */
  additive: finite,
  /** Mean drop when K scoreable tools drawn at random are removed together (mean over the draws). */
  random: finite,
  /** Random draws per request. */
  draws: z.number().int().nonnegative(),
  /** Share of the requests whose top-K drop exceeds their mean random drop. */
  beatsRandom: z.number().min(0).max(1),
  /** Score rows of the task in the run when the check ran (more scores since make it stale). */
  rows: z.number().int().nonnegative(),
  createdAt: z.string(),
});
export type FaithfulnessPoint = z.infer<typeof FaithfulnessPointSchema>;

export const FaithfulnessCheckSchema = z.object({
  run: z.string().min(1),
  /** The model file the drops were computed with (its hash is the run's). */
  model: z.string(),
  modelName: z.string().optional(),
  intervention: z.enum(INTERVENTION_KINDS as [string, ...string[]]),
  span: ScoreSpanSchema,
  /** Rendering format ('plain' or the chat wrapper's name). */
  format: z.string().optional(),
  seed: z.number().int(),
  /** Largest |L(y|h) recomputed − L(y|h) stored| over the requests: ~0 when the check saw what the scorer saw. */
  baseDrift: finite.optional(),
  points: z.array(FaithfulnessPointSchema),
});
export type FaithfulnessCheck = z.infer<typeof FaithfulnessCheckSchema>;

export const TaskFaithfulnessSchema = z.object({
  task: z.string(),
  checks: z.array(FaithfulnessCheckSchema),
});
export type TaskFaithfulness = z.infer<typeof TaskFaithfulnessSchema>;

/** Fold a new check into a task's record: the same run keeps its other K values, the new ones replace. */
export function mergeFaithfulness(current: TaskFaithfulness, check: FaithfulnessCheck): TaskFaithfulness {
  const previous = current.checks.find((c) => c.run === check.run);
  const measured = new Set(check.points.map((p) => p.k));
  const points = [...(previous?.points.filter((p) => !measured.has(p.k)) ?? []), ...check.points].sort((a, b) => a.k - b.k);
  return { task: current.task, checks: [...current.checks.filter((c) => c.run !== check.run), { ...check, points }] };
}
