// `lots export`: a task's approved space (or every approved space, --all) in a format an agent or a reader
// consumes. A task with no approved space is refused, never written as an empty allow-list.
import { resolve } from 'node:path';
import { choice, flagString, requireFlag, UsageError } from '../args';
import { CliError, EXIT_OK, type Command } from '../command';
import { ProjectStore } from '../../engine/store';
import { ProjectIndex } from '../../engine/read-model/project-index';
import { exportTaskSpace } from '../../engine/views/export-space';
import { exportAll, writeExport } from '../../engine/api/exports';
import { SPACE_EXPORT_FORMATS, TOOL_EXPORT_FORMATS } from '../../../shared/api/export-formats';

export const command: Command = {
  name: 'export',
  summary: "write a task's tool space for an agent: space JSON, OpenAI/Anthropic tools, MCP allow-list, names, or an HTML report",
  usage: `lots export --project <dir> (--task <t> [--out f] | --all --out-dir d) --format ${SPACE_EXPORT_FORMATS.join('|')} [--mcp-server name] [--proposed]`,
  flags: {
    project: { type: 'string', description: 'the project folder' },
    task: { type: 'string', description: 'the task whose space is exported' },
    format: { type: 'string', description: SPACE_EXPORT_FORMATS.join(' | ') },
    out: { type: 'string', description: 'write to this file instead of stdout' },
    all: { type: 'boolean', description: 'export every approved space, one file per task, into --out-dir' },
    'out-dir': { type: 'string', description: 'with --all: the folder the files are written to' },
    'mcp-server': { type: 'string', description: "mcp-claude: the MCP server's name in the agent's mcpServers config" },
    proposed: { type: 'boolean', description: 'export the proposal of a task with no approved space (marked "proposed")' },
    run: { type: 'string', description: "scoring run for the ranking (default: the run the space was accepted from, else the task's latest)" },
  },
  details: [
    "Exports the approved version of the task's space (its latest). A task with no approved space is refused",
    '(exit 2): approve it first (`lots space approve`, or the Space view), or export its proposal on purpose',
    'with --proposed. The report is written for the proposal too, marked as such.',
    '',
    'Three states (docs/spaces.md): pinned tools are written in full, deferred ones as each API defers them,',
    'hidden ones not at all. Every tool keeps the schema and the `strict` flag its menu recorded.',
    '',
    'Formats:',
    '  space             our space file: {"format":"lots-space","v":1,"task","version","status","tools" (pinned),',
    '                    "deferred","rule","note","scores"}',
    '  openai            Chat Completions `tools`: pinned in full; deferred demoted (name and a short description,',
    "                    no parameter schema: the paper's documentation demotion), still callable",
    '  openai-responses  Responses API `tools`: every function with its schema, deferred ones "defer_loading": true,',
    '                    and {"type":"tool_search"} when any is deferred',
    '  anthropic         Messages API `tools`: every tool with its input_schema, deferred ones "defer_loading": true,',
    '                    and the tool search tool (tool_search_tool_bm25_20251119) when any is deferred',
    '  mcp               MCP allow-list, names as the traces recorded them: {"task","version","names":"as-recorded",',
    '                    "allowedTools" (pinned and deferred: every callable tool),"deferredTools" (the deferred apart)}',
    '  mcp-claude        the same with names as the Claude Agent SDK matches them, mcp__<server>__<tool>',
    '                    ("names":"claude-agent-sdk"); needs --mcp-server unless the recorded names have that form',
    '  names             the pinned tools, one name per line',
    '  report            a one-page HTML report (ranking with intervals, charts, kept tools, note) that prints to PDF',
    "Tool definitions come from the menus of the task's own traces, the latest definition seen for each name;",
    'a pinned or deferred tool that no menu of the task defines is an error that names it.',
    '',
    'Exit codes: 0 written; 2 unknown task, no approved space, a missing definition, or a usage error.',
  ].join('\n'),
  async run(args, io) {
    if (args.positionals.length > 0) throw new UsageError(`unexpected argument "${args.positionals[0]}"`);
    const store = ProjectStore.open(requireFlag(args, 'project'));
    const index = new ProjectIndex(store);
    const mcpServer = flagString(args, 'mcp-server');

    if (args.flags.all === true) {
      if (flagString(args, 'task') !== undefined) throw new UsageError('--all exports every approved space; leave out --task');
      const format = choice(args, 'format', TOOL_EXPORT_FORMATS);
      const dir = flagString(args, 'out-dir');
      if (!dir) throw new UsageError('--all writes one file per task: give the folder with --out-dir');
      // The same use case as the Export view's "Export all".
      const all = exportAll(store, index, format, dir, mcpServer);
      for (const e of all.files) io.out(`${e.filename}  task "${e.task}", version ${e.version}: ${e.pinned} pinned, ${e.deferred} deferred`);
      for (const s of all.skipped) io.err(`skipped task "${s.task}": ${s.reason} (\`lots space approve --task ${JSON.stringify(s.task)}\`)`);
      io.err(`wrote ${all.files.length} ${format} file${all.files.length === 1 ? '' : 's'} to ${dir}`);
      return EXIT_OK;
    }

    const task = requireFlag(args, 'task');
    const format = choice(args, 'format', SPACE_EXPORT_FORMATS);
    const run = flagString(args, 'run');
    const exported = exportTaskSpace(store, index, {
      task,
      format,
      proposed: args.flags.proposed === true,
      ...(run !== undefined ? { run } : {}),
      ...(mcpServer !== undefined ? { mcpServer } : {}),
    });
    const { space } = exported;
    if (exported.basis === 'empty') {
      throw new CliError(
        `task "${task}" has no approved space and no scores to propose one from; score its traces first (or import scores with \`lots scores import\`)`,
      );
    }
    if (exported.basis === 'proposal') {
      const why = exported.proposal?.by === 'sweep' ? 'the best K of its budget sweep' : 'every tool with a positive mean score; no budget sweep yet';
      io.err(
        `note: task "${task}" has no approved space yet; exporting the proposal (K = ${exported.proposal?.k}, ${why}: ${space.tools.length} pinned, ${space.deferred.length} deferred) from run ${exported.run}. Approve it with \`lots space approve\`.`,
      );
    }

    const out = flagString(args, 'out');
    if (out) {
      // The Export view's save: written atomically and logged in the project's activity.
      writeExport(store, { task, format, path: resolve(out), text: exported.text });
      io.err(
        `wrote ${format} of task "${task}" (${space.version === null ? 'proposed space' : `version ${space.version}`}, ${space.tools.length} pinned, ${space.deferred.length} deferred) to ${out}`,
      );
    } else if (exported.text) (io.data ?? io.out)(exported.text.endsWith('\n') ? exported.text.slice(0, -1) : exported.text);
    return EXIT_OK;
  },
};
