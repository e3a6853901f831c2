// `lots sweep`: the budget sweep of each benchmark task, stored with the project.
import { flagList, flagString, requireFlag, UsageError } from '../args';
import { CliError, EXIT_OK, EXIT_PARTIAL, type Command } from '../command';
import { sweepTask } from '../../engine/bench/evaluate';
import { benchRequests, chooseRun, taskRanking } from '../../engine/bench/project';
import { ProjectStore } from '../../engine/store';
import { modelFlags, openServer, selectTasks } from '../bench-flags';
import { progressReporter } from '../stage-progress';

export const command: Command = {
  name: 'sweep',
  summary: 'measure fitting accuracy of each task\'s top-K space for every K and pick its budget',
  usage: 'lots sweep --project <dir> --model <gguf> [--task t] [--k 1,2,4] [--run <run>]',
  flags: {
    project: { type: 'string', description: 'a benchmark project with scored, served fitting requests' },
    ...modelFlags(),
    task: { type: 'string', multi: true, description: 'only these tasks (repeat or comma-separate)' },
    k: { type: 'string', multi: true, description: 'budgets to measure (default: 1…|A_t|, every K up to the number of scored tools)' },
    run: { type: 'string', description: 'the scoring run to rank from (default: this model\'s latest re-execute run)' },
  },
  details: [
    'For each task: rank its tools by their mean score over its fitting requests (the chosen run), serve',
    'the fitting requests under the top-K space for each K, and record accuracy and mean prompt tokens.',
    'The budget is the smallest K with the highest fitting accuracy (labels are used only here). The curve',
    'is stored in the project (sweeps/), where the Studio\'s K slider reads it; points already measured for',
    'the same task, K, model and tools are reused, so an interrupted sweep resumes.',
    '',
    'Exit codes: 0 ok; 1 some tasks had no scored tools and were skipped; 2 usage error or nothing to sweep.',
  ].join('\n'),
  async run(args, io) {
    const store = ProjectStore.open(requireFlag(args, 'project'));
    const ks = flagList(args, 'k').map((v) => {
      const n = Number(v);
      if (!Number.isInteger(n) || n < 1) throw new UsageError(`--k takes positive integers, got "${v}"`);
      return n;
    });
    const { byTask } = benchRequests(store);
    const tasks = selectTasks([...byTask.keys()], flagList(args, 'task'));
    const server = await openServer(args);
    let skipped = 0;
    try {
      const run = chooseRun(store, server.modelHash, flagString(args, 'run'));
      io.err(`ranking from run ${run}`);
      const scores = store.listScores(run);
      for (const task of tasks) {
        const ranking = taskRanking(scores, task);
        if (ranking.length === 0) {
          io.err(`${task}: no scored tools in run ${run}; skipped`);
          skipped++;
          continue;
        }
        const progress = progressReporter(io, `${task} sweep`);
        const sweep = await sweepTask(store, server, task, byTask.get(task)!, ranking, { run, ks: ks.length ? ks : undefined, onProgress: (p) => progress(p.done, p.total) });
        io.out(`${task}: K=${sweep.bestK} (${sweep.points.find((p) => p.k === sweep.bestK)?.tools.join(', ')})`);
        for (const p of sweep.points) io.out(`  K=${String(p.k).padStart(3)}  fitting accuracy ${p.accuracy.toFixed(2)}  (${p.n} requests, ${Math.round(p.promptTokens)} prompt tokens/request)`);
      }
    } finally {
      await server.close();
    }
    if (skipped === tasks.length) throw new CliError('no task had scored tools; serve and score the fitting requests first');
    return skipped > 0 ? EXIT_PARTIAL : EXIT_OK;
  },
};
