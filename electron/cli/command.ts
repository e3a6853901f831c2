// The shape of a CLI command, its exit codes and its own expected error. Each command lives in
// electron/cli/commands/<name>.ts and is listed in commands/index.ts.
import { ExpectedError } from '../../shared/api/errors';
import type { FlagSpec, ParsedArgs } from './args';

export interface CliIO {
  /** Messages and results for a person; main() escapes control characters in them (escape.ts). */
  out: (text: string) => void;
  err: (text: string) => void;
  /** Data meant for a file or a pipe (`lots export` without --out): written as is unless stdout is a
   * terminal, where it is escaped like `out`. Defaults to `out`. */
  data?: (text: string) => void;
  /** True when stdout is a terminal (progress bars are drawn only then). */
  isTTY: boolean;
}

export interface Command {
  /** Space-separated for subcommands: `scores import`. */
  name: string;
  summary: string;
  usage: string;
  flags: Record<string, FlagSpec>;
  /** Longer help: examples, formats, exit codes. */
  details?: string;
  /** Returns the exit code: 0 ok, 1 partial (some records rejected), 2 nothing done / usage error. */
  run(args: ParsedArgs, io: CliIO): Promise<number>;
}

export const EXIT_OK = 0;
export const EXIT_PARTIAL = 1;
export const EXIT_FAIL = 2;

/** A command's own check failed (no such file, nothing to do yet): printed as `lots <command>: message`, exit 2. */
export class CliError extends ExpectedError<'COMMAND_FAILED'> {
  override name = 'CliError';
  constructor(message: string) {
    super('COMMAND_FAILED', message);
  }
}
