// `lots scores import` / `lots scores export`: attribution scores computed elsewhere, in the exchange format
// {"trace":"r1","task":"fx_settle","exposed":["A","B","C"],"scores":{"A":0.52,"B":-0.03}} (one per line).
import { existsSync } from 'node:fs';
import { basename, resolve } from 'node:path';
import { flagString, requireFlag, UsageError } from '../args';
import { EXIT_FAIL, EXIT_OK, EXIT_PARTIAL, type Command } from '../command';
import { ProjectStore } from '../../engine/store';
import { writeFileAtomic } from '../../engine/store/atomic';
import type { StoredScore } from '../../../shared/project/scores';
import { formatScoreLine } from '../../../shared/lots/score-file';
import { rowTaskLabel } from '../../engine/read-model/task-rows';
import { chooseRun, projectRows, readScoreFile, SCORE_FORMAT_HELP } from '../score-files';

export const importCommand: Command = {
  name: 'scores import',
  summary: 'import attribution scores computed elsewhere (JSONL) into a project',
  usage: 'lots scores import <file> --project <dir> [--run name]',
  flags: {
    project: { type: 'string', description: 'the project folder (created when missing)' },
    run: { type: 'string', description: 'name of the scoring run the records join (default: import:<file name>)' },
  },
  details: [
    SCORE_FORMAT_HELP,
    '',
    'Records are keyed by run and trace: importing the same file twice adds nothing the second time.',
    'A row without "task" takes the task of its trace when the project holds that trace.',
    'Rejected lines are printed as file:line: reason.',
    '',
    'Exit codes: 0 every line was accepted; 1 some lines were rejected (the rest imported);',
    '2 nothing usable in the file, or a usage error.',
  ].join('\n'),
  async run(args, io) {
    if (args.positionals.length !== 1) throw new UsageError(args.positionals.length === 0 ? 'give the score file to import' : 'give exactly one score file');
    const file = args.positionals[0]!;
    const projectDir = requireFlag(args, 'project');
    const parsed = readScoreFile(file, io);
    if (parsed.rows.length === 0) {
      io.err(parsed.records === 0 ? `${file}: no score records (the file is empty)` : `${file}: none of the ${parsed.records} records could be imported`);
      return EXIT_FAIL;
    }
    const created = !existsSync(resolve(projectDir, 'project.json'));
    const store = ProjectStore.openOrCreate(projectDir);
    if (created) io.err(`created project ${store.dir}`);
    const run = flagString(args, 'run') ?? `import:${basename(file)}`;
    const createdAt = new Date().toISOString();
    let unknownTraces = 0;
    const traceTasks = store.traceTasks();
    const records: StoredScore[] = parsed.rows.map((row) => {
      const known = traceTasks.has(row.trace);
      if (!known) unknownTraces++;
      const task = rowTaskLabel(row, traceTasks);
      const hash = store.getTraceHash(row.trace);
      return {
        trace: row.trace,
        ...(task !== undefined ? { task } : {}),
        exposed: row.exposed,
        scores: row.scores,
        key: `${run}|${row.trace}`,
        run,
        ...(hash !== undefined ? { traceHash: hash } : {}),
        createdAt,
      };
    });
    const appended = store.appendScores(records);
    const present = records.length - appended.length;
    io.out(
      `imported ${appended.length} score record${appended.length === 1 ? '' : 's'} into ${store.dir} (run "${run}")` +
        (present > 0 ? `; ${present} already present (same run and trace), skipped` : '') +
        (parsed.errors.length > 0 ? `; ${parsed.errors.length} line${parsed.errors.length === 1 ? '' : 's'} rejected` : ''),
    );
    if (unknownTraces > 0) {
      io.err(
        `note: ${unknownTraces} record${unknownTraces === 1 ? ' refers to a trace' : 's refer to traces'} the project does not hold; ` +
          'fitting works, but exporting OpenAI/Anthropic tool definitions needs the traces (`lots import`).',
      );
    }
    if (appended.length > 0)
      store.logActivity({
        kind: 'scores',
        message: `imported ${appended.length} score records from ${basename(file)}`,
        data: { run, file, rejected: parsed.errors.length },
      });
    return parsed.errors.length > 0 ? EXIT_PARTIAL : EXIT_OK;
  },
};

export const exportCommand: Command = {
  name: 'scores export',
  summary: "write a project's scores in the exchange format (JSONL)",
  usage: 'lots scores export --project <dir> [--run r] [--out f]',
  flags: {
    project: { type: 'string', description: 'the project folder' },
    run: { type: 'string', description: 'the scoring run (default: the latest)' },
    out: { type: 'string', description: 'write to this file instead of stdout' },
  },
  details: [
    SCORE_FORMAT_HELP,
    '',
    'The output is what `lots scores import` and `lots fit --scores` read.',
    '',
    'Exit codes: 0 written; 2 no scores or a usage error.',
  ].join('\n'),
  async run(args, io) {
    const store = ProjectStore.open(requireFlag(args, 'project'));
    const run = chooseRun(store, flagString(args, 'run'), io);
    const rows = projectRows(store, run);
    const text = rows.map((r) => formatScoreLine(r) + '\n').join('');
    const out = flagString(args, 'out');
    if (out) {
      writeFileAtomic(resolve(out), text);
      io.err(`wrote ${rows.length} score records of run "${run}" to ${out}`);
    } else if (text) io.out(text.slice(0, -1));
    return EXIT_OK;
  },
};
