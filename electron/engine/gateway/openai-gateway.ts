// The OpenAI-compatible gateway: a Chat Completions proxy that cuts each request's menu to its task's
// approved space, forwards it to the upstream (llama-server, vLLM, a hosted API), returns the upstream's
// answer unchanged (a stream passes through as it arrives) and records the exchange as a native trace
// (shared/gateway/exchange-trace.ts) into a new batch of the project (recorder.ts). The task comes from
// the `x-lots-task` header, else `metadata.lots_task`, else the project's router; a request with no task,
// or of a task with no approved space, passes through with its menu as it was, and is counted. Every
// other path (`/v1/models`, …) is forwarded as it is and not recorded. Serving never waits for the
// project: spaces are read without the lock and traces are committed in the background.
import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  chatRequestText,
  cutToSpace,
  estimateTokens,
  metadataTask,
  parseChatRequest,
  requestToolNames,
  TASK_HEADER,
  type CutRequest,
} from '../../../shared/gateway/chat-request';
import { OpenExchanges } from '../../../shared/gateway/conversations';
import { exchangeTrace, type Exchange } from '../../../shared/gateway/exchange-trace';
import { SseAssembler } from '../../../shared/gateway/sse';
import { GatewayStats, type TaskSource } from '../../../shared/gateway/stats';
import { isObj, type Obj } from '../../../shared/importers/values';
import { publicUpstream } from '../../../shared/project/gateways';
import type { ProjectStore } from '../store';
import { checkCaller, DEFAULT_MAX_BODY_BYTES, GatewayError, parseJsonBody, readBody, sendError, sendJson } from './http-guard';
import { ProjectView } from './project-view';
import { TraceRecorder } from './recorder';
import { GatewayStatusWriter } from './status';

export interface OpenAIGatewayOptions {
  store: ProjectStore;
  /** The upstream's base URL, with or without `/v1` (`http://127.0.0.1:8080`, `https://api.openai.com/v1`). */
  upstream: string;
  /** Sent upstream as a bearer token; read from the environment by the caller, never stored or recorded. */
  upstreamKey?: string;
  host?: string;
  /** 0: any free port. */
  port?: number;
  /** The bearer token callers must send (required by the CLI off loopback). */
  token?: string;
  maxBodyBytes?: number;
  /** An exchange whose answer calls tools and that no request continues is recorded after this long (default 120 s). */
  openIdleMs?: number;
  /** The recorder's batch settings. */
  commitEveryMs?: number;
  commitAtTraces?: number;
  /** How often the gateway's status record in the project is rewritten (default 5 s; status.ts). */
  statusHeartbeatMs?: number;
  /** A line per request, and the recorder's lines. */
  log?: (line: string) => void;
  /** --route-threshold: the router's similarity threshold instead of the one the project's data gives (routing/request-router.ts). */
  routeThreshold?: number;
}

export interface RunningGateway {
  url: string;
  stats: GatewayStats;
  recorder: TraceRecorder;
  /** Its status record in the project (gateways/<session>.json), read by the Studio's Gateway view. */
  status: GatewayStatusWriter;
  session: string;
  /** Stop accepting, finish the requests in flight, record what is open and commit the batch. */
  close(): Promise<{ committed: number; leftIn?: string }>;
}

const UPSTREAM_LIMIT_BYTES = 64 * 1024 * 1024;
const HOP_BY_HOP = new Set(['connection', 'keep-alive', 'transfer-encoding', 'content-length', 'content-encoding', 'upgrade', 'te', 'trailer']);

interface Pending {
  exchange: Exchange;
}

