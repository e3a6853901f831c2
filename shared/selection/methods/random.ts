// Random: uniform subsets of LOTS's size K, several seeded draws, each reused across the task's requests
// (paper B.1).
import { rngFor } from '../../lots/rng';
import { type BudgetedMethod, PER_TASK_BASELINE } from '../method';

export function randomSpaces(task: string, registry: readonly string[], k: number, seed: string, draws: number): string[][] {
  return Array.from({ length: draws }, (_, d) => rngFor(seed, 'random-baseline', task, k, d).sample(registry, k));
}

export const random: BudgetedMethod<'random'> = {
  id: 'random',
  label: 'Random',
  follows: 'budget',
  definition: "uniform subsets of LOTS's size K, several seeded draws",
  definitionAt: (k) => `uniform subsets of size ${k}, several seeded draws`,
  ...PER_TASK_BASELINE,
  async select(ctx) {
    const all = ctx.registry.map((t) => t.name);
    const k = Math.min(ctx.k, all.length);
    return { k, menus: randomSpaces(ctx.task, all, k, ctx.seed, ctx.draws) };
  },
};
