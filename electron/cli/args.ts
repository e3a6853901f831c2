// Flags of a command, parsed by node:util's parseArgs in strict mode: an unknown flag, a missing value or a
// value given to a switch is a usage error (exit 2), never silently ignored. The helpers below read them.
import { parseArgs as parseNodeArgs } from 'node:util';
import { errorCode, ExpectedError } from '../../shared/api/errors';

export interface FlagSpec {
  /** `string` takes a value, `boolean` does not; `multi` may repeat (and takes comma-separated lists). */
  type: 'string' | 'boolean';
  multi?: boolean;
  description: string;
  default?: string;
}

export interface ParsedArgs {
  positionals: string[];
  flags: Record<string, string | boolean | string[] | undefined>;
}

/** A command line the command cannot run: printed with the command's usage line (exit 2). */
export class UsageError extends ExpectedError<'USAGE'> {
  override name = 'UsageError';
  constructor(message: string) {
    super('USAGE', message);
  }
}

export function parseArgs(argv: readonly string[], spec: Record<string, FlagSpec>): ParsedArgs {
  let parsed: { values: Record<string, string | boolean | (string | boolean)[] | undefined>; positionals: string[] };
  try {
    parsed = parseNodeArgs({
      args: joinDashValues(argv, spec),
      options: Object.fromEntries(Object.entries(spec).map(([name, f]) => [name, { type: f.type, multiple: Boolean(f.multi) }])),
      strict: true,
      allowPositionals: true,
    });
  } catch (e) {
    throw usageOf(e);
  }
  const flags: ParsedArgs['flags'] = {};
  for (const [name, value] of Object.entries(parsed.values)) {
    flags[name] = Array.isArray(value) ? value.flatMap((v) => String(v).split(',').filter(Boolean)) : value;
  }
  for (const [name, flag] of Object.entries(spec)) {
    if (flags[name] === undefined && flag.default !== undefined) flags[name] = flag.default;
  }
  return { positionals: parsed.positionals, flags };
}

function flagName(arg: string): string {
  if (!arg.startsWith('--')) return '';
  const eq = arg.indexOf('=');
  return arg.slice(2, eq === -1 ? undefined : eq);
}

/**
 * `--tau -0.5` as `--tau=-0.5`: parseArgs calls a value that starts with a dash ambiguous; one dash is a
 * value here (a negative number, `-` for stdin), two are the next flag (`--x --y`: --x needs a value).
 */
function joinDashValues(argv: readonly string[], spec: Record<string, FlagSpec>): string[] {
  const out: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg === '--') {
      out.push(...argv.slice(i));
      break;
    }
    const next = argv[i + 1];
    if (spec[flagName(arg)]?.type === 'string' && !arg.includes('=') && next !== undefined && next.startsWith('-') && !next.startsWith('--')) {
      out.push(`${arg}=${next}`);
      i++;
    } else out.push(arg);
  }
  return out;
}

/** parseArgs' own errors, in our words. */
function usageOf(e: unknown): unknown {
  const code = errorCode(e);
  const message = e instanceof Error ? e.message : '';
  const option = /'(-{1,2}[^' ]+)/.exec(message)?.[1];
  if (code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION' && option) return new UsageError(`unknown option ${option}`);
  if (code === 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE' && option)
    return new UsageError(/does not take an argument/.test(message) ? `${option} takes no value` : `${option} needs a value`);
  return e;
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

/**
 * A flag that takes one of `values`: `--name must be one of a, b, c, got "x"` otherwise. Without a value it is
 * required (`--name is required`), unless a fallback is given.
 */
export function choice<const T extends string>(args: ParsedArgs, name: string, values: readonly T[]): T;
export function choice<const T extends string>(args: ParsedArgs, name: string, values: readonly T[], fallback: T): T;
export function choice<const T extends string>(args: ParsedArgs, name: string, values: readonly T[], fallback: undefined): T | undefined;
export function choice<const T extends string>(args: ParsedArgs, name: string, values: readonly T[], ...fallback: [T | undefined] | []): T | undefined {
  const v = flagString(args, name);
  if (v === undefined || v === '') {
    if (fallback.length > 0) return fallback[0];
    throw new UsageError(`--${name} is required`);
  }
  if (!(values as readonly string[]).includes(v)) throw new UsageError(`--${name} must be one of ${values.join(', ')}, got "${v}"`);
  return v as T;
}

export function flagList(args: ParsedArgs, name: string): string[] {
  const v = args.flags[name];
  return Array.isArray(v) ? v : typeof v === 'string' ? [v] : [];
}

export function flagInt(args: ParsedArgs, name: string, opts: { min?: number } = {}): number | undefined {
  const v = flagString(args, name);
  if (v === undefined) return undefined;
  const n = Number(v);
  if (!Number.isInteger(n) || (opts.min !== undefined && n < opts.min))
    throw new UsageError(`--${name} must be an integer${opts.min !== undefined ? ` ≥ ${opts.min}` : ''}, got "${v}"`);
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
  const rows = Object.entries(spec).map(([name, f]) => [
    `--${name}${f.type === 'string' ? ' <value>' : ''}`,
    f.description + (f.default !== undefined ? ` (default: ${f.default})` : ''),
  ]);
  const width = Math.max(0, ...rows.map((r) => r[0]!.length));
  return rows.map(([a, b]) => `  ${a!.padEnd(width)}  ${b}`).join('\n');
}
