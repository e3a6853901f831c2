// `lots bench make`: a ready benchmark project (requests with gold answers, task labels and splits,
// each executed under the whole registry) written through the project store.
import { existsSync, readdirSync } from 'node:fs';
import { resolve } from 'node:path';
import { generateBenchmark, planBenchmark, type BenchOptions, type BenchPlan } from '../../../shared/benchmark/generate';

import { ProjectStore } from '../store/project-store';
import { ExpectedError } from '../../../shared/api/errors';

export interface MadeProject {
  store: ProjectStore;
  plan: BenchPlan;
  traces: number;
}

/** The generation time stamped on every benchmark project, so equal seeds give equal bytes. */
export const BENCH_EPOCH = new Date('2026-01-01T00:00:00.000Z');

export function benchSource(plan: BenchPlan): string {
  const variant = plan.variant === 'faithful' ? '' : `, ${plan.variant} variant`;
  return `lots bench make (seed ${plan.seed}, ${plan.registry} tools, ${plan.families.length} families, ${plan.fit} fit + ${plan.eval} eval each${variant})`;
}

/** `besides`: entries the folder may already hold (a `--seeds` demo's seeds/, run before its first seed). */
export function makeBenchProject(dir: string, options: BenchOptions, besides: readonly string[] = []): MadeProject {
  const abs = resolve(dir);
  if (existsSync(abs) && readdirSync(abs).some((e) => !besides.includes(e))) {
    throw new ExpectedError('INVALID_INPUT', `${abs} already exists and is not empty; give --out a new folder (a benchmark project is generated whole)`);
  }
  const plan = planBenchmark(options);
  const traces = generateBenchmark(options);
  // The name comes from the benchmark, not the folder, so two folders of one seed hold the same bytes.
  // Its timestamps too: generation is stamped with a fixed epoch, later work with the real clock.
  const generated = ProjectStore.create(abs, `LOTS benchmark (seed ${plan.seed})`, { clock: () => BENCH_EPOCH });
  const summary = generated.addTraces(traces, benchSource(plan));
  return { store: ProjectStore.open(abs), plan, traces: summary.added };
}
