// Budget sweeps: measured fitting accuracy of the top-K space for every K in a grid.
import { z } from 'zod';

export const SweepPointSchema = z.object({
  k: z.number().int().nonnegative(),
  tools: z.array(z.string()),
  accuracy: z.number().min(0).max(1),
  n: z.number().int().nonnegative(),
  /** Mean prompt tokens per request under this space. */
  promptTokens: z.number().nonnegative(),
  /** Tokens of the tool-definition block alone. */
  schemaTokens: z.number().nonnegative().optional(),
});
export type SweepPoint = z.infer<typeof SweepPointSchema>;

export const BaselineResultSchema = z.object({
  name: z.string(), // 'keep-all' | 'no-tools' | 'random' | 'bm25' | …
  k: z.number().int().nonnegative(),
  tools: z.array(z.string()),
  /** Tools listed beside the menu but not run, which the model could ask for once (a three-state space's
   * deferred tools, shared/benchmark/deferred.ts); absent: none. */
  deferred: z.array(z.string()).optional(),
  /** Requests that asked for a deferred tool before answering. */
  deferredCalls: z.number().int().nonnegative().optional(),
  accuracy: z.number().min(0).max(1),
  n: z.number().int().nonnegative(),
  promptTokens: z.number().nonnegative(),
  /** The requests it was measured on (fitting or evaluation); absent in results written before splits were recorded. */
  split: z.enum(['fit', 'eval']).optional(),
  /** For Random: the spread over draws. */
  draws: z.number().int().positive().optional(),
  accuracyStd: z.number().nonnegative().optional(),
  /** Each request's outcome (trace id, share of draws right, prompt tokens): what paired statistics compare.
   * Absent in results written before they were kept. */
  outcomes: z
    .array(
      z.object({
        request: z.string(),
        correct: z.number().min(0).max(1),
        promptTokens: z.number().nonnegative(),
        /** The deferred tools the request asked for before answering. */
        called: z.array(z.string()).optional(),
      }),
    )
    .optional(),
  /** What choosing the space cost (shared/selection/method.ts SelectionCost); absent for a method that
   * calls no model. */
  selection: z
    .object({
      per: z.enum(['fit', 'request']),
      promptTokens: z.number().nonnegative(),
      calls: z.number().int().nonnegative(),
      candidates: z.number().int().nonnegative().optional(),
      failures: z.number().int().nonnegative().optional(),
      seconds: z.number().nonnegative().optional(),
      budget: z.number().int().nonnegative().optional(),
      embedder: z.string().optional(),
    })
    .optional(),
  /** One line on how the method ended (a search's stop, a router's unreadable replies). */
  note: z.string().optional(),
});
export type BaselineResult = z.infer<typeof BaselineResultSchema>;

export const SweepResultSchema = z.object({
  task: z.string(),
  model: z.string(),
  run: z.string().optional(),
  points: z.array(SweepPointSchema),
  bestK: z.number().int().nonnegative().optional(),
  baselines: z.array(BaselineResultSchema).default([]),
  createdAt: z.string(),
});
export type SweepResult = z.infer<typeof SweepResultSchema>;
