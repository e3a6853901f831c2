// The seed points of a `lots demo --seeds N` folder, recomputed from each seed project's stored sweeps
// (so a seed evaluated again after the demo shows its new results), in the order demo.json lists them.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { comparisonRow, type ComparisonRow } from '../../../shared/benchmark/comparison-table';
import { seedPoint, type SeedPoint } from '../../../shared/benchmark/seeds';
import { ProjectStore } from '../store/project-store';
import { benchRequests } from './project';

/** Undefined when the folder is not the first project of a several-seed demo. A seed whose folder is not
 * there (the first project copied without seeds/) keeps its recorded point, and `onMissing` hears of it. */
export function seedPointsOf(store: ProjectStore, onMissing: (point: SeedPoint, dir: string) => void = () => {}): SeedPoint[] | undefined {
  const recorded = store.readDemo()?.seeds;
  if (!recorded?.length) return undefined;
  return recorded.map((p) => {
    const dir = join(store.dir, p.project);
    if (p.project !== '.' && !existsSync(join(dir, 'project.json'))) {
      onMissing(p, dir);
      return p;
    }
    const project = p.project === '.' ? store : ProjectStore.open(dir);
    const rows = [...benchRequests(project).byTask.keys()]
      .map((task) => project.readSweep(task))
      .filter((s) => s !== undefined)
      .map(comparisonRow)
      .filter((r): r is ComparisonRow => r !== undefined && r.results.size > 0);
    return { ...seedPoint(p.seed, p.project, rows), ...(p.seconds !== undefined ? { seconds: p.seconds } : {}), ...(p.decode ? { decode: p.decode } : {}) };
  });
}