export async function startOpenAIGateway(options: OpenAIGatewayOptions): Promise<RunningGateway> {
  const upstream = options.upstream.replace(/\/+$/, '');
  const guard = { maxBodyBytes: options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES, ...(options.token !== undefined ? { token: options.token } : {}) };
  const session = `${new Date().toISOString().replace(/[-:]/g, '').replace(/\..*$/, '')}-${randomBytes(3).toString('hex')}`;
  const log = options.log ?? (() => undefined);
  const view = new ProjectView(options.store, options.routeThreshold !== undefined ? { routeThreshold: options.routeThreshold } : {});
  const stats = new GatewayStats();
  const recorder = new TraceRecorder(options.store, {
    source: `gateway-openai-${session}`,
    log,
    ...(options.commitEveryMs !== undefined ? { commitEveryMs: options.commitEveryMs } : {}),
    ...(options.commitAtTraces !== undefined ? { commitAtTraces: options.commitAtTraces } : {}),
  });
  const open = new OpenExchanges<Pending>();
  let seq = 0;
  const idleMs = options.openIdleMs ?? 120_000;

  const record = (e: Exchange): void => {
    const t = exchangeTrace(e);
    if (t.ok) {
      recorder.add(t.trace);
      stats.recorded++;
    } else log(`gateway: exchange ${e.id} not recorded: ${t.message}`);
  };
  const sweep = setInterval(
    () => {
      for (const e of open.expired(Date.now() - idleMs)) record(e.value.exchange);
    },
    Math.min(idleMs, 10_000),
  );
  sweep.unref();

  /** The upstream URL of a gateway path: `/v1/x` and `/x` both reach `<upstream>/x` when the upstream ends in /v1. */
  const upstreamUrl = (path: string): string => (upstream.endsWith('/v1') && path.startsWith('/v1/') ? upstream + path.slice(3) : upstream + path);

  const forward = async (req: IncomingMessage, path: string, body: Buffer | undefined, signal: AbortSignal): Promise<Response> => {
    const headers: Record<string, string> = { accept: req.headers.accept ?? 'application/json', 'accept-encoding': 'identity' };
    if (req.headers['content-type']) headers['content-type'] = req.headers['content-type'];
    if (options.upstreamKey) headers.authorization = `Bearer ${options.upstreamKey}`;
    try {
      return await fetch(upstreamUrl(path), { method: req.method ?? 'GET', headers, ...(body !== undefined ? { body: new Uint8Array(body) } : {}), signal });
    } catch (e) {
      const cause = e instanceof Error && e.cause instanceof Error ? `: ${e.cause.message}` : '';
      throw new GatewayError(502, `the upstream ${upstream} could not be reached (${e instanceof Error ? e.message : String(e)}${cause})`, 'upstream_error');
    }
  };

  const copyHeaders = (from: Response, res: ServerResponse): void => {
    from.headers.forEach((value, name) => {
      if (!HOP_BY_HOP.has(name.toLowerCase())) res.setHeader(name, value);
    });
  };

  const resolveTask = (req: IncomingMessage, body: Obj): { task?: string; source: TaskSource } => {
    const header = req.headers[TASK_HEADER];
    const named = (Array.isArray(header) ? header[0] : header)?.trim();
    const fromMeta = metadataTask(body);
    const explicit = named ? { task: named, source: 'header' as const } : fromMeta ? { task: fromMeta, source: 'metadata' as const } : undefined;
    if (explicit) {
      if (!view.knows(explicit.task)) {
        const known = view.tasks();
        const where = explicit.source === 'header' ? `the ${TASK_HEADER} header` : 'metadata.lots_task';
        throw new GatewayError(
          400,
          `unknown task "${explicit.task}" in ${where}: this project's tasks are ${known.length ? known.map((t) => `"${t}"`).join(', ') : '(none yet)'}`,
          'invalid_request_error',
          { known_tasks: known },
        );
      }
      return explicit;
    }
    return view.route(chatRequestText(body.messages as unknown[]), stats);
  };

  const chat = async (req: IncomingMessage, res: ServerResponse, path: string, signal: AbortSignal): Promise<void> => {
    const started = Date.now();
    const parsed = parseChatRequest(parseJsonBody(await readBody(req, guard.maxBodyBytes)));
    if (!parsed.ok) throw new GatewayError(400, parsed.message);
    const { body } = parsed.value;
    const { task, source } = resolveTask(req, body);
    const space = task !== undefined ? view.space(task) : undefined;
    const cut: CutRequest = cutToSpace(body, space?.tools);
    const requested = requestToolNames(body);
    const saved = estimateTokens(cut.hiddenChars);
    const upstreamRes = await forward(req, path, Buffer.from(JSON.stringify(cut.body)), signal);
    const menu = `menu ${requested.length}→${cut.shown.length}${space ? ` (space v${space.version})` : task !== undefined ? ' (no approved space)' : ''}`;
    const line = (status: number, extra = '') =>
      log(
        `${req.method} ${path} task=${task ?? '-'} (${source}) ${menu}${cut.hidden.length ? `, ${cut.hidden.length} hidden, ~${saved} tokens saved` : ''} → ${status}${extra} in ${Date.now() - started} ms`,
      );
    res.statusCode = upstreamRes.status;
    copyHeaders(upstreamRes, res);
    const streamed = (upstreamRes.headers.get('content-type') ?? '').includes('text/event-stream');
    let answer: Obj | undefined;
    let usage: Obj | undefined;
    if (streamed && upstreamRes.body) {
      res.flushHeaders();
      const sse = new SseAssembler();
      const decoder = new TextDecoder();
      for await (const chunk of chunksOf(upstreamRes.body)) {
        res.write(chunk);
        sse.push(decoder.decode(chunk, { stream: true }));
      }
      res.end();
      const got = sse.result();
      if (upstreamRes.ok && !got.error) answer = got.message;
      usage = got.usage;
    } else {
      const text = await upstreamText(upstreamRes);
      res.end(text);
      if (upstreamRes.ok) {
        try {
          const json: unknown = JSON.parse(text);
          if (isObj(json)) {
            const choice: unknown = Array.isArray(json.choices) ? json.choices[0] : undefined;
            if (isObj(choice) && isObj(choice.message)) answer = choice.message;
            if (isObj(json.usage)) usage = json.usage;
          }
        } catch {
          /* not JSON: passed to the client as it came, nothing to record */
        }
      }
    }
    const promptTokens = typeof usage?.prompt_tokens === 'number' ? usage.prompt_tokens : undefined;
    if (!answer) {
      stats.failed(task);
      line(upstreamRes.status, ' (upstream error, not recorded)');
      return;
    }
    stats.served({
      ...(task !== undefined ? { task } : {}),
      source,
      hasSpace: space !== undefined,
      hidden: cut.hidden.length,
      tokensSaved: saved,
      ...(promptTokens !== undefined ? { promptTokens } : {}),
      ...(space ? { spaceVersion: space.version } : {}),
    });
    line(upstreamRes.status, promptTokens !== undefined ? `, ${promptTokens} prompt tokens` : '');
    const messages = cut.body.messages as unknown[];
    const before = open.take(messages);
    const exchange: Exchange = {
      id: before?.id ?? `gw-${session}-${String(++seq).padStart(4, '0')}`,
      ...(task !== undefined ? { task } : {}),
      taskSource: source,
      forwarded: cut.body,
      answer,
      requested,
      hidden: cut.hidden,
      ...(space ? { spaceVersion: space.version } : {}),
      ...(usage ? { usage } : {}),
      requests: (before?.value.exchange.requests ?? 0) + 1,
      session,
      at: new Date().toISOString(),
      gateway: 'openai',
    };
    if (Array.isArray(answer.tool_calls) && answer.tool_calls.length > 0)
      open.add([...messages, answer], { id: exchange.id, value: { exchange }, at: Date.now() });
    else record(exchange);
  };

  const passthrough = async (req: IncomingMessage, res: ServerResponse, path: string, signal: AbortSignal): Promise<void> => {
    const body = req.method === 'GET' || req.method === 'HEAD' ? undefined : await readBody(req, guard.maxBodyBytes);
    const up = await forward(req, path, body, signal);
    res.statusCode = up.status;
    copyHeaders(up, res);
    res.end(await upstreamText(up));
  };

  const inFlight = new Set<Promise<void>>();
  const server: Server = createServer((req, res) => {
    const abort = new AbortController();
    res.on('close', () => {
      if (!res.writableFinished) abort.abort();
    });
    const path = (req.url ?? '/').split('?')[0]!;
    const job = (async () => {
      try {
        checkCaller(req, guard);
        if (req.method === 'POST' && (path === '/v1/chat/completions' || path === '/chat/completions')) await chat(req, res, path, abort.signal);
        else await passthrough(req, res, req.url ?? '/', abort.signal);
      } catch (e) {
        if (e instanceof GatewayError) {
          if (e.status !== 502) stats.refused++;
          log(`${req.method} ${path} → ${e.status}: ${e.message}`);
          sendError(res, e);
        } else if (abort.signal.aborted) {
          log(`${req.method} ${path}: the client went away`);
        } else {
          log(`${req.method} ${path}: gateway bug: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}`);
          sendJson(res, 500, { error: { message: `gateway error: ${e instanceof Error ? e.message : String(e)}`, type: 'server_error', code: 500 } });
        }
      }
    })();
    inFlight.add(job);
    void job.finally(() => inFlight.delete(job));
  });
  await new Promise<void>((done, fail) => {
    server.once('error', fail);
    server.listen(options.port ?? 0, options.host ?? '127.0.0.1', () => {
      server.off('error', fail);
      done();
    });
  });
  const address = server.address() as AddressInfo;
  const shownHost = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  const url = `http://${shownHost}:${address.port}`;
  const status = new GatewayStatusWriter(
    options.store,
    { id: session, kind: 'openai', transport: 'http', url: `${url}/v1`, upstream: publicUpstream(upstream) },
    { stats, recorder, open: () => open.size },
    { log, ...(options.statusHeartbeatMs !== undefined ? { heartbeatMs: options.statusHeartbeatMs } : {}) },
  );
  recorder.onCommit = () => status.beat();
  status.start();

  let closing: Promise<{ committed: number; leftIn?: string }> | undefined;
  return {
    url,
    stats,
    recorder,
    status,
    session,
    close: () =>
      (closing ??= (async () => {
        status.stopping();
        const stopped = new Promise<void>((done) => server.close(() => done()));
        server.closeIdleConnections();
        const slow = setTimeout(() => server.closeAllConnections(), 30_000);
        await Promise.allSettled([...inFlight]);
        await stopped;
        clearTimeout(slow);
        clearInterval(sweep);
        for (const e of open.drain()) record(e.value.exchange);
        try {
          return await recorder.close();
        } finally {
          status.stopped();
        }
      })()),
  };
}

async function upstreamText(r: Response): Promise<string> {
  if (!r.body) return '';
  const chunks: Uint8Array[] = [];
  let size = 0;
  for await (const chunk of chunksOf(r.body)) {
    size += chunk.length;
    if (size > UPSTREAM_LIMIT_BYTES) throw new GatewayError(502, `the upstream's answer is over ${UPSTREAM_LIMIT_BYTES} bytes`, 'upstream_error');
    chunks.push(chunk);
  }
  return Buffer.concat(chunks).toString('utf8');
}

async function* chunksOf(body: ReadableStream<Uint8Array>): AsyncGenerator<Uint8Array> {
  const reader = body.getReader();
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return;
      yield value;
    }
  } finally {
    reader.releaseLock();
  }
}
