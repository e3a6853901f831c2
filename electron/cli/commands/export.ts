// `lots export`: a task's space (the latest approved version, else the proposed top-K) in a format an agent
// or a reader consumes.
import { resolve } from 'node:path';
import { choice, flagString, requireFlag, UsageError } from '../args';
import { CliError, EXIT_OK, type CliIO, type Command } from '../command';
import { ProjectStore } from '../../engine/store';
import { writeFileAtomic } from '../../engine/store/atomic';
import type { SpaceVersion } from '../../../shared/project/spaces';
import type { ScoreRow } from '../../../shared/project/scores';
import { taskOf, UNROUTED } from '../../../shared/lots/aggregate';
import { fitTask, type TaskFit } from '../../../shared/lots/fit';
import { fullContextLikelihood, surrogateCurve } from '../../../shared/lots/surrogate';
import { collectToolDefinitions } from '../../../shared/export/definitions';
import { exportSpace, SPACE_EXPORT_FORMATS, type SpaceExportFormat } from '../../../shared/export/export';
import type { ReportBudgetPoint } from '../../../shared/export/report';
import type { ExportableSpace } from '../../../shared/export/space';
import { projectRows, traceTaskMap } from './scores';
import { sweepBudgets } from './fit';

export const command: Command = {
  name: 'export',
  summary: 'write a task\'s tool space for an agent: space JSON, OpenAI/Anthropic tools, MCP allow-list, names, or an HTML report',
  usage: `lots export --project <dir> --task <t> --format ${SPACE_EXPORT_FORMATS.join('|')} [--out f]`,
  flags: {
    project: { type: 'string', description: 'the project folder' },
    task: { type: 'string', description: 'the task whose space is exported' },
    format: { type: 'string', description: SPACE_EXPORT_FORMATS.join(' | ') },
    out: { type: 'string', description: 'write to this file instead of stdout' },
    run: { type: 'string', description: 'scoring run for the ranking (default: the run the space was accepted from, else the latest)' },
  },
  details: [
    'Exports the latest approved version of the task\'s space. When none is approved yet, the proposed',
    'top-K is exported instead (K from the task\'s budget sweep, else every scored tool) and a note says so',
    'on stderr.',
    '',
    'Formats:',
    '  space      our space file: {"format":"lots-space","v":1,"task","version","status","tools","rule","note","scores"}',
    '  openai     an OpenAI `tools` array: [{"type":"function","function":{"name","description","parameters"}}]',
    '  anthropic  an Anthropic `tools` array: [{"name","description","input_schema"}]',
    '  mcp        an allow-list for MCP clients: {"task","version","allowedTools":[names]} (the Claude Agent',
    '             SDK option `allowedTools`; other clients take the same list, e.g. tool_filter.allowed_tool_names)',
    '  names      one tool name per line',
    '  report     a one-page HTML report (ranking with intervals, charts, kept tools, note) that prints to PDF',
    'Tool definitions (openai, anthropic) come from the menus of the project\'s traces, the latest definition',
    'seen for each name; a kept tool that no menu defines is an error that names it.',
    '',
    'Exit codes: 0 written; 2 unknown task, nothing to export, a missing definition, or a usage error.',
  ].join('\n'),
  async run(args, io) {
    if (args.positionals.length > 0) throw new UsageError(`unexpected argument "${args.positionals[0]}"`);
    const store = ProjectStore.open(requireFlag(args, 'project'));
    const task = requireFlag(args, 'task');
    const format = choice(args, 'format', SPACE_EXPORT_FORMATS);

    const approved = store.readSpaces(task).versions.at(-1);
    const run = pickRun(store, flagString(args, 'run'), approved);
    const rows = run === undefined ? [] : projectRows(store, run).filter((r) => taskOf(r) === task);
    if (!approved && rows.length === 0) throw new CliError(unknownTaskMessage(store, task));

    const budgets = sweepBudgets(store);
    const fit = rows.length > 0
      ? fitTask(task, rows, approved ? { k: approved.tools.length } : { budgets })
      : undefined;
    const space = approved ? fromApproved(approved, fit) : proposed(fit!, run!, io);

    const sweep = store.readSweep(task);
    const exported = exportSpace(format as SpaceExportFormat, space, {
      ...(format === 'openai' || format === 'anthropic' ? { definitions: collectToolDefinitions(store.traceMenus()) } : {}),
      ...(format === 'report' ? {
        report: {
          ranking: fit?.ranking ?? [],
          budget: budgetPoints(fit, rows, store, run, sweep?.points),
          chosenK: approved ? (approved.rule.kind === 'topk' ? approved.rule.k : approved.tools.length) : fit!.k,
          requests: fit?.requests,
          generatedAt: new Date().toISOString(),
        },
      } : {}),
    });

    const out = flagString(args, 'out');
    if (out) {
      writeFileAtomic(resolve(out), exported.text);
      io.err(`wrote ${format} of task "${task}" (${space.version === null ? 'proposed space' : `version ${space.version}`}, ${space.tools.length} tools) to ${out}`);
    } else if (exported.text) (io.data ?? io.out)(exported.text.endsWith('\n') ? exported.text.slice(0, -1) : exported.text);
    return EXIT_OK;
  },
};

