// `lots gateway openai` and `lots gateway mcp`: serve each task's approved space to live agents, in front
// of an OpenAI-compatible upstream or an MCP server, and record the traffic as batches of the project for
// `lots update`. The gateways themselves live in electron/engine/gateway/; this file reads the flags, the
// secrets (from environment variables only, never from a flag), prints a line per request and a summary,
// and stops cleanly on SIGINT/SIGTERM (the batch is committed before the process ends).
import { flagInt, flagNumber, flagString, requireFlag, UsageError, type ParsedArgs } from '../args';
import { EXIT_OK, type CliIO, type Command } from '../command';
import { ProjectStore } from '../../engine/store';
import { isLoopbackHost } from '../../engine/gateway/http-guard';
import { startOpenAIGateway } from '../../engine/gateway/openai-gateway';
import type { GatewayStats } from '../../../shared/gateway/stats';

const common = {
  project: { type: 'string', description: 'the project folder (its approved spaces are served; its traffic recorded into it)' },
  host: { type: 'string', description: 'address to bind; anything but loopback needs --token-env', default: '127.0.0.1' },
  'token-env': { type: 'string', description: 'environment variable holding the bearer token callers must send (required off loopback)' },
  'max-body-mib': { type: 'string', description: 'largest request body accepted, in MiB (413 beyond)', default: '4' },
  'batch-minutes': { type: 'string', description: 'commit the recorded traces as a new batch this often (and on exit)', default: '10' },
  'summary-s': { type: 'string', description: 'print the per-task summary this often (0: only on exit)', default: '60' },
  quiet: { type: 'boolean', description: 'no line per request (the summary only)' },
} as const;

