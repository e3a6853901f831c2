// `lots sweep`: the budget sweep of each benchmark task, stored with the project.
import { sweepWithoutEvidence } from '../../../shared/lots/budget';
import { staleRowsNote } from '../../../shared/benchmark/sweep';
import { flagList, flagString, requireFlag, UsageError } from '../args';
import { CliError, EXIT_OK, EXIT_PARTIAL, type Command } from '../command';
import { benchRequests } from '../../engine/benchmark/project';
import { selectBenchTasks, sweepBenchTasks } from '../../engine/usecases/sweep';
import { ProjectStore } from '../../engine/store';
import { modelFlags, openServer } from '../bench-flags';
import { progressReporter } from '../stage-progress';
import { formatFixed } from '../../../shared/text';

export const command: Command = {
  name: 'sweep',
  summary: "measure fitting accuracy of each task's top-K space for every K and pick its budget",
  usage: 'lots sweep --project <dir> --model <gguf> [--task t] [--k 1,2,4] [--run <run>]',
  flags: {
    project: { type: 'string', description: 'a benchmark project with scored, served fitting requests' },
    ...modelFlags(),
    task: { type: 'string', multi: true, description: 'only these tasks (repeat or comma-separate)' },
    k: { type: 'string', multi: true, description: 'budgets to measure (default: 1…|A_t|, every K up to the number of scored tools)' },
    run: { type: 'string', description: "the scoring run to rank from (default: this model's latest re-execute run)" },
  },
  details: [
    'For each task: rank its tools by their mean score over its fitting requests (the chosen run), serve',
    'the fitting requests under the top-K space for each K, and record accuracy and mean prompt tokens.',
    'The budget is the smallest K with the highest fitting accuracy (labels are used only here). The curve',
    "is stored in the project (sweeps/), where the Studio's K slider reads it; points already measured for",
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
    const bench = benchRequests(store);
    // (Unknown tasks are named before the model is loaded.)
    const tasks = selectBenchTasks([...bench.byTask.keys()], flagList(args, 'task'));
    const server = await openServer(args);
    let result;
    try {
      const progress = new Map<string, (done: number, total: number) => void>();
      result = await sweepBenchTasks(store, server, {
        bench,
        tasks,
        ks,
        ...(flagString(args, 'run') !== undefined ? { run: flagString(args, 'run') } : {}),
        onRun: (run) => io.err(`ranking from run ${run}`),
        onStale: (task, methods) => io.err(`${task}: ${staleRowsNote(methods)}`),
        onTask: (task) => progress.set(task, progressReporter(io, `${task} sweep`)),
        onProgress: (task, p) => progress.get(task)?.(p.done, p.total),
        onDone: (outcome) => {
          if ('skipped' in outcome) {
            io.err(`${outcome.task}: ${outcome.skipped}; skipped`);
            return;
          }
          const sweep = outcome.result;
          io.out(`${outcome.task}: K=${sweep.bestK} (${sweep.points.find((p) => p.k === sweep.bestK)?.tools.join(', ')})`);
          for (const p of sweep.points)
            io.out(
              `  K=${String(p.k).padStart(3)}  fitting accuracy ${formatFixed(p.accuracy)}  (${p.n} requests, ${Math.round(p.promptTokens)} prompt tokens/request)`,
            );
          if (sweepWithoutEvidence(sweep.points))
            io.out(
              `  no K answered a fitting request right: K=${sweep.bestK} is the rule's default (the smallest K), not evidence; the ranking alone would keep every tool with a positive score (lots fit takes this K unless given --k)`,
            );
        },
      });
    } finally {
      await server.close();
    }
    const skipped = result.tasks.filter((t) => 'skipped' in t).length;
    if (skipped === tasks.length) throw new CliError('no task had scored tools; serve and score the fitting requests first');
    return skipped > 0 ? EXIT_PARTIAL : EXIT_OK;
  },
};