/** --run if given; else the run the approved space came from when it is still there; else the latest. */
function pickRun(store: ProjectStore, run: string | undefined, approved: SpaceVersion | undefined): string | undefined {
  const runs = store.listRuns();
  if (run !== undefined) {
    if (!runs.includes(run)) throw new CliError(`no scoring run "${run}" in ${store.dir}; runs: ${runs.map((r) => `"${r}"`).join(', ') || '(none)'}`);
    return run;
  }
  if (approved?.run !== undefined && runs.includes(approved.run)) return approved.run;
  return runs.at(-1);
}

function fromApproved(v: SpaceVersion, fit: TaskFit | undefined): ExportableSpace {
  return {
    task: v.task,
    version: v.version,
    tools: v.tools,
    rule: v.rule,
    note: v.note,
    ...(fit ? { scores: fit.ranking } : {}),
    ...(v.run !== undefined ? { run: v.run } : {}),
    createdAt: v.createdAt,
  };
}

function proposed(fit: TaskFit, run: string, io: CliIO): ExportableSpace {
  const why = fit.budgetSource === 'sweep' ? 'the best K of its budget sweep' : 'every scored tool; no budget sweep yet';
  io.err(`note: task "${fit.task}" has no approved space yet; exporting the proposed top-K (K = ${fit.k}, ${why}, ${fit.space.length} tools). Approve a space in the Studio to pin it.`);
  return {
    task: fit.task,
    version: null,
    tools: fit.space,
    rule: fit.rule,
    note: `proposed by lots export from run ${run}; not approved`,
    scores: fit.ranking,
    run,
  };
}

function budgetPoints(fit: TaskFit | undefined, rows: ScoreRow[], store: ProjectStore, run: string | undefined, sweep: { k: number; accuracy: number }[] | undefined): ReportBudgetPoint[] {
  const byK = new Map<number, ReportBudgetPoint>();
  if (fit && fit.ranking.length > 0) {
    const traces = new Set(rows.map((r) => r.trace));
    const full = run === undefined ? undefined : fullContextLikelihood(store.listScores(run).filter((s) => traces.has(s.trace)));
    for (const p of surrogateCurve(fit.ranking, full ?? 0)) byK.set(p.k, { k: p.k, surrogate: p.value });
  }
  for (const p of sweep ?? []) byK.set(p.k, { ...byK.get(p.k), k: p.k, accuracy: p.accuracy });
  return [...byK.values()].sort((a, b) => a.k - b.k);
}

function unknownTaskMessage(store: ProjectStore, task: string): string {
  const tasks = new Set<string>();
  const traceTasks = traceTaskMap(store);
  for (const s of store.listScores()) tasks.add(s.task ?? traceTasks.get(s.trace) ?? UNROUTED);
  for (const s of store.listSpaces()) tasks.add(s.task);
  for (const task of traceTasks.values()) if (task) tasks.add(task);
  if (tasks.has(task)) {
    return `task "${task}" has no approved space and no scores to propose one from; score its traces first (or import scores with \`lots scores import\`)`;
  }
  const list = [...tasks].sort();
  return `no task "${task}" in ${store.dir}; ${list.length > 0 ? `tasks: ${list.map((t) => `"${t}"`).join(', ')}` : 'the project has no tasks yet'}`;
}
