// The update history of a task's space (paper §3, Appendix B.3, D.5): each batch of new traces that was
// scored folds its batch means into the task's running scores, and the rule proposes the next version.
// Proposals are never applied here: the operator approves one as a space version (spaces.ts).
import { z } from 'zod';
import { ownRecord } from '../trace/own-record';

/** How a proposal is cut from the running scores. `topk`: the K best running scores. `support`: the tools
 * whose running support (EMA of the per-batch share of requests with I_x(s) > tau) is at least phi, in
 * running-score order (our reading of D.5's "support-frequency retention, threshold 5%" for updates). */
export const UpdateRuleSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('topk'), k: z.number().int().positive() }),
  z.object({ kind: z.literal('support'), tau: z.number(), phi: z.number().min(0).max(1) }),
]);
export type UpdateRule = z.infer<typeof UpdateRuleSchema>;

/** A tool that entered or left the proposal at a batch, with the figures that decided it. */
export const CrossingSchema = z.object({
  tool: z.string(),
  /** Its running score after the batch. */
  running: z.number(),
  /** Its running support after the batch (support rule). */
  support: z.number().optional(),
  /** The cut it crossed: the K-th running score (top-K) or phi (support). Null when the space had room. */
  cut: z.number().nullable(),
});
export type Crossing = z.infer<typeof CrossingSchema>;

export const UpdateBatchSchema = z.object({
  /** 1-based batch number along the task's update axis. */
  batch: z.number().int().positive(),
  /** Where the batch came from: the project's trace file (one import) or a benchmark stream label. */
  source: z.string(),
  /** What a person recognises it by: the imported file's name. */
  label: z.string().optional(),
  /** The task's traces in the batch, and how many of them had score rows in the run. */
  traces: z.number().int().nonnegative(),
  scored: z.number().int().nonnegative(),
  /** Ī^(k)(s) of the tools this batch scored. */
  batchMeans: ownRecord(z.string(), z.number()),
  /** Share of the batch's scored requests with I_x(s) > tau, per tool (support rule only). */
  batchSupport: ownRecord(z.string(), z.number()).optional(),
  /** Ĩ(s) after the batch, every tool scored so far. */
  running: ownRecord(z.string(), z.number()),
  runningSupport: ownRecord(z.string(), z.number()).optional(),
  /** E^(k+1): the space the rule proposes after this batch, in running-score order. */
  proposed: z.array(z.string()),
  entered: z.array(CrossingSchema),
  left: z.array(CrossingSchema),
  /** Tools the batch's traces called while they were deferred (the menu the gateway forwarded had them
   * deferred), and in how many traces; absent when none was. */
  calledWhileDeferred: ownRecord(z.string(), z.number().int().positive()).optional(),
  /** Of those, the ones this batch's proposal pins: called while deferred, scored, and now in the rule's space. */
  promoted: z.array(z.string()).optional(),
  /** Accuracy of the proposed space where it was measured (benchmark streams). */
  accuracy: z.number().min(0).max(1).optional(),
  at: z.string(),
});
export type UpdateBatch = z.infer<typeof UpdateBatchSchema>;

export const TaskUpdatesSchema = z.object({
  task: z.string().min(1),
  /** EMA weight α ∈ (0, 1]. */
  alpha: z.number().gt(0).max(1),
  rule: UpdateRuleSchema,
  /** The scoring run the batch means were read from. */
  run: z.string(),
  batches: z.array(UpdateBatchSchema),
});
export type TaskUpdates = z.infer<typeof TaskUpdatesSchema>;

export const DEFAULT_UPDATE_ALPHA = 0.2;

/** "top-3", or "support ≥ 0.05 (I > 0)". */
export function describeUpdateRule(rule: UpdateRule): string {
  return rule.kind === 'topk' ? `top-${rule.k}` : `support ≥ ${rule.phi} (I > ${rule.tau})`;
}
