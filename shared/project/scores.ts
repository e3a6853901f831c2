// Score records: the external exchange format (`lots scores import/export`) and what the store keeps.
import { z } from 'zod';
import { INTERVENTION_KINDS } from '../trace/interventions';
import { ownRecord } from '../trace/own-record';

const finite = z.number().refine(Number.isFinite, { message: 'must be a finite number (NaN and Infinity are not scores)' });

/** One request's attribution scores: `{"trace":"r1","task":"fx_settle","exposed":["A","B"],"scores":{"A":0.52}}`.
 * Scoreable tools are the keys of `scores`; `exposed` lists every tool the request was served with. */
export const ScoreRowSchema = z.object({
  trace: z.string().min(1, 'a score record needs the id of its trace'),
  task: z.string().min(1).optional(),
  exposed: z.array(z.string().min(1)),
  scores: ownRecord(z.string().min(1), finite),
});
export type ScoreRow = z.infer<typeof ScoreRowSchema>;

/** What is scored of a text answer: `answer` its own tokens (the paper's B.2), `expression` its first number-like
 * span, `answer-eot` its own tokens and the token that ends it (the chat format's end of turn; the plain
 * format's newline), so an answer `1` is told apart from one the model would have continued to `12.5`. */
export const ScoreSpanSchema = z.enum(['answer', 'expression', 'answer-eot']);
export type ScoreSpan = z.infer<typeof ScoreSpanSchema>;

/** Per-turn detail kept for the trace inspector (per-token log-probs of the frozen answer). */
export const TurnScoreDetailSchema = z.object({
  turn: z.number().int().nonnegative(),
  /** L(y | h): mean log-prob of the scored tokens under the full context. */
  base: finite,
  /** L(y | h^{-s}) per scored tool. */
  removed: ownRecord(z.string(), finite),
  /** The scored tokens as text pieces, in order. */
  tokens: z.array(z.string()).optional(),
  baseTokenLogprobs: z.array(z.number()).optional(),
  removedTokenLogprobs: ownRecord(z.string(), z.array(z.number())).optional(),
});
export type TurnScoreDetail = z.infer<typeof TurnScoreDetailSchema>;

/** Why a turn could not be scored (it contributes nothing; paper B.2: only empty final messages are excluded). */
export const UNSCORED_REASONS = ['empty-answer', 'no-expression', 'no-tokens'] as const;
export type UnscoredReason = (typeof UNSCORED_REASONS)[number];
export const UNSCORED_REASON_TEXT: Readonly<Record<UnscoredReason, string>> = {
  'empty-answer': 'the turn has no final assistant message (empty answer, no final call)',
  'no-expression': 'the answer holds no number-like expression or non-empty line (span "expression")',
  'no-tokens': 'the answer renders to no tokens after its context',
};
/** "2 turns scored as calls; 3 turns not scored (2 empty answer, 1 no number-like expression)", or '' when there is nothing to say. */
export function turnNotes(callTurns: number, unscored: Partial<Record<UnscoredReason, number>>): string {
  const parts: string[] = [];
  if (callTurns > 0) parts.push(`${callTurns} ${callTurns === 1 ? 'turn' : 'turns'} ending in a call scored as the serialized call`);
  const reasons = UNSCORED_REASONS.filter((r) => (unscored[r] ?? 0) > 0);
  const n = reasons.reduce((sum, r) => sum + unscored[r]!, 0);
  if (n > 0) parts.push(`${n} ${n === 1 ? 'turn' : 'turns'} not scored (${reasons.map((r) => `${unscored[r]}: ${UNSCORED_REASON_TEXT[r]}`).join('; ')})`);
  return parts.join('; ');
}

export const UnscoredTurnSchema = z.object({ turn: z.number().int().nonnegative(), reason: z.enum(UNSCORED_REASONS) });
export type UnscoredTurn = z.infer<typeof UnscoredTurnSchema>;

