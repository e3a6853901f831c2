// The benchmark stream (paper §3, Figures 3 and 15; Appendix B.3, D.5): batches of each family's request
// stream arrive in turn; the arms share the request order and the evaluation set. `keep-all` serves the
// registry; `frozen` keeps the space of its first update; `updated` folds every batch into its running
// scores, exploring with probability ε; `capped` is the cold start under a serving cap C with
// ε-exploration. Stored as stream.json.
import { z } from 'zod';
import { ownRecord } from '../trace/own-record';
import { UpdateRuleSchema } from './updates';
import { RunHeaderSchema } from './run-record';

export const STREAM_ARMS = ['keep-all', 'frozen', 'updated', 'capped'] as const;
export type StreamArm = (typeof STREAM_ARMS)[number];

const Measure = z.object({
  accuracy: z.number().min(0).max(1),
  n: z.number().int().nonnegative(),
  /** Mean prompt tokens per request. */
  promptTokens: z.number().nonnegative(),
});
export type StreamMeasure = z.infer<typeof Measure>;

export const StreamArmBatchSchema = z.object({
  /** 1-based batch of this family. */
  batch: z.number().int().positive(),
  /** The step of the stream at which the batch arrived (1-based, across families). */
  step: z.number().int().positive(),
  /** The batch's own requests, served under the arm's menus. */
  served: Measure,
  /** Mean menu size over the batch, and how many requests were explored (updated and capped arms). */
  menuSize: z.number().nonnegative(),
  explored: z.number().int().nonnegative().default(0),
  /** The arm's space after the batch (the registry for keep-all), and its accuracy on the evaluation set. */
  space: z.array(z.string()),
  eval: Measure,
  running: ownRecord(z.string(), z.number()).optional(),
});
export type StreamArmBatch = z.infer<typeof StreamArmBatchSchema>;

export const StreamTaskSchema = z.object({
  task: z.string(),
  /** The step the family arrived at. */
  arrival: z.number().int().positive(),
  /** The family's own rule (top-K at its fitted budget), when the stream has no one rule for all. */
  rule: UpdateRuleSchema.optional(),
  arms: z.object({
    'keep-all': z.array(StreamArmBatchSchema),
    frozen: z.array(StreamArmBatchSchema),
    updated: z.array(StreamArmBatchSchema),
    capped: z.array(StreamArmBatchSchema).optional(),
  }),
});
export type StreamTask = z.infer<typeof StreamTaskSchema>;

export const StreamRecordSchema = RunHeaderSchema.extend({
  v: z.literal(1),
  options: z.object({
    families: z.array(z.string()),
    batches: z.number().int().positive(),
    batchSize: z.number().int().positive(),
    eval: z.number().int().positive(),
    registry: z.number().int().positive(),
    seed: z.string(),
    alpha: z.number(),
    /** One rule for every family (--k, --rule support); absent: each family's top-K at its own budget (tasks[].rule). */
    rule: UpdateRuleSchema.optional(),
    /** Where the per-family budgets came from: a sweep of each family's first batch, or another project's sweeps. */
    budgets: z.object({ source: z.enum(['sweep', 'project']), from: z.string().optional() }).optional(),
    /** Steps between two families' arrivals. */
    arrivalEvery: z.number().int().positive(),
    /** The preset the stream was started from (`--preset figure15`). */
    preset: z.string().optional(),
    cap: z.number().int().positive().optional(),
    /** Exploration probability of the updated and capped arms (records before it applied uncapped: capped only). */
    epsilon: z.number().min(0).max(1).optional(),
    /** Menu size of an updated arm's explored request; absent: the whole registry. */
    exploreSize: z.number().int().positive().optional(),
  }),
  tasks: z.array(StreamTaskSchema),
  /** Credited accuracy after each step (paper §3): (1/T)·Σ over arrived families of their arm's eval accuracy. */
  credited: z.array(z.object({ step: z.number().int().positive(), task: z.string(), arms: ownRecord(z.string(), z.number()) })),
});
export type StreamRecord = z.infer<typeof StreamRecordSchema>;
