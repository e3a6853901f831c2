// `lots diagnose`: the ranking diagnostics of a project's fitted spaces, from stored scores alone.
import { flagInt, flagList, flagString, requireFlag, UsageError } from '../args';
import { CliError, EXIT_OK, type CliIO, type Command } from '../command';
import { tableLines } from '../table';
import { ProjectStore } from '../../engine/store';
import { diagnoseProject, type ProjectDiagnosis, type TaskDiagnosis } from '../../engine/usecases/diagnose';
import type { RoleRank } from '../../../shared/lots/diagnostics';
import { formatFixed, percent } from '../../../shared/text';

export const command: Command = {
  name: 'diagnose',
  summary: 'ranking diagnostics from stored scores: gold chain in the top |G|, space recurrence under refits, correct vs wrong rankings, fewer traces',
  usage: 'lots diagnose --project <dir> [--run R] [--task t] [--resamples N] [--draws N] [--sizes 1,2,4,8] [--seed S] [--json]',
  flags: {
    project: { type: 'string', description: 'the project folder' },
    run: { type: 'string', description: 'the scoring run (default: the latest)' },
    task: { type: 'string', multi: true, description: 'only these tasks (repeat or comma-separate)' },
    resamples: { type: 'string', description: 'bootstrap refits for the recurrence of the space', default: '2000' },
    draws: { type: 'string', description: 'draws per size for the trace-count sensitivity', default: '200' },
    sizes: { type: 'string', description: 'fitting-trace counts for the trace-count sensitivity', default: '1,2,4,8' },
    seed: { type: 'string', description: 'seed of every draw', default: '1' },
    json: { type: 'boolean', description: 'print the diagnosis as one JSON object' },
  },
  details: [
    "Per task, from the latest scoring run (or --run), K from the task's stored budget sweep (else every",
    'scored tool), the space its top-K:',
    "  gold chain   built-in benchmark tasks only: are all of the family's chain tools among the top |G|",
    "               ranked tools (the paper's chain identification), with each chain tool's rank; over the",
    "               tasks, the mean rank of the chains' upstream tools (those feeding the last) and of their",
    "               downstream (last) tools, as the paper's Table 18 reports for two deletion operations;",
    '  recurrence   the share of bootstrap refits (fitting requests resampled with replacement) whose',
    '               top-K is exactly the space;',
    '  E.5          Spearman ρ between the ranking from correct traces only and from wrong traces only',
    '               (over the tools both rank; "—" when a side has no trace or fewer than 2 common tools),',
    "               per task, and pooled over the tasks as the paper's Figure 18 pools them;",
    '  E.6          the space fitted from 1, 2, 4, 8 fitting traces drawn without replacement: mean Jaccard',
    '               with the full-data space, and (benchmark tasks) how often the chain is in the top |G|.',
    "Nothing is served or scored: these read the stored scores and the traces' correct/wrong labels.",
  ].join('\n'),
  async run(args, io) {
    const store = ProjectStore.open(requireFlag(args, 'project'));
    const tasks = flagList(args, 'task')
      .flatMap((t) => t.split(','))
      .filter(Boolean);
    const sizes = flagList(args, 'sizes')
      .flatMap((s) => s.split(','))
      .map((s) => {
        const n = Number(s);
        if (!Number.isInteger(n) || n < 1) throw new UsageError(`--sizes takes positive whole numbers, got "${s}"`);
        return n;
      });
    const diagnosis = diagnoseProject(store, {
      run: flagString(args, 'run'),
      ...(tasks.length > 0 ? { tasks } : {}),
      resamples: flagInt(args, 'resamples', { min: 0 }),
      draws: flagInt(args, 'draws', { min: 1 }),
      ...(sizes.length > 0 ? { sizes } : {}),
      seed: flagInt(args, 'seed', { min: 0 }),
    });
    if (!diagnosis) throw new CliError('this project has no scoring runs yet: score its traces first (lots score)');
    if (diagnosis.tasks.length === 0) throw new CliError(`no scores for ${tasks.map((t) => `"${t}"`).join(', ')} in run ${diagnosis.run}`);
    if (args.flags.json) io.out(JSON.stringify(diagnosis, null, 2));
    else print(diagnosis, io);
    return EXIT_OK;
  },
};

