// `lots import <file…> --project <dir>`: read trace files in any supported format (auto-detected by
// default) into a project. Rejected records are printed as `file:line: reason`; progress goes to stderr
// when it is a terminal.
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { flagList, flagString, requireFlag, UsageError } from '../args';
import { CliError, EXIT_FAIL, EXIT_OK, EXIT_PARTIAL, type Command } from '../command';
import { ProjectStore } from '../../engine/store';
import { traceIdConflictMessage } from '../../engine/store';
import { assertRegularFile, loadBfclJoin, type ReadProgress, type ReadSummary } from '../../engine/import';
import { importTraces, type ImportTracesResult } from '../../engine/usecases/import-traces';
import { formatNames, resolveFormatName, TRACE_FORMATS } from '../../../shared/importers/formats';
import type { BfclJoin } from '../../../shared/importers/types';
import { formatLineError } from '../../../shared/trace/validate';
import { escapeControl } from '../escape';

export const command: Command = {
  name: 'import',
  summary: 'import trace files (OpenAI, Anthropic, BFCL, OTel/OpenInference/Phoenix, Langfuse, GTA, ShareGPT/Hermes, native) into a project',
  usage: 'lots import <file…> --project <dir> [--format auto|native|openai|…] [--task-field path]',
  flags: {
    project: { type: 'string', description: 'the project folder (created when missing)' },
    format: { type: 'string', description: `input format: ${formatNames()}`, default: 'auto' },
    'task-field': { type: 'string', description: "dotted path of the task label in each record (e.g. metadata.task); overrides the format's own label" },
    'bfcl-dataset': {
      type: 'string',
      multi: true,
      description: "BFCL dataset file(s) (BFCL_v4_multi_turn_*.json) to recover each entry's API classes (task) and menu",
    },
    'bfcl-func-docs': { type: 'string', description: 'BFCL data/multi_turn_func_doc folder, to recover the menu of each entry' },
  },
  details: [
    'Formats (auto-detection looks at the first records and says why it chose a format):',
    ...TRACE_FORMATS.map((f) => `  ${f.id.padEnd(14)} ${f.label}`),
    '  aliases: openai-chat, openai-responses, claude, otlp, phoenix, hermes, llama-factory',
    '',
    'A file is JSON Lines (one record per line) or one JSON document (an array of records, a GTA-style',
    'object keyed by index, an OTLP or Langfuse export). Span formats are grouped into one trace per trace id.',
    'Each observation records how it was paired with its call: by id, by position, or by name and order.',
    'Importing the same records twice adds nothing; a trace id already held with other content is rejected.',
    '',
    'Exit codes: 0 everything imported; 1 some records were rejected (the rest imported);',
    '2 nothing could be imported, or a usage error; 130 stopped by Ctrl-C (the file in progress is not',
    'imported, the files before it are kept).',
  ].join('\n'),
  async run(args, io) {
    const files = args.positionals;
    if (files.length === 0) throw new UsageError('give at least one trace file');
    const project = requireFlag(args, 'project');
    const formatName = flagString(args, 'format') ?? 'auto';
    const format = resolveFormatName(formatName);
    if (!format) throw new UsageError(`unknown --format "${formatName}"; use one of ${formatNames()}`);
    // Only regular files, all checked before anything is imported: a device (/dev/zero), a pipe or a
    // folder would hold the project lock and never finish.
    for (const f of files) {
      if (!existsSync(f)) throw new CliError(`${f}: no such file`);
      assertRegularFile(f);
    }
    const datasets = flagList(args, 'bfcl-dataset');
    const funcDocs = flagString(args, 'bfcl-func-docs');
    const bfcl: BfclJoin | undefined = datasets.length || funcDocs ? loadBfclJoin(datasets, funcDocs) : undefined;
    const store = ProjectStore.openOrCreate(project);
    // Ctrl-C stops the import: the file in progress is dropped (nothing of it committed, the lock
    // released), the files imported before are kept and listed; exit 130. A second Ctrl-C ends at once.
    const abort = new AbortController();
    let interrupts = 0;
    const onSigint = (): void => {
      if (++interrupts > 1) process.exit(EXIT_CANCELLED);
      io.err('lots import: stopping (Ctrl-C again to quit at once)…');
      abort.abort();
    };
    let progress: ProgressLine | undefined;
    const err = (text: string): void => {
      progress?.clear();
      io.err(text);
    };
    process.on('SIGINT', onSigint);
    let result: ImportTracesResult;
    try {
      // (Waits for another writer without blocking, so Ctrl-C works while waiting too.)
      result = await importTraces(
        store,
        files.map((f) => ({ name: f, path: resolve(f) })),
        {
          signal: abort.signal,
          read: { format, taskField: flagString(args, 'task-field'), bfcl },
          onFile: (_i, source) => {
            progress?.clear();
            progress = process.stderr.isTTY ? new ProgressLine(source.name) : undefined;
          },
          ...(process.stderr.isTTY ? { onProgress: (p: ReadProgress) => progress?.update(p) } : {}),
          onImported: (_i, f) => {
            progress?.clear();
            if (f.summary.fatal) err(f.summary.fatal);
            io.out(describe(f.summary, f.report.added, f.report.duplicates, f.report.conflicts.length));
          },
          onRejected: (_source, e) => err(formatLineError(e)),
          onConflict: (source, c) => err(`${source.name}:${c.line}: ${traceIdConflictMessage(escapeControl(c.id))}`),
        },
      );
    } finally {
      progress?.clear();
      process.off('SIGINT', onSigint);
    }
    if (result.stopped) {
      if (!abort.signal.aborted) throw result.stopped.error;
      const kept = result.files.filter((f) => f.report.added > 0);
      const left = result.stopped.notStarted;
      io.err(`lots import: cancelled; nothing of ${result.stopped.file} was imported${left > 0 ? ` (${left} more file(s) not started)` : ''}`);
      io.err(
        kept.length > 0
          ? `lots import: kept what was imported before: ${kept.map((f) => `${f.summary.file} (${f.report.added} traces)`).join(', ')}`
          : 'lots import: nothing was imported',
      );
      io.out(`project ${store.dir}: ${store.traceCount} traces`);
      return EXIT_CANCELLED;
    }
    const imported = result.files.reduce((n, f) => n + f.report.added + f.report.duplicates, 0);
    const problems = result.files.reduce((n, f) => n + f.summary.rejected + f.report.conflicts.length + (f.summary.fatal ? 1 : 0), 0);
    io.out(`project ${store.dir}: ${store.traceCount} traces`);
    if (imported === 0 && problems > 0) return EXIT_FAIL;
    return problems > 0 ? EXIT_PARTIAL : EXIT_OK;
  },
};

