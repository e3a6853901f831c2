// Entry of the `lots` CLI: dispatches to a command, turns expected errors into `lots <command>: message`
// + exit 2, and prints a bug with its stack.
import { isExpected } from '../../shared/api/errors';
import { STUDIO_VERSION } from '../engine/version';
import { formatFlags, parseArgs, UsageError } from './args';
import { EXIT_FAIL, type CliIO, type Command } from './command';
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

export async function main(argv: readonly string[], rawIO: CliIO = defaultIO): Promise<number> {
  const io = safeIO(rawIO);
  if (argv.length === 0 || argv[0] === '--help' || argv[0] === '-h' || argv[0] === 'help') {
    io.out(globalHelp());
    return argv.length === 0 ? EXIT_FAIL : 0;
  }
  if (argv[0] === '--version') {
    io.out(`lots ${STUDIO_VERSION}`);
    return 0;
  }
  const match = findCommand(argv);
  if (!match) {
    // A group of subcommands named alone (`lots space`, `lots bench --help`): list its subcommands.
    const group = commandIndex.filter((e) => e.name.startsWith(`${argv[0]} `));
    if (group.length > 0 && (argv.length === 1 || argv[1] === '--help' || argv[1] === '-h')) {
      const width = Math.max(...group.map((e) => e.name.length));
      const list = [`lots ${argv[0]}: one of these subcommands (\`lots ${argv[0]} <subcommand> --help\` for its options):`];
      for (const e of group) list.push(`  ${e.name.padEnd(width)}  ${e.summary}`);
      if (argv.length === 1) io.err(list.join('\n'));
      else io.out(list.join('\n'));
      return argv.length === 1 ? EXIT_FAIL : 0;
    }
    io.err(`lots: unknown command "${argv.slice(0, 2).join(' ')}". Run \`lots --help\` for the list.`);
    return EXIT_FAIL;
  }
  const { entry, rest } = match;
  const command = await entry.load();
  // (What follows `--` is another program's command line: `lots gateway mcp -- server --help`.)
  const own = rest.includes('--') ? rest.slice(0, rest.indexOf('--')) : rest;
  if (own.includes('--help') || own.includes('-h')) {
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
      io.err(`lots ${command.name}: ${e.message}`);
      return EXIT_FAIL;
    }
    io.err(`lots ${command.name}: unexpected error (a bug; please report it):\n${e instanceof Error ? e.stack : String(e)}`);
    return EXIT_FAIL;
  }
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
