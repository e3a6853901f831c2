// A small, strict argument parser: unknown flags are usage errors (exit 2), never silently ignored.
export interface FlagSpec {
  /** `string` takes a value, `boolean` does not; `multi` may repeat. */
  type: 'string' | 'boolean';
  multi?: boolean;
  description: string;
  default?: string;
}

export interface ParsedArgs {
  positionals: string[];
  flags: Record<string, string | boolean | string[] | undefined>;
}

export class UsageError extends Error {
  override name = 'UsageError';
}

export function parseArgs(argv: readonly string[], spec: Record<string, FlagSpec>): ParsedArgs {
  const positionals: string[] = [];
  const flags: ParsedArgs['flags'] = {};
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg === '--') {
      positionals.push(...argv.slice(i + 1));
      break;
    }
    if (!arg.startsWith('--') || arg === '-') {
      positionals.push(arg);
      continue;
    }
    const eq = arg.indexOf('=');
    const name = arg.slice(2, eq === -1 ? undefined : eq);
    const flag = spec[name];
    if (!flag) throw new UsageError(`unknown option --${name}`);
    if (flag.type === 'boolean') {
      if (eq !== -1) throw new UsageError(`--${name} takes no value`);
      flags[name] = true;
      continue;
    }
    let value: string | undefined = eq === -1 ? argv[++i] : arg.slice(eq + 1);
    if (value === undefined || (eq === -1 && value.startsWith('--'))) throw new UsageError(`--${name} needs a value`);
    if (flag.multi) {
      const prev = flags[name];
      flags[name] = [...(Array.isArray(prev) ? prev : []), ...value.split(',').filter(Boolean)];
    } else flags[name] = value;
  }
  for (const [name, flag] of Object.entries(spec)) {
    if (flags[name] === undefined && flag.default !== undefined) flags[name] = flag.default;
  }
  return { positionals, flags };
}

export function flagString(args: ParsedArgs, name: string): string | undefined {
  const v = args.flags[name];
  return typeof v === 'string' ? v : undefined;
}

export function requireFlag(args: ParsedArgs, name: string): string {
  const v = flagString(args, name);
  if (!v) throw new UsageError(`--${name} is required`);
  return v;
}

export function flagList(args: ParsedArgs, name: string): string[] {
  const v = args.flags[name];
  return Array.isArray(v) ? v : typeof v === 'string' ? [v] : [];
}

export function flagInt(args: ParsedArgs, name: string, opts: { min?: number } = {}): number | undefined {
  const v = flagString(args, name);
  if (v === undefined) return undefined;
  const n = Number(v);
  if (!Number.isInteger(n) || (opts.min !== undefined && n < opts.min)) throw new UsageError(`--${name} must be an integer${opts.min !== undefined ? ` ≥ ${opts.min}` : ''}, got "${v}"`);
  return n;
}

export function flagNumber(args: ParsedArgs, name: string): number | undefined {
  const v = flagString(args, name);
  if (v === undefined) return undefined;
  const n = Number(v);
  if (!Number.isFinite(n)) throw new UsageError(`--${name} must be a number, got "${v}"`);
  return n;
}

export function formatFlags(spec: Record<string, FlagSpec>): string {
  const rows = Object.entries(spec).map(([name, f]) => [`--${name}${f.type === 'string' ? ' <value>' : ''}`, f.description + (f.default !== undefined ? ` (default: ${f.default})` : '')]);
  const width = Math.max(0, ...rows.map((r) => r[0]!.length));
  return rows.map(([a, b]) => `  ${a!.padEnd(width)}  ${b}`).join('\n');
}