const BUDGET_MARK: Record<TaskDiagnosis['budgetSource'], string> = { sweep: '', 'other-run': '†', eligible: '*' };

const fixed = (x: number | undefined) => (x === undefined ? '—' : formatFixed(x));

function chainCell(d: TaskDiagnosis): string {
  if (!d.chain) return '—';
  const ranks = d.chain.chain.map((t) => `${t} ${d.chain!.ranks[t] ?? '–'}`).join(', ');
  return `${d.chain.found ? 'yes' : 'no'} (${ranks})`;
}

function roleText(role: string, r: RoleRank): string {
  const unranked = r.unranked > 0 ? `, ${r.unranked} never scored` : '';
  return `${role} ${fixed(r.mean)} over ${r.tools} tool${r.tools === 1 ? '' : 's'}${unranked}`;
}

function print(d: ProjectDiagnosis, io: CliIO): void {
  io.out(`run ${d.run}`);
  const sizes = [...new Set(d.tasks.flatMap((t) => t.counts.map((c) => c.traces)))].sort((a, b) => a - b);
  const header = ['task', 'n', 'K', 'space', 'gold chain in top |G| (ranks)', 'recurrence', 'E.5 ρ (right/wrong)', ...sizes.map((s) => `E.6 @${s}`)];
  const rows = d.tasks.map((t) => [
    t.task,
    String(t.requests),
    `${t.k}${BUDGET_MARK[t.budgetSource]}`,
    t.space.join(', '),
    chainCell(t),
    `${percent(t.recurrence.share)} of ${t.recurrence.resamples}`,
    `${fixed(t.outcomes.rho)} (${t.outcomes.correct}/${t.outcomes.wrong})`,
    ...sizes.map((s) => {
      const c = t.counts.find((p) => p.traces === s);
      if (!c) return '—';
      return `J ${c.jaccard.toFixed(2)}${c.chainFound !== undefined ? `, chain ${percent(c.chainFound)}` : ''}`;
    }),
  ]);
  const columns = header.map((h) => ({ header: h }));
  for (const line of tableLines(columns, rows, { rule: true })) io.out(line);
  const withChain = d.tasks.filter((t) => t.chain);
  if (withChain.length > 0) io.out(`gold chain in the top |G|: ${withChain.filter((t) => t.chain!.found).length} of ${withChain.length} tool-using families`);
  if (d.chainRanks)
    io.out(`mean rank of the chain tools (Table 18): ${roleText('upstream', d.chainRanks.upstream)}, ${roleText('downstream', d.chainRanks.downstream)}`);
  const rhos = d.tasks.map((t) => t.outcomes.rho).filter((r): r is number => r !== undefined);
  const pooled = d.pooledOutcomes;
  io.out(
    `E.5 pooled over the tasks (the paper's Figure 18 protocol): Spearman ρ ${fixed(pooled.rho)} over ${pooled.common} tools, ${pooled.correct} correct and ${pooled.wrong} wrong traces`,
  );
  if (rhos.length > 0)
    io.out(
      `E.5 per task: mean Spearman ρ ${(rhos.reduce((a, b) => a + b, 0) / rhos.length).toFixed(2)} over ${rhos.length} tasks with both correct and wrong traces`,
    );
  if (d.tasks.some((t) => t.budgetSource === 'eligible')) io.out('* no stored budget sweep: K is every scored tool');
  const others = [...new Set(d.tasks.flatMap((t) => (t.budgetRun !== undefined ? [t.budgetRun] : [])))];
  if (others.length > 0)
    io.out(
      `† K from the stored budget sweep of another run (${others.join(', ')}): the space is this run's ranking at that budget, not a deployed space (lots sweep --run '${d.run}' sweeps this one)`,
    );
}
