// Score files and runs as the CLI reads them: the exchange format's help, reading a score file with its
// rejected lines printed, the run to read (saying which when there are several), rows in the exchange shape.
// Shared by `lots scores`, `lots fit` and `lots export`.
import { existsSync, readFileSync, statSync } from 'node:fs';
import { CliError, type CliIO } from './command';
import type { ProjectStore } from '../engine/store';
import type { ScoreRow, StoredScore } from '../../shared/project/scores';
import { parseScoreFile, type ParsedScoreFile } from '../../shared/lots/score-file';
import { formatLineError } from '../../shared/trace/validate';
import type { RunChoice } from '../engine/read-model/choose-run';
import { projectRunRows, runRows } from '../engine/read-model/task-rows';

export const SCORE_FORMAT_HELP = [
  'Score format (JSONL, one request per line):',
  '  {"trace": "r1", "task": "fx_settle", "exposed": ["A","B","C"], "scores": {"A": 0.52, "B": -0.03}}',
  "  trace    the id of the request's trace",
  '  task     the recurring task (optional; rows without one are grouped as "(unrouted)")',
  '  exposed  every tool the request was served with',
  '  scores   I_x(s) for each scoreable tool (finite numbers); a tool exposed but absent here was not scored.',
  '           Every key of "scores" must also be in "exposed"; a line breaking that is rejected.',
  'A trace appears once per file: a second record for the same trace is rejected.',
].join('\n');

/** Read and validate a score file; print every rejected line as `file:line: reason` on stderr. */
export function readScoreFile(path: string, io: CliIO): ParsedScoreFile {
  if (!existsSync(path)) throw new CliError(`${path}: no such file`);
  if (statSync(path).isDirectory()) throw new CliError(`${path} is a folder; give a JSONL score file`);
  const parsed = parseScoreFile(readFileSync(path, 'utf8'), path);
  for (const e of parsed.errors) io.err(formatLineError(e));
  return parsed;
}

/** The run to read from a project: --run if given (must exist), else the latest, saying so when there are several. */
export function chooseRun(store: ProjectStore, run: string | undefined, io: CliIO): string {
  const picked = projectRunRows(store, run);
  if (!picked) {
    throw new CliError(
      `${store.dir} holds no scores yet. Score its traces in the Studio (or \`lots score\`), or import scores with \`lots scores import <file> --project ${store.dir}\`.`,
    );
  }
  noteLatestRun(picked.choice, io);
  return picked.choice.run;
}

/** Says which run was taken when the project has several and none was asked for. */
export function noteLatestRun(choice: RunChoice & { run: string }, io: CliIO): void {
  const { runs, run } = choice;
  if (choice.by === 'latest' && runs.length > 1)
    io.err(`note: using the latest scoring run "${run}" (${runs.length} runs: ${runs.map((r) => `"${r}"`).join(', ')}); choose another with --run`);
}

/** Score rows of a run in the exchange format, each under its task (engine/read-model/task-rows.ts). */
export function projectRows(store: ProjectStore, run: string): ScoreRow[] {
  return runRows(store, run).map(toScoreRow);
}

export function toScoreRow(s: StoredScore): ScoreRow {
  return { trace: s.trace, ...(s.task !== undefined ? { task: s.task } : {}), exposed: s.exposed, scores: s.scores };
}
