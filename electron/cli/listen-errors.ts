// What the three servers the CLI starts (`lots ui`, `lots gateway openai`, `lots gateway mcp --http`) say
// when they cannot listen: one line naming the address and what to do, exit 2 (main.ts prints a CliError
// as `lots <command>: message`), instead of a stack. The caller closes what it had started first.
import { CliError } from './command';

/** The listen errors a user can fix (the port is taken, not allowed, the address is not this machine's). */
const CAUSES: Record<string, (port: string, host: string) => string> = {
  EADDRINUSE: (port, host) => `port ${port} on ${host} is already in use (another program, or another lots server, listens there)`,
  EACCES: (port, host) => `port ${port} on ${host} is not allowed for this user (ports below 1024 need privileges)`,
  EADDRNOTAVAIL: (port, host) => `${host} (port ${port}) is not an address of this machine`,
};

/**
 * `error` as the one line to print when it is a listen error a user can fix, else undefined (a bug stays
 * a bug). `flag` is the command's port flag (`--port`).
 */
export function listenFailure(error: unknown, host: string, port: number, flag = '--port'): CliError | undefined {
  const code = (error as { code?: unknown } | null)?.code;
  if (typeof code !== 'string' || !Object.hasOwn(CAUSES, code)) return undefined;
  const shownHost = host.includes(':') ? `[${host}]` : host;
  const advice =
    code === 'EADDRNOTAVAIL'
      ? 'give an address of this machine (127.0.0.1 is always one)'
      : `stop what listens there, or give another port with ${flag} N (${flag} 0 picks a free one)`;
  return new CliError(`cannot listen: ${CAUSES[code]!(String(port), shownHost)}; ${advice}. Nothing was started.`);
}