export const openaiCommand: Command = {
  name: 'gateway openai',
  summary: "an OpenAI-compatible Chat Completions proxy that cuts each request's tools to its task's approved space and records the traffic",
  usage: 'lots gateway openai --project <dir> --upstream URL [--port N] [--host 127.0.0.1] [--upstream-key-env NAME] [--token-env NAME]',
  flags: {
    ...common,
    upstream: { type: 'string', description: 'the upstream that speaks Chat Completions: http://127.0.0.1:8080 (llama-server), https://api.openai.com/v1, …' },
    port: { type: 'string', description: 'port to listen on (0: any free one)', default: '8808' },
    'upstream-key-env': { type: 'string', description: "environment variable holding the upstream's API key (default: OPENAI_API_KEY when it is set)" },
    'open-idle-s': {
      type: 'string',
      description: 'an answer that calls tools and that no request continues within this long is recorded as it is',
      default: '120',
    },
  },
  details: [
    'Point an agent at http://HOST:PORT/v1 instead of its provider. For each POST /v1/chat/completions the',
    'task is the `x-lots-task` header, else `metadata.lots_task` (removed before forwarding), else the',
    "project's router (once `lots route` has routed the project: the nearest task by the request's text).",
    "The request's `tools` are cut to the task's approved space (its latest accepted version; a tool the",
    'request lacks is never added). A request without a task, or of a task without an approved space, is',
    'passed through unchanged and counted. The answer (streamed or not) is returned as the upstream sent it.',
    '',
    'Every answered exchange is recorded as a native trace (the request, the menu shown, the calls, their',
    'observations when the next request of the agent carries them, the answer): an answer that calls tools',
    'waits for the request that continues it, and the chain becomes one trace. Traces are committed into',
    'the project as a new import batch every --batch-minutes and when the gateway stops, so `lots score`',
    'and `lots update` fold live traffic as they fold imports. Serving never waits for the project lock.',
    '',
    'Errors the gateway gives itself (OpenAI error shape): 400 malformed JSON (with line and column) or an',
    'unknown task (naming the known ones), 401/403 without the token, 413 over --max-body-mib, 502 when the',
    'upstream cannot be reached (with its error; nothing is recorded). Other paths (/v1/models, …) are',
    'forwarded as they are. Keys are read from environment variables only and never recorded.',
  ].join('\n'),
  async run(args, io) {
    const upstream = requireFlag(args, 'upstream');
    if (!/^https?:\/\//.test(upstream)) throw new UsageError(`--upstream must be an http(s) URL, got "${upstream}"`);
    const { store, host, token, maxBodyBytes, batchMs, summaryMs } = commonSettings(args);
    const keyEnv = flagString(args, 'upstream-key-env') ?? (process.env.OPENAI_API_KEY ? 'OPENAI_API_KEY' : undefined);
    const upstreamKey = keyEnv !== undefined ? secretFrom(keyEnv, '--upstream-key-env') : undefined;
    const gateway = await startOpenAIGateway({
      store,
      upstream,
      ...(upstreamKey !== undefined ? { upstreamKey } : {}),
      host,
      port: flagInt(args, 'port', { min: 0 }) ?? 8808,
      ...(token !== undefined ? { token } : {}),
      maxBodyBytes,
      commitEveryMs: batchMs,
      openIdleMs: seconds(args, 'open-idle-s', 120),
      log: (line) => (args.flags.quiet && !line.startsWith('gateway:') ? undefined : io.err(line)),
    });
    io.out(`lots gateway openai: serving ${gateway.url}/v1 → ${upstream} for project ${store.dir} (session ${gateway.session})`);
    io.out(`  recording into new batches of the project labelled gateway-openai-${gateway.session}; Ctrl-C stops and commits`);
    return serveUntilStopped(io, 'gateway openai', gateway.stats, summaryMs, () => gateway.close());
  },
};

interface CommonSettings {
  store: ProjectStore;
  host: string;
  token?: string;
  maxBodyBytes: number;
  batchMs: number;
  summaryMs: number;
}

function commonSettings(args: ParsedArgs): CommonSettings {
  const store = ProjectStore.open(requireFlag(args, 'project'));
  const host = flagString(args, 'host') ?? '127.0.0.1';
  const tokenEnv = flagString(args, 'token-env');
  const token = tokenEnv !== undefined ? secretFrom(tokenEnv, '--token-env') : undefined;
  if (token === undefined && !isLoopbackHost(host))
    throw new UsageError(`--host ${host} is not loopback: give --token-env NAME (a variable holding the token callers must send)`);
  const mib = flagNumber(args, 'max-body-mib') ?? 4;
  if (!(mib > 0)) throw new UsageError(`--max-body-mib must be positive, got ${mib}`);
  const batchMinutes = flagNumber(args, 'batch-minutes') ?? 10;
  if (!(batchMinutes > 0)) throw new UsageError(`--batch-minutes must be positive, got ${batchMinutes}`);
  return {
    store,
    host,
    ...(token !== undefined ? { token } : {}),
    maxBodyBytes: Math.round(mib * 1024 * 1024),
    batchMs: batchMinutes * 60_000,
    summaryMs: seconds(args, 'summary-s', 60),
  };
}

function seconds(args: ParsedArgs, name: string, fallback: number): number {
  const s = flagNumber(args, name) ?? fallback;
  if (s < 0) throw new UsageError(`--${name} must be ≥ 0, got ${s}`);
  return s * 1000;
}

/** A secret from the environment variable the flag names: never a flag's own value (it would sit in shell history and `ps`). */
function secretFrom(name: string, flag: string): string {
  const value = process.env[name];
  if (!value) throw new UsageError(`${flag} ${name}: the environment variable ${name} is not set (or empty)`);
  return value;
}

/** Runs until SIGINT or SIGTERM, printing the summary every `summaryMs`; then stops the gateway and prints it once more. */
async function serveUntilStopped(
  io: CliIO,
  name: string,
  stats: GatewayStats,
  summaryMs: number,
  close: () => Promise<{ committed: number; leftIn?: string }>,
): Promise<number> {
  const summary = (): void => {
    io.err(`lots ${name}: ${stats.requests} request(s) served, ${stats.refused} refused, ${stats.recorded} trace(s) recorded`);
    for (const line of stats.summary()) io.err(line);
  };
  const timer = summaryMs > 0 ? setInterval(summary, summaryMs) : undefined;
  let first = 0;
  await new Promise<void>((resolve) => {
    const stop = (): void => {
      if (!first) {
        first = Date.now();
        resolve();
      } else if (Date.now() - first > 1000) {
        io.err(`lots ${name}: stopping now, without committing.`);
        process.exit(130);
      }
    };
    process.on('SIGINT', stop);
    process.on('SIGTERM', stop);
  });
  if (timer) clearInterval(timer);
  io.err(`lots ${name}: stopping (finishing the requests in flight, committing the batch)…`);
  const closed = await close();
  summary();
  io.err(`lots ${name}: stopped; ${closed.committed} trace(s) recorded into the project${closed.leftIn ? `, the rest in ${closed.leftIn}` : ''}.`);
  return EXIT_OK;
}