/** Why an intervention of a scored turn gave no score: its removal took nothing away (h^{-s} would equal
 * h), or the frozen target could not be located in h^{-s} (the answer renders to no tokens there). */
export const UNSCORED_INTERVENTION_REASONS = ['nothing-removed', ...UNSCORED_REASONS] as const;
export type UnscoredInterventionReason = (typeof UNSCORED_INTERVENTION_REASONS)[number];
export const UNSCORED_INTERVENTION_TEXT: Readonly<Record<UnscoredInterventionReason, string>> = {
  'nothing-removed': 'removing the tool took nothing out of the context (no call of it to remove)',
  'empty-answer': 'without the tool, the turn has no answer',
  'no-expression': 'without the tool, the answer holds no number-like expression',
  'no-tokens': 'without the tool, the answer renders to no tokens after its context',
};
export const UnscoredInterventionSchema = z.object({
  turn: z.number().int().nonnegative(),
  tool: z.string(),
  reason: z.enum(UNSCORED_INTERVENTION_REASONS),
});
export type UnscoredIntervention = z.infer<typeof UnscoredInterventionSchema>;

/** A score row as stored in a project: keyed so nothing is computed twice. */
export const StoredScoreSchema = ScoreRowSchema.extend({
  /** Unique key: run + trace hash. A record with a key already present is never appended again. */
  key: z.string().min(1),
  /** The scoring run: `<modelHash>|<intervention>|<span>|<format>` for computed scores (projects scored
   * before the format was recorded hold `<modelHash>|<intervention>|<span>`), `import:<name>` for imported ones. */
  run: z.string().min(1),
  traceHash: z.string().optional(),
  model: z.string().optional(),
  modelName: z.string().optional(),
  intervention: z.enum(INTERVENTION_KINDS as [string, ...string[]]).optional(),
  span: ScoreSpanSchema.optional(),
  /** How the traces were rendered into tokens: 'plain' or the chat wrapper's name (absent in older projects). */
  format: z.string().min(1).optional(),
  /** Tools whose score was shared with co-called tools (a removed message called several). */
  shared: ownRecord(z.string(), z.array(z.string())).optional(),
  turns: z.array(TurnScoreDetailSchema).optional(),
  /** Turns of the record that could not be scored, and why (absent when every turn was scored). */
  unscoredTurns: z.array(UnscoredTurnSchema).optional(),
  /** Interventions of a scored turn that were not scored, and why (each would otherwise vanish unseen). */
  unscoredInterventions: z.array(UnscoredInterventionSchema).optional(),
  createdAt: z.string().optional(),
});
export type StoredScore = z.infer<typeof StoredScoreSchema>;

/**
 * The run a computed score belongs to. The rendering format is part of it, so a model scored once through
 * its chat template and once as a plain transcript gives two runs, never one mixed ranking. Without a
 * format (what projects written before it was recorded hold) the key has three parts; such runs stay
 * readable, and new scoring starts a four-part run beside them.
 */
export function runKey(modelHash: string, intervention: string, span: ScoreSpan, format?: string): string {
  return format === undefined ? `${modelHash}|${intervention}|${span}` : `${modelHash}|${intervention}|${span}|${format}`;
}

export interface RunKeyParts {
  modelHash: string;
  intervention: string;
  span: string;
  /** Absent for imported runs and for runs scored before the format was recorded. */
  format?: string;
}

/** The parts of a computed run's key; null for imported scores (`import:<name>`) or a foreign string. */
export function parseRunKey(run: string): RunKeyParts | null {
  if (run.startsWith('import:')) return null;
  const parts = run.split('|');
  if (parts.length < 3 || parts.length > 4 || parts.some((p) => p === '')) return null;
  const [modelHash, intervention, span, format] = parts as [string, string, string, string | undefined];
  return { modelHash, intervention, span, ...(format !== undefined ? { format } : {}) };
}
