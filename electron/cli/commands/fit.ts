// `lots fit`: per task, the ranking Ī_t(s) with support and bootstrap intervals, and the space a rule keeps.
import { choice, flagInt, flagList, flagNumber, flagString, UsageError, type ParsedArgs } from '../args';
import { CliError, EXIT_FAIL, EXIT_OK, EXIT_PARTIAL, type CliIO, type Command } from '../command';
import { ProjectStore } from '../../engine/store';
import type { ScoreRow } from '../../../shared/project/scores';
import { taskOf } from '../../../shared/lots/aggregate';
import { DEFAULT_PHI, DEFAULT_SUPPORT_TAU, DEFAULT_TAU, fitTasks, type FitOptions, type FitRuleKind, type TaskFit } from '../../../shared/lots/fit';
import { chooseRun, noteLatestRun, readScoreFile, SCORE_FORMAT_HELP } from '../score-files';
import { fitProject } from '../../engine/usecases/fit';
import { escapeControl } from '../escape';
import { tableLines, type Column } from '../table';
import { percent } from '../../../shared/text';

const RULES: readonly FitRuleKind[] = ['topk', 'threshold', 'support'];
/** Enough for stable 95% percentile intervals and keeps `lots fit` on a few thousand records well under a second. */
const CLI_RESAMPLES = 500;

export const command: Command = {
  name: 'fit',
  summary: 'rank the tools of each task by their scores and propose its tool space',
  usage: 'lots fit (--project <dir> | --scores <file>) [--k N | --rule topk|threshold|support] [--tau x] [--phi y] [--task t] [--json]',
  flags: {
    project: { type: 'string', description: 'read the scores of a project (its latest run, or --run)' },
    scores: { type: 'string', description: 'read a score file (JSONL exchange format) instead; no project needed' },
    run: { type: 'string', description: 'with --project: the scoring run (default: the latest)' },
    rule: { type: 'string', description: 'topk | threshold | support', default: 'topk' },
    k: { type: 'string', description: 'budget K of the top-K rule' },
    tau: {
      type: 'string',
      description: `threshold: keep mean > tau (default ${DEFAULT_TAU}); support: per-request threshold (default ${DEFAULT_SUPPORT_TAU})`,
    },
    phi: { type: 'string', description: `support: keep a tool when at least this share of its scored requests beats tau (default ${DEFAULT_PHI})` },
    task: { type: 'string', multi: true, description: 'only these tasks (repeat or comma-separate)' },
    resamples: { type: 'string', description: 'bootstrap resamples for the intervals (0 turns them off)', default: String(CLI_RESAMPLES) },
    seed: { type: 'string', description: 'seed of the bootstrap', default: '1' },
    json: { type: 'boolean', description: 'print exactly one JSON object: {"tasks": {"<task>": {"ranking": […], "space": […], "k": N}}}' },
  },
  details: [
    'Per task t: Ī_t(s) is the mean of I_x(s) over the requests that exposed AND scored s (a request that',
    'did not expose s is left out, not counted as zero); tools are ranked by Ī desc, ties by name. Only',
    'tools with a score are eligible; a space never contains an unscored tool, so it can be smaller than K.',
    '',
    'Rules:',
    "  topk       the K best tools. Without --k: the best K of the task's stored budget sweep (smallest K",
    '             with the highest fitting accuracy) when the project has one, else every eligible tool.',
    '  threshold  every tool with Ī > tau.',
    '  support    every tool with I_x(s) > tau on at least a share phi of its scored requests — our',
    "             reading of the paper's support-frequency rule.",
    'Intervals: 95% percentile bootstrap over the task\'s requests (seeded, reproducible); "in top-K" is the',
    'share of resamples whose space keeps the tool.',
    'With --json, "k" is the budget of the top-K rule (the space can be smaller when fewer tools are',
    'scored) and the size of the space under the other rules; "budgetSource" says where K came from.',
    '',
    SCORE_FORMAT_HELP,
    '',
    'Exit codes: 0 ok; 1 some score lines were rejected (printed as file:line: reason; the rest was fitted);',
    '2 nothing usable, or a usage error.',
  ].join('\n'),
  async run(args, io) {
    const options = fitOptions(args);
    const { rows, rejected, fits } = loadFits(args, options, io);
    if (rows.length === 0) {
      io.err(rejected > 0 ? 'no usable score records; nothing to fit' : 'no score records; nothing to fit');
      return EXIT_FAIL;
    }
    if (options.tasks) {
      const known = new Set(rows.map(taskOf));
      const unknown = options.tasks.filter((t) => !known.has(t));
      if (unknown.length > 0)
        throw new CliError(
          `no scores for task ${unknown.map((t) => `"${t}"`).join(', ')}; tasks: ${[...known]
            .sort()
            .map((t) => `"${t}"`)
            .join(', ')}`,
        );
    }
    if (args.flags.json) io.out(JSON.stringify(fitsToJson(fits)));
    else io.out(fits.map(formatFit).join('\n\n'));
    return rejected > 0 ? EXIT_PARTIAL : EXIT_OK;
  },
};

