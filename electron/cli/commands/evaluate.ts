// `lots evaluate`: LOTS at each task's budget against Keep all, No tools, Random and BM25.
import { flagInt, flagList, requireFlag, UsageError } from '../args';
import { CliError, EXIT_OK, EXIT_PARTIAL, type Command } from '../command';
import { DEFAULT_RANDOM_DRAWS } from '../../../shared/benchmark/baselines';
import { BASELINE_NAMES, type BaselineName } from '../../../shared/selection/registry';
import { comparisonRow, formatComparisonTable, type ComparisonRow } from '../../../shared/benchmark/comparison-table';
import { formatPairedTable, pairedTable } from '../../../shared/benchmark/paired-table';
import { benchRequests } from '../../engine/benchmark/project';
import { ProjectStore } from '../../engine/store';
import { modelFlags, openServer } from '../bench-flags';
import { progressReporter } from '../stage-progress';
import { evaluateBenchTasks, selectBenchTasks } from '../../engine/usecases/sweep';

export const command: Command = {
  name: 'evaluate',
  summary: "compare each task's LOTS space with the baselines on fitting and evaluation requests",
  usage: 'lots evaluate --project <dir> [--model <gguf>] [--task t] [--baselines keep-all,no-tools,random,bm25] [--draws n] [--json]',
  flags: {
    project: { type: 'string', description: 'a benchmark project with budget sweeps (`lots sweep`)' },
    ...modelFlags(),
    task: { type: 'string', multi: true, description: 'only these tasks (repeat or comma-separate)' },
    baselines: { type: 'string', multi: true, description: `baselines to run (default: ${BASELINE_NAMES.join(', ')})` },
    draws: { type: 'string', description: 'Random: number of seeded draws (mean ± std)', default: String(DEFAULT_RANDOM_DRAWS) },
    json: { type: 'boolean', description: 'print the stored results as JSON: {"tasks": {"<task>": SweepResult}}' },
  },
  details: [
    'LOTS serves each task under its top-K space at the budget of its sweep; the baselines use the same',
    'task and budget: keep-all (the registry), no-tools (an empty menu), random (K tools drawn uniformly,',
    "several seeded draws, reused across the task's requests), bm25 (the K tools whose names, descriptions",
    "and schemas best match the task's fitting requests). Each is served on the fitting and evaluation",
    'requests. Results are stored with the sweep; the LOTS space is recorded as an accepted space version.',
    'Without --model, prints the stored results only.',
    '',
    'Exit codes: 0 ok; 1 some tasks had no sweep and were skipped; 2 usage error or nothing to evaluate.',
  ].join('\n'),
  async run(args, io) {
    const store = ProjectStore.open(requireFlag(args, 'project'));
    const bench = benchRequests(store);
    const tasks = selectBenchTasks([...bench.byTask.keys()], flagList(args, 'task'));
    const baselines = flagList(args, 'baselines');
    const unknown = baselines.filter((b) => !(BASELINE_NAMES as readonly string[]).includes(b));
    if (unknown.length) throw new UsageError(`unknown baseline ${unknown.join(', ')}; choose from ${BASELINE_NAMES.join(', ')}`);
    const draws = flagInt(args, 'draws', { min: 1 });
    let skipped = 0;
    if (args.flags.model !== undefined) {
      const server = await openServer(args);
      try {
        const progress = new Map<string, (done: number, total: number) => void>();
        const outcomes = await evaluateBenchTasks(store, server, {
          bench,
          tasks,
          baselines: baselines as BaselineName[],
          ...(draws !== undefined ? { draws } : {}),
          onTask: (task) => progress.set(task, progressReporter(io, `${task} evaluate`)),
          onProgress: (task, done, total) => progress.get(task)?.(done, total),
          onDone: (outcome) => {
            if ('skipped' in outcome) io.err(`${outcome.task}: ${outcome.skipped}; skipped`);
          },
        });
        skipped = outcomes.filter((o) => 'skipped' in o).length;
      } finally {
        await server.close();
      }
    }
    const sweeps = tasks.map((t) => store.readSweep(t)).filter((s) => s !== undefined);
    if (args.flags.json) {
      io.out(JSON.stringify({ tasks: Object.fromEntries(sweeps.map((s) => [s.task, s])) }));
    } else {
      const rows = sweeps.map(comparisonRow).filter((r): r is ComparisonRow => r !== undefined && r.results.size > 0);
      if (rows.length === 0) throw new CliError(`nothing evaluated yet in ${store.dir}; run \`lots evaluate --model <gguf>\` after \`lots sweep\``);
      io.out(formatComparisonTable(rows));
      const paired = formatPairedTable(pairedTable(rows));
      if (paired) io.out(`\n${paired}`);
    }
    return skipped > 0 ? EXIT_PARTIAL : EXIT_OK;
  },
};
