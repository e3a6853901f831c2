// How an MCP gateway's upstream command is shown: in its status record (gateways/<session>.json), its
// traces and its log lines. A command line may carry secrets (`env GITHUB_TOKEN=ghp_… node server.js`,
// `wrapper.sh --token VALUE`), and what is shown lands in the project, so only two things are shown: the
// command's base name and the first argument that is plainly a path (its base name) or a package name
// (an interpreter named on the way, as in `env … node server.js`, is passed over).
// Never a value containing `=`, never an argument that follows a flag (it may be the flag's value), except
// after the few launcher flags known to take none (`npx -y`); never a word that looks like a key.

/** Flags of common launchers (npx, uvx, node, python, docker run) known to take no value. */
const VALUELESS_FLAGS = new Set(['-y', '--yes', '-q', '--quiet', '--silent', '-u', '-i', '--rm', '--interactive', '-t', '--no-install', '--offline']);

/** Interpreters and launchers an `env …` or wrapper line may name before the script it runs: the script is shown. */
const LAUNCHERS = new Set(['node', 'nodejs', 'python', 'python3', 'deno', 'bun', 'npx', 'uvx', 'tsx', 'sh', 'bash']);

const baseName = (p: string): string =>
  p
    .replace(/[\\/]+$/, '')
    .split(/[\\/]/)
    .at(-1) ?? p;

/** A word that looks like a key or token rather than a name: long, or a run of letters and digits mixed. */
function looksSecret(word: string): boolean {
  if (word.length > 64) return true;
  // Four or more digits, or a long mixed run of letters and digits without separators (ghp_…, sk-…, hex).
  return (
    /\d{4,}/.test(word) ||
    /(?=[A-Za-z0-9]{16,})(?=.*\d)(?=.*[A-Za-z])[A-Za-z0-9]{16,}/.test(word) ||
    /^(ghp|gho|ghs|github_pat|sk|xox[abp]|glpat|AKIA)[-_]/i.test(word)
  );
}

/** An npm-style package name (@scope/name, optionally @version) or a plain command-like word (mcp-server-fetch). */
const PACKAGE = /^(@[a-z0-9][\w.~-]*\/)?[a-z0-9][\w.~-]*(@[\w.^~<>=|-]+)?$/i;

/** The argument as it may be shown, or undefined when it may not be (or is not a path or package). */
function shownArgument(arg: string): string | undefined {
  if (arg === '' || arg.includes('=') || arg.includes(':') || /\s/.test(arg)) return undefined;
  const isPath = /[\\/]/.test(arg) && !arg.startsWith('@');
  if (isPath) {
    const name = baseName(arg);
    return name !== '' && !looksSecret(name) ? name : undefined;
  }
  if (!PACKAGE.test(arg)) return undefined;
  return looksSecret(arg.replace(/^@[^/]+\//, '')) ? undefined : arg;
}

/**
 * The upstream command as it may be shown and stored: `npx @modelcontextprotocol/server-filesystem`,
 * `node index.js`, `env server.js`, `wrapper.sh`.
 */
export function shownCommand(command: string, args: readonly string[]): string {
  const name = command.includes('=') ? '(command)' : baseName(command) || '(command)';
  let afterFlag = false;
  for (const arg of args) {
    if (arg === '--') {
      afterFlag = false;
      continue;
    }
    if (arg.startsWith('-')) {
      // `--flag=value` carries its value; `--flag value` may: the next argument is skipped.
      afterFlag = !arg.includes('=') && !VALUELESS_FLAGS.has(arg);
      continue;
    }
    if (afterFlag) {
      afterFlag = false;
      continue;
    }
    if (arg.includes('=') || LAUNCHERS.has(baseName(arg).replace(/\.exe$/i, ''))) continue;
    const shown = shownArgument(arg);
    if (shown !== undefined) return `${name} ${shown}`;
  }
  return name;
}