/** Exit code of an import stopped by Ctrl-C (128 + SIGINT, as shells report it). */
const EXIT_CANCELLED = 130;

function describe(s: ReadSummary, added: number, duplicates: number, conflicts: number): string {
  const lines: string[] = [];
  lines.push(`${s.file}: ${s.format ? `format ${s.format} (${s.reason ?? 'given'})` : 'format not recognised'}`);
  const rate = s.elapsedMs > 0 ? ` in ${(s.elapsedMs / 1000).toFixed(1)} s (${(s.bytes / 1048576 / (s.elapsedMs / 1000)).toFixed(1)} MB/s)` : '';
  lines.push(
    `  read ${s.records} record(s), ${(s.bytes / 1048576).toFixed(1)} MB${rate}${s.encoding ? ` (${s.encoding.toUpperCase()}, decoded)` : ''}${s.compressed ? ` (${s.compressed}, decompressed)` : ''}`,
  );
  lines.push(
    `  traces imported: ${added}; duplicates skipped: ${duplicates}; rejected: ${s.rejected + conflicts}${conflicts ? ` (${conflicts} id conflicts)` : ''}`,
  );
  const p = s.pairing;
  if (p.id + p.position + p['name-order'] > 0)
    lines.push(`  observations paired by id: ${p.id}, by position: ${p.position}, by name and order: ${p['name-order']}`);
  const labelled = Object.entries(s.tasks).filter(([t]) => t !== '');
  const unlabelled = s.tasks[''] ?? 0;
  if (s.traces > 0) {
    const shown = labelled
      .slice(0, 8)
      .map(([t, n]) => `${escapeControl(t)} (${n})`)
      .join(', ');
    lines.push(
      `  tasks found: ${labelled.length}${labelled.length ? ` — ${shown}${labelled.length > 8 ? ', …' : ''}` : ''}${unlabelled ? `; ${unlabelled} trace(s) without a task, left for routing` : ''}`,
    );
  }
  if (unlabelled > 0 && s.taskFieldGuess)
    lines.push(
      `  hint: the records carry a task label at ${s.taskFieldGuess}: give --task-field ${s.taskFieldGuess} when importing them into a project that does not hold them yet (here they would be added a second time, labelled), or route these: lots route --project P`,
    );
  if (s.callTargetTurns > 0)
    lines.push(`  note: ${s.callTargetTurns} turn(s) end in a function call: the call is their frozen answer, scored in the model's tool-call format`);
  if (s.malformedToolCalls)
    lines.push(
      `  note: ${s.malformedToolCalls} call(s) name a tool no API accepts (a chat-template token in it, e.g. ls<|channel|>commentary, or garbled characters): a serving artefact, flagged in the trace (meta.malformedToolNames) and kept off inferred menus`,
    );
  if (s.foldedRecords)
    lines.push(
      `  note: ${s.foldedRecords} record(s) read into another record's trace, not traces of their own (earlier responses of a Responses chain, later retrievals of a background response)`,
    );
  if (s.unansweredTurns > 0) lines.push(`  note: ${s.unansweredTurns} turn(s) end without assistant text or call (empty frozen answer, not scoreable)`);
  return lines.join('\n');
}

class ProgressLine {
  private shown = false;
  constructor(private readonly file: string) {}

  update(p: ReadProgress): void {
    const mb = (n: number): string => (n / 1048576).toFixed(1);
    const pct = p.totalBytes > 0 ? Math.floor((100 * p.bytesRead) / p.totalBytes) : 100;
    const rate = p.elapsedMs > 0 ? Math.round((p.records * 1000) / p.elapsedMs) : 0;
    process.stderr.write(`\r${escapeControl(this.file)}: ${mb(p.bytesRead)}/${mb(p.totalBytes)} MB (${pct}%) · ${p.records} records · ${rate} records/s\x1b[K`);
    this.shown = true;
  }

  clear(): void {
    if (this.shown) process.stderr.write('\r\x1b[K');
    this.shown = false;
  }
}
