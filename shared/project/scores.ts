// Score records: the external exchange format (`lots scores import/export`) and what the store keeps.
import { z } from 'zod';
import { INTERVENTION_KINDS } from '../trace/interventions';

const finite = z.number().refine(Number.isFinite, { message: 'must be a finite number (NaN and Infinity are not scores)' });

/** One request's attribution scores: `{"trace":"r1","task":"fx_settle","exposed":["A","B"],"scores":{"A":0.52}}`.
 * Scoreable tools are the keys of `scores`; `exposed` lists every tool the request was served with. */
export const ScoreRowSchema = z.object({
  trace: z.string().min(1, 'a score record needs the id of its trace'),
  task: z.string().min(1).optional(),
  exposed: z.array(z.string().min(1)),
  scores: z.record(z.string().min(1), finite),
});
export type ScoreRow = z.infer<typeof ScoreRowSchema>;

export const ScoreSpanSchema = z.enum(['answer', 'expression']);
export type ScoreSpan = z.infer<typeof ScoreSpanSchema>;

/** Per-turn detail kept for the trace inspector (per-token log-probs of the frozen answer). */
export const TurnScoreDetailSchema = z.object({
  turn: z.number().int().nonnegative(),
  /** L(y | h): mean log-prob of the scored tokens under the full context. */
  base: finite,
  /** L(y | h^{-s}) per scored tool. */
  removed: z.record(z.string(), finite),
  /** The scored tokens as text pieces, in order. */
  tokens: z.array(z.string()).optional(),
  baseTokenLogprobs: z.array(z.number()).optional(),
  removedTokenLogprobs: z.record(z.string(), z.array(z.number())).optional(),
});
export type TurnScoreDetail = z.infer<typeof TurnScoreDetailSchema>;

/** A score row as stored in a project: keyed so nothing is computed twice. */
export const StoredScoreSchema = ScoreRowSchema.extend({
  /** Unique key: run + trace hash. A record with a key already present is never appended again. */
  key: z.string().min(1),
  /** The scoring run: `<modelHash>|<intervention>|<span>` for computed scores, `import:<name>` for imported ones. */
  run: z.string().min(1),
  traceHash: z.string().optional(),
  model: z.string().optional(),
  modelName: z.string().optional(),
  intervention: z.enum(INTERVENTION_KINDS as [string, ...string[]]).optional(),
  span: ScoreSpanSchema.optional(),
  /** Tools whose score was shared with co-called tools (a removed message called several). */
  shared: z.record(z.string(), z.array(z.string())).optional(),
  turns: z.array(TurnScoreDetailSchema).optional(),
  createdAt: z.string().optional(),
});
export type StoredScore = z.infer<typeof StoredScoreSchema>;

export function runKey(modelHash: string, intervention: string, span: ScoreSpan): string {
  return `${modelHash}|${intervention}|${span}`;
}
