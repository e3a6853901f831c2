// `lots route`: give unlabelled requests a task by clustering their text (paper D.1).
import { flagInt, flagNumber, requireFlag } from '../args';
import { EXIT_OK, type Command } from '../command';
import { ProjectStore } from '../../engine/store';
import type { RoutingMethod } from '../../../shared/routing/route';
import { routeProject } from '../../engine/usecases/route';

export const command: Command = {
  name: 'route',
  summary: 'assign tasks to requests that have no task label, by clustering their text',
  usage: 'lots route --project <dir> [--k N | --tau x] [--seed s] [--dry-run]',
  flags: {
    project: { type: 'string', description: 'the project folder' },
    k: { type: 'string', description: 'number of tasks (default: chosen by silhouette over 2…20)' },
    tau: { type: 'string', description: 'online threshold router: cosine similarity needed to join a task' },
    seed: { type: 'string', description: 'seed of k-means++', default: '1' },
    'dry-run': { type: 'boolean', description: 'print the routing without saving it' },
  },
  details: [
    'Requests with a task label keep it. The others are embedded (hashed TF-IDF of their text) and',
    'clustered; each cluster becomes a task named cluster-NN. Splitting a task costs little and merging',
    'two costs a lot (paper D.1), so ties in the silhouette choose more clusters. Rerunning replaces the',
    'previous routing; the imported traces themselves are never modified.',
  ].join('\n'),
  async run(args, io) {
    const store = ProjectStore.open(requireFlag(args, 'project'));
    const k = flagInt(args, 'k', { min: 1 });
    const tau = flagNumber(args, 'tau');
    const method: RoutingMethod = k !== undefined ? { kind: 'kmeans', k } : tau !== undefined ? { kind: 'threshold', tau } : { kind: 'silhouette' };
    const result = routeProject(store, { method, seed: flagInt(args, 'seed') ?? 1, dryRun: Boolean(args.flags['dry-run']) });
    const n = Object.keys(result.routes).length;
    if (n === 0) {
      io.out('every request already has a task label; nothing to route');
      return EXIT_OK;
    }
    io.out(`routed ${n} unlabelled requests into ${result.clusters} tasks (silhouette ${result.silhouette.toFixed(3)})`);
    for (const [task, ex] of Object.entries(result.examples).sort()) {
      io.out(`  ${task}  ${String(result.sizes[task] ?? 0).padStart(5)} requests  e.g. "${ex[0]}"`);
    }
    return EXIT_OK;
  },
};
