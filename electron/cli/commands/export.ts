// `lots export`: a task's space (the latest approved version, else the proposed top-K) in a format an agent
// or a reader consumes.
import { resolve } from 'node:path';
import { choice, flagString, requireFlag, UsageError } from '../args';
import { CliError, EXIT_OK, type Command } from '../command';
import { ProjectStore } from '../../engine/store';
import { writeFileAtomic } from '../../engine/store/atomic';
import { ProjectIndex } from '../../engine/read-model/project-index';
import { exportTaskSpace } from '../../engine/views/export-space';
import { SPACE_EXPORT_FORMATS } from '../../../shared/export/export';

export const command: Command = {
  name: 'export',
  summary: "write a task's tool space for an agent: space JSON, OpenAI/Anthropic tools, MCP allow-list, names, or an HTML report",
  usage: `lots export --project <dir> --task <t> --format ${SPACE_EXPORT_FORMATS.join('|')} [--out f]`,
  flags: {
    project: { type: 'string', description: 'the project folder' },
    task: { type: 'string', description: 'the task whose space is exported' },
    format: { type: 'string', description: SPACE_EXPORT_FORMATS.join(' | ') },
    out: { type: 'string', description: 'write to this file instead of stdout' },
    run: { type: 'string', description: "scoring run for the ranking (default: the run the space was accepted from, else the task's latest)" },
  },
  details: [
    "Exports the latest approved version of the task's space. When none is approved yet, the proposed",
    "top-K is exported instead, as the Studio proposes it (K from the task's budget sweep, else every tool",
    'with a positive mean score) and a note says so on stderr.',
    '',
    'Formats:',
    '  space      our space file: {"format":"lots-space","v":1,"task","version","status","tools","rule","note","scores"}',
    '  openai     an OpenAI `tools` array: [{"type":"function","function":{"name","description","parameters"}}]',
    '  anthropic  an Anthropic `tools` array: [{"name","description","input_schema"}]',
    '  mcp        an allow-list for MCP clients: {"task","version","allowedTools":[names]} (the Claude Agent',
    '             SDK option `allowedTools`; other clients take the same list, e.g. tool_filter.allowed_tool_names)',
    '  names      one tool name per line',
    '  report     a one-page HTML report (ranking with intervals, charts, kept tools, note) that prints to PDF',
    "Tool definitions (openai, anthropic) come from the menus of the task's own traces, the latest definition",
    'seen for each name; a kept tool that no menu of the task defines is an error that names it.',
    '',
    'Exit codes: 0 written; 2 unknown task, nothing to export, a missing definition, or a usage error.',
  ].join('\n'),
  async run(args, io) {
    if (args.positionals.length > 0) throw new UsageError(`unexpected argument "${args.positionals[0]}"`);
    const store = ProjectStore.open(requireFlag(args, 'project'));
    const task = requireFlag(args, 'task');
    const format = choice(args, 'format', SPACE_EXPORT_FORMATS);

    const run = flagString(args, 'run');
    const exported = exportTaskSpace(store, new ProjectIndex(store), { task, format, ...(run !== undefined ? { run } : {}) });
    const { space } = exported;
    if (exported.basis === 'empty') {
      throw new CliError(
        `task "${task}" has no approved space and no scores to propose one from; score its traces first (or import scores with \`lots scores import\`)`,
      );
    }
    if (exported.basis === 'proposal') {
      const why = exported.proposal?.by === 'sweep' ? 'the best K of its budget sweep' : 'every tool with a positive mean score; no budget sweep yet';
      io.err(
        `note: task "${task}" has no approved space yet; exporting the proposed top-K (K = ${exported.proposal?.k}, ${why}, ${space.tools.length} tools) from run ${exported.run}. Approve a space in the Studio to pin it.`,
      );
    }

    const out = flagString(args, 'out');
    if (out) {
      writeFileAtomic(resolve(out), exported.text);
      io.err(
        `wrote ${format} of task "${task}" (${space.version === null ? 'proposed space' : `version ${space.version}`}, ${space.tools.length} tools) to ${out}`,
      );
    } else if (exported.text) (io.data ?? io.out)(exported.text.endsWith('\n') ? exported.text.slice(0, -1) : exported.text);
    return EXIT_OK;
  },
};
