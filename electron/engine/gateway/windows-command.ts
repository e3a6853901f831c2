// Starting the upstream MCP server on Windows, where MCP hosts most often name it as `npx …`: npx is a
// batch file (npx.cmd), which Node (since CVE-2024-27980) starts only through cmd.exe, and cmd.exe reads
// its command line with its own rules. The SDK's transport used cross-spawn for this; the gateway has its
// own transport (mcp-stdio.ts), so it does the same here: find the command on PATH with PATHEXT, start an
// .exe/.com directly, anything else through `cmd.exe /d /s /c "…"` with every argument quoted and cmd's
// metacharacters escaped (twice for a node_modules/.bin shim, whose own cmd.exe reads them again), as
// cross-spawn 7 does (https://qntm.org/cmd). Elsewhere the command is started as it is.
import { existsSync } from 'node:fs';
import { win32 } from 'node:path';

const META = /([()\][%!^"`<>&|;, *?])/g;

/** One argument as cmd.exe passes it on unchanged to a program that reads its command line the usual way. */
export function cmdArgument(arg: string, doubleEscape: boolean): string {
  let a = arg.replace(/(?=(\\+?)?)\1"/g, '$1$1\\"').replace(/(?=(\\+?)?)\1$/, '$1$1');
  a = `"${a}"`.replace(META, '^$1');
  return doubleEscape ? a.replace(META, '^$1') : a;
}

/** The command's file: as given when it has a directory, else the first PATH entry that has it with a PATHEXT extension. */
export function resolveWindowsCommand(
  command: string,
  env: Record<string, string | undefined>,
  exists: (p: string) => boolean = existsSync,
): string | undefined {
  const exts = (env.PATHEXT ?? '.COM;.EXE;.BAT;.CMD').split(';').filter(Boolean);
  const withExt = (base: string) => (win32.extname(base) ? [base, ...exts.map((e) => base + e)] : exts.map((e) => base + e));
  if (/[\\/]/.test(command)) return withExt(command).find(exists);
  for (const dir of (env.Path ?? env.PATH ?? '').split(';').filter(Boolean)) {
    const found = withExt(win32.join(dir, command)).find(exists);
    if (found) return found;
  }
  return undefined;
}

export interface SpawnLine {
  command: string;
  args: string[];
  /** Node's spawn option: the arguments are already quoted for cmd.exe. */
  windowsVerbatimArguments?: boolean;
}

/** How to start `command args` on this platform. */
export function spawnLine(
  command: string,
  args: readonly string[],
  env: Record<string, string | undefined>,
  platform = process.platform,
  exists?: (p: string) => boolean,
): SpawnLine {
  if (platform !== 'win32') return { command, args: [...args] };
  const file = resolveWindowsCommand(command, env, exists);
  if (file !== undefined && /\.(com|exe)$/i.test(file)) return { command: file, args: [...args] };
  const shim = file !== undefined && /node_modules[\\/].bin[\\/][^\\/]+\.cmd$/i.test(file);
  const line = [win32.normalize(command).replace(META, '^$1'), ...args.map((a) => cmdArgument(a, shim))].join(' ');
  return { command: env.comspec ?? env.ComSpec ?? 'cmd.exe', args: ['/d', '/s', '/c', `"${line}"`], windowsVerbatimArguments: true };
}