function fitOptions(args: ParsedArgs): FitOptions {
  const rule = choice(args, 'rule', RULES, 'topk');
  const k = flagInt(args, 'k', { min: 1 });
  const tau = flagNumber(args, 'tau');
  const phi = flagNumber(args, 'phi');
  if (k !== undefined && rule !== 'topk') throw new UsageError(`--k belongs to the top-K rule; --rule ${rule} decides the size itself`);
  if (tau !== undefined && rule === 'topk') throw new UsageError('--tau needs --rule threshold or --rule support');
  if (phi !== undefined && rule !== 'support') throw new UsageError('--phi needs --rule support');
  if (phi !== undefined && (phi < 0 || phi > 1)) throw new UsageError(`--phi is a share between 0 and 1, got ${phi}`);
  const resamples = flagInt(args, 'resamples', { min: 0 }) ?? CLI_RESAMPLES;
  const tasks = flagList(args, 'task');
  return {
    rule,
    ...(k !== undefined ? { k } : {}),
    ...(tau !== undefined ? { tau } : {}),
    ...(phi !== undefined ? { phi } : {}),
    ...(tasks.length > 0 ? { tasks } : {}),
    bootstrap: resamples === 0 ? false : { resamples, seed: flagInt(args, 'seed') ?? 1 },
  };
}

/** The rows and their fits: a score file's rows, or a project's run through the engine's fit (usecases/fit.ts). */
function loadFits(args: ParsedArgs, options: FitOptions, io: CliIO): { rows: readonly ScoreRow[]; rejected: number; fits: TaskFit[] } {
  const projectDir = flagString(args, 'project');
  const scoresFile = flagString(args, 'scores');
  if (args.positionals.length > 0) throw new UsageError(`unexpected argument "${args.positionals[0]}"`);
  if ((projectDir === undefined) === (scoresFile === undefined)) throw new UsageError('give exactly one of --project <dir> or --scores <file>');
  if (scoresFile !== undefined) {
    if (flagString(args, 'run') !== undefined) throw new UsageError('--run needs --project');
    const parsed = readScoreFile(scoresFile, io);
    return { rows: parsed.rows, rejected: parsed.errors.length, fits: parsed.rows.length > 0 ? fitTasks(parsed.rows, options) : [] };
  }
  const store = ProjectStore.open(projectDir!);
  const run = flagString(args, 'run');
  const fit = fitProject(store, { ...options, ...(run !== undefined ? { run } : {}) });
  // (No scores at all: the same message as every command reading a run.)
  if (!fit) chooseRun(store, run, io);
  noteLatestRun(fit!.choice, io);
  for (const w of store.warnings) io.err(`warning: ${w.file}: ${w.message}`);
  return { rows: fit!.rows, rejected: 0, fits: fit!.fits };
}

