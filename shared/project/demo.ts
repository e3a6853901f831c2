// The record `lots demo` leaves in its project (demo.json): how the demo was run (model, command,
// machine, preset sizes) and, when the registry-growth run was done, accuracy and prompt tokens of
// keep-all and LOTS at each registry size. The per-task results themselves live in the sweeps.
import { z } from 'zod';
import { DecodeSchema, RunHeaderSchema } from './run-record';

export const DEMO_RECORD_VERSION = 1;

const MethodPointSchema = z.object({
  /** Mean accuracy over the families (evaluation requests). */
  accuracy: z.number().min(0).max(1),
  /** Mean accuracy on the fitting requests. */
  fitAccuracy: z.number().min(0).max(1).optional(),
  /** Requests behind `accuracy` (all families). */
  n: z.number().int().nonnegative(),
  /** Mean prompt tokens per request. */
  promptTokens: z.number().nonnegative(),
  /** Mean tools served (K for LOTS, the registry for keep-all). */
  tools: z.number().nonnegative(),
});
export type MethodPoint = z.infer<typeof MethodPointSchema>;

export const GrowthPointSchema = z.object({
  registry: z.number().int().positive(),
  /** The project of this size, relative to the demo project (`.` for the demo project itself). */
  project: z.string(),
  families: z.array(z.string()),
  methods: z.record(z.string(), MethodPointSchema),
  seconds: z.number().nonnegative(),
});
export type GrowthPoint = z.infer<typeof GrowthPointSchema>;

const DifferenceSchema = z.object({
  difference: z.number(),
  lo: z.number().optional(),
  hi: z.number().optional(),
  n: z.number().int().nonnegative(),
});

/** One seed of a `--seeds N` run (shared/benchmark/seeds.ts summarises them). */
export const SeedPointSchema = z.object({
  seed: z.string(),
  /** The seed's project, relative to the demo project (`.` for the demo project itself). */
  project: z.string(),
  /** Method → mean evaluation accuracy over the families. */
  accuracy: z.record(z.string(), z.number()),
  /** Baseline → LOTS minus it, pooled over the families, with the paired bootstrap interval within the seed. */
  lotsMinus: z.record(z.string(), DifferenceSchema),
  /** The paper's Table 9 in this seed, where it has the fixed-K rows: per ranking at a fixed K (`dense-k2` …),
   * LOTS's own top K minus it, pooled over the families, with the interval within the seed; Random's draws. */
  fixedK: z.record(z.string(), DifferenceSchema.extend({ draws: z.number().int().positive().optional() })).optional(),
  /** Seconds of the seed project's own runs (its demo.json), where it was run on its own before this demo
   * joined it; absent where this demo made it (its time is in the demo's own seconds). */
  seconds: z.number().nonnegative().optional(),
  /** How this seed's project was served (DecodeSchema); absent: before the one-sequence decode. */
  decode: DecodeSchema.optional(),
});
export type SeedPoint = z.infer<typeof SeedPointSchema>;

export const DemoRecordSchema = RunHeaderSchema.extend({
  v: z.literal(DEMO_RECORD_VERSION),
  preset: z.object({
    name: z.string(),
    families: z.array(z.string()),
    fit: z.number().int().nonnegative(),
    eval: z.number().int().nonnegative(),
    registry: z.number().int().positive(),
    draws: z.number().int().positive(),
    /** The budget grid's largest K (the grid is 1…kMax, capped by the ranked tools). */
    kMax: z.number().int().positive().optional(),
    seed: z.string(),
    /** Seeds run (`--seeds N`; absent: one). */
    seeds: z.number().int().positive().optional(),
    /** The benchmark variant (shared/benchmark/variant.ts); absent: faithful. */
    variant: z.string().optional(),
  }),
  growth: z.array(GrowthPointSchema).default([]),
  /** With `--seeds N` (N > 1): one point per seed, in seed order. */
  seeds: z.array(SeedPointSchema).optional(),
});
export type DemoRecord = z.infer<typeof DemoRecordSchema>;
