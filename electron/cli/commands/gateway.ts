// `lots gateway openai` and `lots gateway mcp`: serve each task's approved space to live agents, in front
// of an OpenAI-compatible upstream or an MCP server, and record the traffic as batches of the project for
// `lots update`. The gateways themselves live in electron/engine/gateway/; this file reads the flags, the
// secrets (from environment variables only, never from a flag), prints a line per request and a summary,
// and stops cleanly on SIGINT/SIGTERM (the batch is committed before the process ends).
import { join } from 'node:path';
import { flagInt, flagNumber, flagString, requireFlag, UsageError, type ParsedArgs } from '../args';
import { CliError, EXIT_FAIL, EXIT_OK, type CliIO, type Command } from '../command';
import { ProjectStore } from '../../engine/store';
import { GatewayError, isLoopbackHost } from '../../engine/gateway/http-guard';
import { DEFAULT_UPSTREAM_TIMEOUT_MS, deferredForms, shownUpstream, startOpenAIGateway } from '../../engine/gateway/openai-gateway';
import { DEFERRED_FORMS, type DeferredForm } from '../../engine/gateway/apis/api';
import { API_ADAPTERS } from '../../engine/gateway/apis/registry';
import { DEFAULT_MAX_MESSAGE_BYTES, McpGateway } from '../../engine/gateway/mcp-gateway';
import type { GatewayStats } from '../../../shared/gateway/stats';
import { listenFailure } from '../listen-errors';
import { onStopSignals } from '../stop-signals';

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
  summary:
    "a proxy for Chat Completions, the Responses API and Anthropic's Messages API that cuts each request's tools to its task's approved space (pinned / deferred / hidden) and records the traffic",
  usage: `lots gateway openai --project <dir> --upstream URL [--port N] [--host 127.0.0.1] [--deferred ${DEFERRED_FORMS.join('|')}] [--upstream-key-env NAME] [--token-env NAME]`,
  flags: {
    ...common,
    upstream: { type: 'string', description: 'the upstream that speaks Chat Completions: http://127.0.0.1:8080 (llama-server), https://api.openai.com/v1, …' },
    port: { type: 'string', description: 'port to listen on (0: any free one)', default: '8808' },
    'upstream-key-env': {
      type: 'string',
      description:
        "environment variable holding the upstream's API key, sent as a bearer token (as x-api-key on /v1/messages) (default: OPENAI_API_KEY only when the upstream is api.openai.com, ANTHROPIC_API_KEY only when it is api.anthropic.com)",
    },
    deferred: {
      type: 'string',
      description: `how deferred tools reach the upstream, for every API: ${DEFERRED_FORMS.join(', ')} (native: the API's defer_loading plus its tool search tool; demote: name and short description, no schema; hide: left out). Default per API: native on api.openai.com (Responses) and api.anthropic.com (Messages), else demote; Chat Completions has no native form`,
    },
    'upstream-timeout-s': {
      type: 'string',
      description: 'give up on the upstream when it sends nothing for this long (before its answer or within it): 504, or the stream cut',
      default: String(DEFAULT_UPSTREAM_TIMEOUT_MS / 1000),
    },
    'route-threshold': {
      type: 'string',
      description:
        "a request that names no task goes to the router's nearest task only at this cosine similarity or more (default: the 1st percentile of the project's own requests' similarity to their task)",
    },
    'open-idle-s': {
      type: 'string',
      description: 'an answer that calls tools and that no request continues within this long is recorded as it is',
      default: '120',
    },
  },
  details: [
    `Point an agent at http://HOST:PORT/v1 instead of its provider. Served: POST /v1/chat/completions, ${API_ADAPTERS.map((a) => a.label).join(', ')}.`,
    "Each request's tools are cut to the space's three states: pinned sent as the client sent them, deferred in the --deferred form, hidden left out;",
    'answers carry x-lots-task, x-lots-space-version and x-lots-tools (pinned=N; deferred=N; hidden=N; form=F).',
    'For each request the',
    'task is the `x-lots-task` header, else `metadata.lots_task` (removed before forwarding), else the',
    "project's router (once `lots route` has routed the project: the nearest task by the request's text,",
    'unless the request is less similar to it than --route-threshold, by default the 1st percentile of the',
    "project's own requests' similarity to their task: then it is unrouted, passed through whole, counted,",
    'listed in the status record and recorded without a task, for `lots route` to make a task of later).',
    "The request's `tools` are cut to the task's approved space (its latest accepted version; a tool the",
    'request lacks is never added). A request without a task, or of a task without an approved space, is',
    'passed through unchanged and counted. The answer (streamed or not) is returned as the upstream sent it.',
    '',
    'Every answered exchange is recorded as a native trace (the request, the menu shown, the calls, their',
    'observations when the next request of the agent carries them, the answer): an answer that calls tools',
    'waits for the request that continues it, and the chain becomes one trace. Traces are committed into',
    'the project as a new import batch every --batch-minutes and when the gateway stops, so `lots score`',
    'and `lots update` fold live traffic as they fold imports. Serving never waits for the project lock.',
    'Each exchange is journaled in the project (gateways/gateway-openai-<session>.jsonl, fsynced) before',
    'its client gets the end of the answer; a gateway killed with -9 has its journal committed by the next',
    'gateway started on the project, which says how many traces it recovered and how many lines it lost.',
    '',
    'The path is read once (dot segments, %2e, // and \\ resolved) and that reading is decided on and',
    "forwarded; a path climbing above the root is refused. The client's body is forwarded byte for byte, or",
    'with only the cut members changed. APIs that carry tools and are not served yet (/v1/assistants,',
    '/v1/threads, /v1/realtime) are refused with 501. Other paths (/v1/models,',
    '…) are passed through as they are, each logged and counted.',
    '',
    'Errors the gateway gives itself (OpenAI error shape): 400 malformed JSON (with line and column), an',
    'unknown task (naming the known ones) or a key sent twice, 401/403 without the token, 413 over',
    '--max-body-mib, 501 an API not served, 502 when the upstream cannot be reached, 504 when it sends',
    'nothing for --upstream-timeout-s, 508 when a request comes back through the gateway (its upstream',
    'points at itself). An upstream that breaks off a stream it began has the client connection cut, never',
    'a clean end. Nothing of a failed exchange is recorded. Keys are read from environment variables only,',
    'never printed or recorded; OPENAI_API_KEY is attached only when the upstream is api.openai.com (any',
    'other upstream gets a key only by --upstream-key-env), and the startup lines say which key is sent.',
  ].join('\n'),
  async run(args, io) {
    const upstream = requireFlag(args, 'upstream');
    let upstreamHost: string;
    try {
      if (!/^https?:\/\//.test(upstream)) throw new Error('not http(s)');
      upstreamHost = new URL(upstream).hostname;
    } catch {
      throw new UsageError(`--upstream must be an http(s) URL, got "${shownUpstream(upstream)}"`);
    }
    const { store, host, token, maxBodyBytes, batchMs, summaryMs } = commonSettings(args);
    // A key goes where the operator said, or to its own provider: never, by default, to a box on the LAN.
    const providerKey = upstreamHost === 'api.openai.com' ? 'OPENAI_API_KEY' : upstreamHost === 'api.anthropic.com' ? 'ANTHROPIC_API_KEY' : undefined;
    const keyEnv = flagString(args, 'upstream-key-env') ?? (providerKey !== undefined && process.env[providerKey] ? providerKey : undefined);
    const deferredFlag = flagString(args, 'deferred');
    if (deferredFlag !== undefined && !(DEFERRED_FORMS as readonly string[]).includes(deferredFlag))
      throw new UsageError(`--deferred must be one of ${DEFERRED_FORMS.join(', ')}, got "${deferredFlag}"`);
    const deferred = deferredFlag as DeferredForm | undefined;
    const upstreamKey = keyEnv !== undefined ? secretFrom(keyEnv, '--upstream-key-env') : undefined;
    const upstreamTimeoutMs = seconds(args, 'upstream-timeout-s', DEFAULT_UPSTREAM_TIMEOUT_MS / 1000);
    if (!(upstreamTimeoutMs > 0)) throw new UsageError('--upstream-timeout-s must be positive');
    const port = flagInt(args, 'port', { min: 0 }) ?? 8808;
    const gateway = await startOpenAIGateway({
      store,
      upstream,
      ...(upstreamKey !== undefined ? { upstreamKey } : {}),
      ...(deferred !== undefined ? { deferred } : {}),
      host,
      port,
      ...(token !== undefined ? { token } : {}),
      maxBodyBytes,
      commitEveryMs: batchMs,
      openIdleMs: seconds(args, 'open-idle-s', 120),
      ...routeThresholdOf(args),
      upstreamTimeoutMs,
      log: (line) => (args.flags.quiet && !line.startsWith('gateway:') ? undefined : io.err(line)),
    }).catch((e: unknown) => {
      throw listenFailure(e, host, port) ?? e;
    });
    io.out(`lots gateway openai: serving ${gateway.url}/v1 → ${shownUpstream(upstream)} for project ${store.dir} (session ${gateway.session})`);
    io.out(
      keyEnv !== undefined
        ? `  upstream key: the value of ${keyEnv} is sent to ${upstreamHost} as a bearer token (x-api-key on /v1/messages)${upstream.startsWith('http:') && !isLoopbackHost(upstreamHost) ? ' (over plain http: readable on the network)' : ''}`
        : `  upstream key: none sent (--upstream-key-env NAME sends one; OPENAI_API_KEY is sent by default only to api.openai.com, ANTHROPIC_API_KEY only to api.anthropic.com)`,
    );
    io.out(
      `  deferred tools: ${deferredForms(upstream, deferred)
        .map((f) => `${f.api} ${f.form}`)
        .join(', ')} (--deferred)`,
    );
    io.out(`  recording into new batches of the project labelled gateway-openai-${gateway.session}; Ctrl-C stops and commits`);
    io.out(`  the Studio's Gateway view shows it (its status: ${join(store.dir, 'gateways', `${gateway.session}.json`)})`);
    return serveUntilStopped(io, 'gateway openai', gateway.stats, summaryMs, () => gateway.close());
  },
};