export function fitsToJson(fits: readonly TaskFit[]): { tasks: Record<string, unknown> } {
  return {
    tasks: Object.fromEntries(
      fits.map((f) => [
        f.task,
        {
          ranking: f.ranking.map((r) => ({
            tool: r.tool,
            mean: r.mean,
            n: r.n,
            lo: r.lo,
            hi: r.hi,
            exposed: r.exposed,
            ...(r.topKShare !== undefined ? { topKShare: r.topKShare } : {}),
            ...(r.meanRank !== undefined && Number.isFinite(r.meanRank) ? { meanRank: r.meanRank } : {}),
            ...(r.support !== undefined ? { support: r.support } : {}),
          })),
          space: f.space,
          k: f.k,
          rule: f.rule,
          budgetSource: f.budgetSource,
          requests: f.requests,
          unscored: f.unscored,
        },
      ]),
    ),
  };
}

const BUDGET_SOURCE: Record<TaskFit['budgetSource'], string> = {
  flag: 'from --k',
  sweep: 'best K of the stored budget sweep',
  eligible: 'every eligible tool; no budget sweep yet',
  rule: '',
};

export function formatFit(f: TaskFit): string {
  const rule =
    f.rule.kind === 'topk'
      ? `top-K, K = ${f.k} (${BUDGET_SOURCE[f.budgetSource]})`
      : f.rule.kind === 'threshold'
        ? `threshold: mean > ${f.rule.tau}`
        : f.rule.kind === 'support'
          ? `support: I > ${f.rule.tau} on ≥ ${f.rule.phi} of scored requests`
          : 'manual';
  const lines = [
    `task ${escapeControl(f.task)}: ${f.requests} request${f.requests === 1 ? '' : 's'}, ${f.ranking.length} tool${f.ranking.length === 1 ? '' : 's'} scored; rule ${rule}`,
  ];
  if (f.ranking.length > 0) {
    const kept = new Set(f.space);
    const support = f.ranking.some((r) => r.support !== undefined);
    const boot = f.ranking.some((r) => r.topKShare !== undefined);
    const columns: Array<Column & { cell: (r: (typeof f.ranking)[number]) => string }> = [
      { header: '#', align: 'right', min: 3, cell: (r) => String(r.rank) },
      { header: 'tool', cell: (r) => escapeControl(r.tool) },
      { header: 'mean', align: 'right', min: 9, cell: (r) => num(r.mean) },
      ...(boot ? [{ header: '95% interval', min: 21, cell: (r: (typeof f.ranking)[number]) => `[${num(r.lo)}, ${num(r.hi)}]` }] : []),
      { header: 'n', align: 'right', min: 6, cell: (r) => String(r.n) },
      ...(boot ? [{ header: 'in top-K', align: 'right' as const, cell: (r: (typeof f.ranking)[number]) => percent(r.topKShare) }] : []),
      ...(support ? [{ header: 'support', align: 'right' as const, cell: (r: (typeof f.ranking)[number]) => percent(r.support) }] : []),
      { header: 'kept', cell: (r) => (kept.has(r.tool) ? '✓' : '') },
    ];
    lines.push(
      ...tableLines(
        columns,
        f.ranking.map((r) => columns.map((c) => c.cell(r))),
        { indent: '  ' },
      ),
    );
  }
  lines.push(`  space (${f.space.length}): ${f.space.length > 0 ? f.space.map(escapeControl).join(', ') : '(empty)'}`);
  if (f.unscored.length > 0) lines.push(`  exposed but never scored (not eligible): ${f.unscored.map(escapeControl).join(', ')}`);
  return lines.join('\n');
}

function num(x: number): string {
  const s = x.toFixed(4);
  return s === '-0.0000' ? '0.0000' : s;
}
