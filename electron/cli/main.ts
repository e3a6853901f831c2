// Entry of the `lots` CLI: dispatches to a command, turns expected errors into `lots: message` + exit 2.
import { formatFlags, parseArgs, UsageError } from './args';
import { EXIT_FAIL, type CliIO, type Command } from './command';
import { commands } from './registry';
import { commandIndex, type CommandEntry } from './commands/index';
import { escapeTerminal } from './escape';

const defaultIO: CliIO = {
  out: (t) => process.stdout.write(t.endsWith('\n') ? t : t + '\n'),
  err: (t) => process.stderr.write(t.endsWith('\n') ? t : t + '\n'),
  data: (t) => process.stdout.write(t.endsWith('\n') ? t : t + '\n'),
  isTTY: Boolean(process.stdout.isTTY),
};

/** What commands print passes through here: user-provided text cannot drive the terminal (escape.ts). */
export function safeIO(io: CliIO): CliIO {
  const out = (t: string) => io.out(escapeTerminal(t));
  const data = io.data;
  return {
    out,
    err: (t) => io.err(escapeTerminal(t)),
    data: data && !io.isTTY ? data : out,
    isTTY: io.isTTY,
  };
}

/** An error a user can act on; printed without a stack trace. */
export class CliError extends Error {
  override name = 'CliError';
  constructor(message: string, readonly exitCode = EXIT_FAIL) {
    super(message);
  }
}

export async function main(argv: readonly string[], rawIO: CliIO = defaultIO): Promise<number> {
  const io = safeIO(rawIO);
  if (argv.length === 0 || argv[0] === '--help' || argv[0] === '-h' || argv[0] === 'help') {
    io.out(globalHelp());
    return argv.length === 0 ? EXIT_FAIL : 0;
  }
  if (argv[0] === '--version') {
    io.out('lots 0.1.0');
    return 0;
  }
  const match = findCommand(argv);
  if (!match) {
    io.err(`lots: unknown command "${argv.slice(0, 2).join(' ')}". Run \`lots --help\` for the list.`);
    return EXIT_FAIL;
  }
  const { entry, rest } = match;
  await entry.load();
  const command = commands.find((c) => c.name === entry.name);
  if (!command) throw new Error(`command module for "${entry.name}" did not register it`);
  if (rest.includes('--help') || rest.includes('-h')) {
    io.out(commandHelp(command));
    return 0;
  }
  try {
    const args = parseArgs(rest, command.flags);
    return await command.run(args, io);
  } catch (e) {
    if (e instanceof UsageError) {
      io.err(`lots ${command.name}: ${e.message}\nusage: ${command.usage}\nRun \`lots ${command.name} --help\` for details.`);
      return EXIT_FAIL;
    }
    if (isExpected(e)) {
      io.err(`lots ${command.name}: ${(e as Error).message}`);
      return (e as { exitCode?: number }).exitCode ?? EXIT_FAIL;
    }
    io.err(`lots ${command.name}: unexpected error (a bug; please report it):\n${e instanceof Error ? e.stack : String(e)}`);
    return EXIT_FAIL;
  }
}

/** Expected errors carry a `code` (ENOENT, PROJECT_LOCKED, …) or are CliErrors; bugs get a stack trace. */
function isExpected(e: unknown): boolean {
  return e instanceof CliError || (e instanceof Error && typeof (e as { code?: unknown }).code === 'string');
}

function findCommand(argv: readonly string[]): { entry: CommandEntry; rest: string[] } | undefined {
  const two = argv.slice(0, 2).join(' ');
  const byTwo = commandIndex.find((c) => c.name === two);
  if (byTwo) return { entry: byTwo, rest: argv.slice(2) };
  const byOne = commandIndex.find((c) => c.name === argv[0]);
  if (byOne) return { entry: byOne, rest: argv.slice(1) };
  return undefined;
}

function globalHelp(): string {
  const width = Math.max(...commandIndex.map((c) => c.name.length));
  return [
    'lots — LOTS Studio on the command line: import agent traces, score tool evidence with a local model,',
    'rank tools per task, choose a budget, and export task-specific tool spaces.',
    '',
    'usage: lots <command> [options]      (lots <command> --help for details)',
    '',
    'commands:',
    ...commandIndex.map((c) => `  ${c.name.padEnd(width)}  ${c.summary}`),
    '',
    'A project is a folder (--project <dir>); `lots import` creates it.',
  ].join('\n');
}

export function commandHelp(c: Command): string {
  return [`usage: ${c.usage}`, '', c.summary, '', 'options:', formatFlags(c.flags), c.details ? `\n${c.details}` : ''].join('\n');
}
