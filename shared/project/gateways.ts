// What a running gateway (`lots gateway openai|mcp`) says about itself in its project, so the Studio —
// another process — can show it: gateways/<session>.json, rewritten by its own gateway on a heartbeat,
// on each commit of its batch and when it stops. Only what is safe to show is in it: the listen URL,
// the upstream without credentials (a URL's user, password and query are cut; an MCP upstream is its
// command's name), never the bearer token or an upstream key. A gateway that is killed cannot say it
// stopped: its record is read as stopped once its process is gone or its heartbeat is stale
// (gatewayLiveness).
import { z } from 'zod';

export const GATEWAY_KINDS = ['openai', 'mcp'] as const;
export type GatewayKind = (typeof GATEWAY_KINDS)[number];

/** How often a gateway rewrites its record while serving. */
export const GATEWAY_HEARTBEAT_MS = 5000;
/** A record not rewritten for this many heartbeats belongs to a gateway that is not serving any more. */
export const GATEWAY_STALE_BEATS = 4;

const count = z.number().int().nonnegative();

export const GatewayTaskCountsSchema = z.object({
  /** null: requests no task was found for (no header, no metadata, no router). */
  task: z.string().nullable(),
  /** Requests answered (OpenAI: chat completions; MCP: tools/list and forwarded tools/call). */
  requests: count,
  /** Requests of a task without an approved space: passed through with their whole menu. */
  noSpace: count,
  /** Tools cut from the menus, summed over the requests (offered − served). */
  toolsHidden: count,
  /** Prompt tokens the hidden tools would have cost: their JSON at four characters a token (an estimate). */
  tokensSaved: count,
  /** Prompt tokens the upstream reported (`usage.prompt_tokens`), summed; 0 when it reports none (MCP never does). */
  promptTokens: count,
  /** Requests the upstream answered with an error (not recorded). */
  failed: count,
  /** The approved space version the task's last request was served with. */
  spaceVersion: z.number().int().nonnegative().optional(),
});
export type GatewayTaskCounts = z.infer<typeof GatewayTaskCountsSchema>;

export const GatewayStatusSchema = z.object({
  v: z.literal(1),
  /** The gateway's session (its record's file name; its batches are labelled gateway-<kind>-<session>). */
  id: z.string().regex(/^[\w.-]+$/),
  kind: z.enum(GATEWAY_KINDS),
  transport: z.enum(['http', 'stdio']),
  /** Where agents reach it (http), or "stdio". */
  url: z.string(),
  /** The upstream without credentials: a URL (OpenAI) or an MCP server's command name. */
  upstream: z.string(),
  /** The MCP gateway's --task (the OpenAI gateway finds a task per request). */
  task: z.string().optional(),
  pid: z.number().int().positive(),
  /** The machine it runs on: its pid is only checked there. */
  hostname: z.string(),
  startedAt: z.string(),
  /** The last rewrite (heartbeat, commit, stop). */
  updatedAt: z.string(),
  heartbeatMs: z.number().int().positive(),
  state: z.enum(['running', 'stopping', 'stopped']),
  stoppedAt: z.string().optional(),
  /** Why it stopped when nobody stopped it (MCP: its upstream server failed, and over stdio the gateway ends so its host restarts it). */
  failure: z.string().optional(),
  /** MCP: the upstream server's failures while serving (it exited, was killed): how many, how many restarts followed (--http), the last one's reason and time. */
  upstreamFailures: z.object({ count, restarts: count, last: z.string(), at: z.string() }).optional(),
  /** Requests refused before the upstream (bad JSON, unknown task, too large, no token, a hidden MCP tool). */
  refused: count,
  /** OpenAI: requests the router left without a task (under its threshold: passed through whole), and the latest of them for `lots route`. */
  unrouted: z
    .object({
      count,
      recent: z.array(z.object({ at: z.string(), text: z.string(), nearest: z.string(), similarity: z.number(), threshold: z.number() })),
    })
    .optional(),
  /** OpenAI: requests passed through as they were (not chat: nothing cut or recorded), each logged. */
  passedThrough: count.optional(),
  /** How the requests found their task. */
  bySource: z.object({ header: count, metadata: count, router: count, flag: count, none: count }),
  tasks: z.array(GatewayTaskCountsSchema),
  /** The traffic being recorded as the project's next import batch(es). */
  batch: z.object({
    /** The import source its batches are labelled with. */
    source: z.string(),
    /** Traces handed to the recorder, and how many of them wait in memory for the next commit. */
    recorded: count,
    queued: count,
    /** OpenAI: answers that called tools, waiting for the request that continues them (recorded then). */
    open: count,
    committed: count,
    /** The project's trace files its commits wrote (traces/NNNN.jsonl names), in order. */
    files: z.array(z.string()),
    lastCommitAt: z.string().optional(),
    /** Traces of gateways killed earlier (their journals, gateways/*.jsonl) that this one committed at its start, and those it could not read back. */
    recovered: z.object({ sessions: z.array(z.string()), traces: count, lost: count }).optional(),
  }),
});
export type GatewayStatus = z.infer<typeof GatewayStatusSchema>;

export type GatewayLiveness = 'running' | 'stopped' | 'lost';

/**
 * Whether a record's gateway still serves: `stopped` when it said so, `lost` when it did not but its
 * process is gone (checked only on its own machine: `alive` is undefined elsewhere) or its record was not
 * rewritten for GATEWAY_STALE_BEATS heartbeats, `running` otherwise.
 */
export function gatewayLiveness(record: GatewayStatus, now: Date, alive: boolean | undefined): GatewayLiveness {
  if (record.state === 'stopped') return 'stopped';
  if (alive === false) return 'lost';
  const age = now.getTime() - Date.parse(record.updatedAt);
  if (!(age <= record.heartbeatMs * GATEWAY_STALE_BEATS)) return 'lost';
  return 'running';
}

/** An upstream URL as it may be shown and stored: no user, password, query or fragment. */
export function publicUpstream(url: string): string {
  try {
    const u = new URL(url);
    u.username = '';
    u.password = '';
    u.search = '';
    u.hash = '';
    return u.toString().replace(/\/$/, '');
  } catch {
    return url.replace(/\/\/[^/@]*@/, '//').replace(/[?#].*$/, '');
  }
}