export const mcpCommand: Command = {
  name: 'gateway mcp',
  summary:
    "an MCP server in front of an upstream MCP server that lists the task's approved space (pinned, deferred demoted), refuses hidden tools and records each call",
  usage:
    'lots gateway mcp --project <dir> --task <name> [--deferred demote|hide] [--http [--port N] [--host 127.0.0.1] [--token-env NAME]] -- <upstream MCP server command…>',
  flags: {
    ...common,
    task: { type: 'string', description: 'the task whose approved space is served' },
    http: { type: 'boolean', description: 'serve streamable HTTP at http://HOST:PORT/mcp (stateless) instead of stdio' },
    port: { type: 'string', description: 'with --http: port to listen on (0: any free one)', default: '8809' },
    deferred: {
      type: 'string',
      description: 'how tools/list shows deferred tools: demote (name and short description, no schema) or hide (left out); either way they stay callable',
      default: 'demote',
    },
    'max-message-mib': {
      type: 'string',
      description:
        'largest JSON-RPC message taken from the upstream (and over stdio from the client), in MiB; a larger answer is an error for its request only',
      default: String(DEFAULT_MAX_MESSAGE_BYTES / 1024 / 1024),
    },
  },
  details: [
    'Starts the upstream MCP server (the command after --) and connects to it as a client. To the agent it is',
    "an MCP server whose tools/list shows the task's approved space (its latest accepted version; a task",
    'without one, a new task included, gets every tool, and is counted): pinned tools as the upstream lists',
    'them, deferred ones demoted (or left out with --deferred hide) but callable, hidden ones not at all; a',
    'tools/call of a hidden tool is refused with an MCP error (-32602) naming the space; an allowed call (a',
    'deferred one is logged and recorded as called while deferred) is forwarded and its result',
    "returned unchanged. Only tools are the gateway's business: the upstream's prompts, resources and",
    'completions are passed through as they are. Each forwarded call is recorded (the call, its result, the',
    'menu shown) as a native trace into a new import batch of the project, committed every --batch-minutes',
    "and when the gateway stops. The upstream is shown (log, status, traces) as its command's name and one",
    "path or package argument, never a flag's value or a NAME=VALUE.",
    '',
    'Over stdio (the default) stdout carries the protocol: every message of the gateway goes to stderr, and',
    'it stops when its client closes stdin. When the upstream exits or is killed, the gateway says why and',
    'exits with code 2, so the MCP host restarts it. With --http it serves POST /mcp (the same token, size',
    'and loopback rules as `lots gateway openai`; its own refusals are JSON-RPC errors) and starts a failed',
    'upstream again. An answer over --max-message-mib is an error for its request; the connection stays.',
    '',
    'Example (Claude Desktop or any MCP client config):',
    '  lots gateway mcp --project ./proj --task files -- npx -y @modelcontextprotocol/server-filesystem /data',
  ].join('\n'),
  async run(args, io) {
    const [command, ...commandArgs] = args.positionals;
    if (command === undefined)
      throw new UsageError('give the upstream MCP server command after --, e.g. `-- npx -y @modelcontextprotocol/server-filesystem /data`');
    const task = requireFlag(args, 'task');
    const { store, host, token, maxBodyBytes, batchMs, summaryMs } = commonSettings(args);
    const deferred = flagString(args, 'deferred') ?? 'demote';
    if (deferred !== 'demote' && deferred !== 'hide') throw new UsageError(`--deferred must be demote or hide, got "${deferred}"`);
    const messageMib = flagNumber(args, 'max-message-mib') ?? DEFAULT_MAX_MESSAGE_BYTES / 1024 / 1024;
    if (!(messageMib > 0)) throw new UsageError(`--max-message-mib must be positive, got ${messageMib}`);
    const maxMessageBytes = Math.round(messageMib * 1024 * 1024);
    const log = (line: string): void => (args.flags.quiet && !line.startsWith('gateway:') ? undefined : io.err(line));
    let gateway: McpGateway;
    try {
      gateway = await McpGateway.start({ store, task, upstream: { command, args: commandArgs }, commitEveryMs: batchMs, maxMessageBytes, deferred, log });
    } catch (e) {
      if (e instanceof GatewayError) throw new CliError(e.message);
      throw e;
    }
    const space = gateway.space();
    const where = space
      ? `space v${space.version} of task ${task} (${space.tools.length} pinned, ${space.deferred.length} deferred: ${deferred === 'hide' ? 'left out of tools/list' : 'demoted'})`
      : `task ${task}, which has no approved space: every tool is shown`;
    let ended: Promise<void> = gateway.ended;
    if (args.flags.http) {
      const port = flagInt(args, 'port', { min: 0 }) ?? 8809;
      let url: string;
      try {
        url = await gateway.serveHttp({ host, port, ...(token !== undefined ? { token } : {}), maxBodyBytes });
      } catch (e) {
        // The upstream server (a child process) would keep this process alive: stop it before saying why.
        await gateway.close().catch(() => undefined);
        throw listenFailure(e, host, port) ?? e;
      }
      io.out(`lots gateway mcp: serving ${url} → ${gateway.upstreamName} for project ${store.dir}, ${where} (session ${gateway.session})`);
    } else {
      ended = gateway.serveStdio();
      io.err(`lots gateway mcp: serving stdio → ${gateway.upstreamName} for project ${store.dir}, ${where} (session ${gateway.session})`);
    }
    io.err(`  the Studio's Gateway view shows it (its status: ${join(store.dir, 'gateways', `${gateway.session}.json`)})`);
    return serveUntilStopped(io, 'gateway mcp', gateway.stats, summaryMs, () => gateway.close(), {
      ended,
      outcome: () => {
        if (gateway.failure === undefined) return EXIT_OK;
        // Ending non-zero is how an MCP host learns that its server must be restarted.
        io.err(`lots gateway mcp: ended because ${gateway.failure}`);
        return EXIT_FAIL;
      },
    });
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

function routeThresholdOf(args: ParsedArgs): { routeThreshold?: number } {
  const t = flagNumber(args, 'route-threshold');
  if (t === undefined) return {};
  if (!(t >= -1 && t <= 1)) throw new UsageError(`--route-threshold is a cosine similarity from -1 to 1, got ${t}`);
  return { routeThreshold: t };
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

/**
 * Runs until SIGINT or SIGTERM (or `ended`), printing the summary every `summaryMs`; then stops the gateway,
 * prints it once more, and ends the process with `outcome()`'s code (see stop-signals.ts for why the process
 * ends here rather than returning).
 */
async function serveUntilStopped(
  io: CliIO,
  name: string,
  stats: GatewayStats,
  summaryMs: number,
  close: () => Promise<{ committed: number; leftIn?: string }>,
  options: {
    /** Resolves when serving ended by itself (the stdio client went away). */
    ended?: Promise<void>;
    /** The exit code, once the batch is committed (it may print why it is not 0). */
    outcome?: () => number;
  } = {},
): Promise<number> {
  const summary = (): void => {
    io.err(`lots ${name}: ${stats.requests} request(s) served, ${stats.refused} refused, ${stats.recorded} trace(s) recorded`);
    for (const line of stats.summary()) io.err(line);
  };
  const timer = summaryMs > 0 ? setInterval(summary, summaryMs) : undefined;
  // The handlers stay until the process ends: a repeated Ctrl+C neither interrupts the commit nor kills the
  // process afterwards; one more than a second after the first ends it at once, without committing.
  const signals = onStopSignals({
    onForce: () => io.err(`lots ${name}: stopping now, without committing.`),
    ...(options.ended ? { ended: options.ended } : {}),
  });
  let code: number;
  try {
    await signals.stopped;
    clearInterval(timer);
    io.err(`lots ${name}: stopping (finishing the requests in flight, committing the batch)…`);
    const closed = await close();
    summary();
    io.err(`lots ${name}: stopped; ${closed.committed} trace(s) recorded into the project${closed.leftIn ? `, the rest in ${closed.leftIn}` : ''}.`);
    code = options.outcome?.() ?? EXIT_OK;
  } catch (e) {
    clearInterval(timer);
    signals.release();
    throw e;
  }
  return signals.exit(code);
}
