// The gateway core for the model APIs: Chat Completions (its own path below) and every API of the adapter
// registry (apis/registry.ts: the Responses API, Anthropic's Messages API). Each request's menu is cut to
// its task's approved space in three states (apis/cut.ts: pinned, deferred in the --deferred form,
// hidden), forwarded to the upstream (llama-server, vLLM, a hosted API); the upstream's answer is returned
// unchanged (a stream passes through as it arrives, at the pace the client reads it) and the exchange is
// recorded through its API's importer (shared/gateway/exchange-trace.ts, apis/trace.ts) into a new batch
// of the project (recorder.ts). The task comes from the `x-lots-task` header, else `metadata.lots_task`,
// else the project's router; a request with no task, or of a task with no approved space, passes through
// with its menu as it was, and is counted.
//
// Every decision is taken on one reading of the path (shared/gateway/request-path.ts), and that reading is
// what is forwarded. The client's body is forwarded byte for byte when nothing is cut; a cut changes only
// the members it changes (shared/gateway/json-splice.ts). APIs that carry tools and are not served yet
// (`/v1/assistants`, `/v1/threads`, `/v1/realtime`) are refused per request (501); every other path
// (`/v1/models`, …) is passed through, logged and counted. An upstream that fails after the answer began
// is not hidden: the client's connection is cut as the upstream's was. A request that has already passed
// through this gateway (its hop header names this session) is refused, so an upstream that points back at
// the gateway cannot loop. Serving never waits for the project: spaces are read without the lock and
// traces are committed in the background.
import { randomBytes } from 'node:crypto';
import {
  Agent as HttpAgent,
  createServer,
  request as httpRequest,
  type IncomingMessage,
  type OutgoingHttpHeaders,
  type Server,
  type ServerResponse,
} from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import type { AddressInfo } from 'node:net';
import { estimateTokens, metadataTask, TASK_HEADER } from '../../../shared/gateway/chat-request';
import { OpenExchanges } from '../../../shared/gateway/conversations';
import { duplicateTopKey } from '../../../shared/gateway/json-splice';
import { printable } from '../../../shared/gateway/printable';
import { normalizeRequestPath, unservedApi, type RequestPath } from '../../../shared/gateway/request-path';
import { GatewayStats, type TaskSource } from '../../../shared/gateway/stats';
import type { Obj } from '../../../shared/importers/values';
import type { DeferredForm, GatewayApi } from './apis/api';
import { cutRequest } from './apis/cut';
import { adapterFor, API_ADAPTERS } from './apis/registry';
import { apiExchangeTrace, type ApiExchange } from './apis/trace';
import { publicUpstream } from '../../../shared/project/gateways';
import type { ProjectStore } from '../store';
import { checkCaller, DEFAULT_MAX_BODY_BYTES, GatewayError, parseJsonBody, readBody, sendError, sendJson } from './http-guard';
import { ProjectView } from './project-view';
import { TraceRecorder } from './recorder';
import { GatewayStatusWriter } from './status';

export interface OpenAIGatewayOptions {
  store: ProjectStore;
  /** The upstream's base URL, with or without `/v1`, with or without a query (`http://127.0.0.1:8080`, `https://api.openai.com/v1`, `https://x.openai.azure.com/openai/deployments/d?api-version=2024-10-21`). */
  upstream: string;
  /** Sent upstream as a bearer token; read from the environment by the caller, never stored or recorded. */
  upstreamKey?: string;
  /** How long the upstream may stay silent (before its answer, or between two pieces of it) before it is given up on (default 600 s). */
  upstreamTimeoutMs?: number;
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
  /** A line per request, and the recorder's lines. Every line is one line: values from requests are escaped. */
  log?: (line: string) => void;
  /** --route-threshold: the router's similarity threshold instead of the one the project's data gives (routing/request-router.ts). */
  routeThreshold?: number;
  /** --deferred: the form deferred tools reach the upstream in, for every API (default: per API and upstream, `deferredForms`). */
  deferred?: DeferredForm;
}

/** The form each served API sends deferred tools in, for an upstream (what startup prints). */
export function deferredForms(upstream: string, chosen?: DeferredForm): { api: string; form: DeferredForm }[] {
  const host = new URL(upstream).hostname;
  return API_ADAPTERS.map((a) => ({ api: a.id, form: chosen !== undefined && a.forms.includes(chosen) ? chosen : a.defaultForm(host) }));
}

/** Headers that tell the client what the gateway did with its request. */
export const TASK_ANSWER_HEADER = 'x-lots-task';
export const SPACE_VERSION_HEADER = 'x-lots-space-version';
export const TOOLS_HEADER = 'x-lots-tools';

export interface RunningGateway {
  url: string;
  stats: GatewayStats;
  recorder: TraceRecorder;
  /** Its status record in the project (gateways/<session>.json), read by the Studio's Gateway view. */
  status: GatewayStatusWriter;
  session: string;
  /** Requests passed through as they were (not chat: not cut, not recorded), each logged. */
  passedThrough(): number;
  /** Stop accepting, finish the requests in flight, record what is open and commit the batch. */
  close(): Promise<{ committed: number; leftIn?: string }>;
}

/** The header a gateway adds to what it forwards: the sessions a request passed through, comma-separated. */
export const HOP_HEADER = 'x-lots-gateway-hop';
const MAX_HOPS = 8;
/** Keep-alive sockets found closed, one after another, before a request counts as unreachable. */
const MAX_STALE_SOCKETS = 3;
export const DEFAULT_UPSTREAM_TIMEOUT_MS = 600_000;
const UPSTREAM_LIMIT_BYTES = 64 * 1024 * 1024;
const HOP_BY_HOP = new Set(['connection', 'keep-alive', 'transfer-encoding', 'content-length', 'content-encoding', 'upgrade', 'te', 'trailer']);

/** The upstream failed: did not answer in time, could not be reached, or broke off its answer. */
class UpstreamFailure extends Error {
  constructor(
    readonly kind: 'timeout' | 'unreachable' | 'broken',
    message: string,
  ) {
    super(message);
  }
}

/** An upstream URL as it may be printed: no credentials, and a query's names without their values (a key may be one). */
export function shownUpstream(url: string): string {
  try {
    const u = new URL(url);
    const names = [...u.searchParams.keys()];
    return publicUpstream(url) + (names.length ? `?${names.map((n) => `${encodeURIComponent(n)}=…`).join('&')}` : '');
  } catch {
    return publicUpstream(url);
  }
}

export async function startOpenAIGateway(options: OpenAIGatewayOptions): Promise<RunningGateway> {
  const base = new URL(options.upstream);
  const basePath = base.pathname.replace(/\/+$/, '');
  const baseQuery = base.search.replace(/^\?/, '');
  const shown = shownUpstream(options.upstream);
  const timeoutMs = options.upstreamTimeoutMs ?? DEFAULT_UPSTREAM_TIMEOUT_MS;
  const https = base.protocol === 'https:';
  const agent = https ? new HttpsAgent({ keepAlive: true }) : new HttpAgent({ keepAlive: true });
  const guard = { maxBodyBytes: options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES, ...(options.token !== undefined ? { token: options.token } : {}) };
  const session = `${new Date().toISOString().replace(/[-:]/g, '').replace(/\..*$/, '')}-${randomBytes(3).toString('hex')}`;
  const log = options.log ?? (() => undefined);
  const view = new ProjectView(options.store, options.routeThreshold !== undefined ? { routeThreshold: options.routeThreshold } : {});
  const stats = new GatewayStats();
  let passed = 0;
  const recorder = new TraceRecorder(options.store, {
    source: `gateway-openai-${session}`,
    log,
    ...(options.commitEveryMs !== undefined ? { commitEveryMs: options.commitEveryMs } : {}),
    ...(options.commitAtTraces !== undefined ? { commitAtTraces: options.commitAtTraces } : {}),
  });

  let seq = 0;
  const idleMs = options.openIdleMs ?? 120_000;
  const forms = new Map(deferredForms(options.upstream, options.deferred).map((f) => [f.api, f.form]));

  /** The upstream's path and query for a gateway path: `/v1/x` and `/x` both reach `<base>/x` when the base ends in /v1; the base's query comes first. */
  const target = (p: RequestPath): string => {
    let path = p.path === '/' ? '' : p.path;
    if (basePath.endsWith('/v1') && (path === '/v1' || path.startsWith('/v1/'))) path = path.slice(3);
    const query = [baseQuery, p.query].filter((q) => q !== '').join('&');
    return (basePath + path || '/') + (query ? `?${query}` : '');
  };

  /** Sends one request upstream; resolves with its answer once the headers came. */
  const send = (req: IncomingMessage, p: RequestPath, body: Uint8Array | undefined, signal: AbortSignal, api?: GatewayApi): Promise<IncomingMessage> => {
    const headers: OutgoingHttpHeaders = {
      accept: req.headers.accept ?? 'application/json',
      'accept-encoding': 'identity',
      [HOP_HEADER]: [req.headers[HOP_HEADER], session].filter(Boolean).join(','),
    };
    if (req.headers['content-type']) headers['content-type'] = req.headers['content-type'];
    if (body !== undefined) headers['content-length'] = body.length;
    for (const name of ['anthropic-version', 'anthropic-beta']) {
      const v = req.headers[name];
      if (v !== undefined) headers[name] = v;
    }
    const anthropic = api?.id === 'messages';
    if (options.upstreamKey && anthropic) headers['x-api-key'] = options.upstreamKey;
    else if (options.upstreamKey) headers.authorization = `Bearer ${options.upstreamKey}`;
    else if (base.username)
      headers.authorization = `Basic ${Buffer.from(`${decodeURIComponent(base.username)}:${decodeURIComponent(base.password)}`).toString('base64')}`;
    return attempt(headers, p, body, signal, req.method ?? 'GET', 0);
  };

  /**
   * One try of `send`. A keep-alive socket the upstream closed while idle (llama-server closes them after
   * 5 s) can break the moment a request goes out on it; the upstream never read that request, so it is
   * sent again on a fresh connection — as Node's documentation of `request.reusedSocket` advises. A
   * connection that breaks on a fresh socket, or after any answer came, is the upstream's failure.
   */
  const attempt = (
    headers: OutgoingHttpHeaders,
    p: RequestPath,
    body: Uint8Array | undefined,
    signal: AbortSignal,
    method: string,
    tries: number,
  ): Promise<IncomingMessage> =>
    new Promise((resolve, reject) => {
      let timedOut = false;
      let answer: IncomingMessage | undefined;
      const up = (https ? httpsRequest : httpRequest)({
        protocol: base.protocol,
        hostname: base.hostname.replace(/^\[|\]$/g, ''),
        port: base.port || (https ? 443 : 80),
        method,
        path: target(p),
        headers,
        agent,
        signal,
      });
      up.setTimeout(timeoutMs, () => {
        timedOut = true;
        const silent = new UpstreamFailure(
          'timeout',
          answer
            ? `the upstream ${shown} went silent for ${timeoutMs / 1000} s in the middle of its answer (--upstream-timeout-s)`
            : `the upstream ${shown} did not answer within ${timeoutMs / 1000} s (--upstream-timeout-s)`,
        );
        answer?.destroy(silent);
        up.destroy(silent);
      });
      up.on('response', (got) => {
        answer = got;
        // Once the answer began, a broken connection shows as an error of the answer's body (read by the caller).
        got.on('error', () => undefined);
        got.on('aborted', () => {
          if (!signal.aborted && !timedOut)
            got.destroy(new UpstreamFailure('broken', `the upstream ${shown} closed its connection in the middle of its answer`));
        });
        resolve(got);
      });
      up.on('error', (e: NodeJS.ErrnoException) => {
        if (e instanceof UpstreamFailure || signal.aborted) reject(e);
        else if (up.reusedSocket && !answer && tries < MAX_STALE_SOCKETS && (e.code === 'ECONNRESET' || e.code === 'EPIPE'))
          attempt(headers, p, body, signal, method, tries + 1).then(resolve, reject);
        else reject(new UpstreamFailure('unreachable', `the upstream ${shown} could not be reached (${e.message})`));
      });
      up.end(body);
    });

  /** The body of an answer, read whole (at most UPSTREAM_LIMIT_BYTES). */
  const readAnswer = async (answer: IncomingMessage): Promise<Buffer> => {
    const chunks: Buffer[] = [];
    let size = 0;
    try {
      for await (const chunk of answer as AsyncIterable<Buffer>) {
        size += chunk.length;
        if (size > UPSTREAM_LIMIT_BYTES) {
          answer.destroy();
          throw new UpstreamFailure('broken', `the upstream's answer is over ${UPSTREAM_LIMIT_BYTES} bytes`);
        }
        chunks.push(chunk);
      }
    } catch (e) {
      throw upstreamFailure(e, shown);
    }
    return Buffer.concat(chunks);
  };

  /**
   * Copies an answer's body to the client at the client's pace (a write the client has not taken yet
   * pauses the upstream), calling `each` on every piece. An upstream failure cuts the client's
   * connection and is thrown; a client that went away ends it quietly.
   */
  const pipeAnswer = async (
    answer: IncomingMessage,
    res: ServerResponse,
    signal: AbortSignal,
    each?: (chunk: Buffer) => void,
    /** End the client's response (false: the caller ends it, once the exchange is journaled). */
    end = true,
  ): Promise<number> => {
    let bytes = 0;
    try {
      for await (const chunk of answer as AsyncIterable<Buffer>) {
        bytes += chunk.length;
        each?.(chunk);
        if (!res.write(chunk)) await drained(res);
        if (signal.aborted) throw new Error('the client went away');
      }
    } catch (e) {
      if (signal.aborted) throw e;
      // The client must not see a complete answer: no terminating chunk, the connection cut.
      res.destroy();
      throw upstreamFailure(e, shown, bytes);
    }
    if (end) res.end();
    return bytes;
  };

  const copyHeaders = (from: IncomingMessage, res: ServerResponse): void => {
    for (const [name, value] of Object.entries(from.headers)) if (value !== undefined && !HOP_BY_HOP.has(name)) res.setHeader(name, value);
  };

  const resolveTask = (req: IncomingMessage, body: Obj, text: () => string): { task?: string; source: TaskSource } => {
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
          `unknown task "${printable(explicit.task)}" in ${where}: this project's tasks are ${known.length ? known.map((t) => `"${printable(t)}"`).join(', ') : '(none yet)'}`,
          'invalid_request_error',
          { known_tasks: known },
        );
      }
      return explicit;
    }
    return view.route(text(), stats);
  };

  /** Open chains: an exchange whose answer calls tools (or that a previous_response_id may continue), by the keys that continue it, or by its conversation (chainBy 'messages'). */
  const chains = new Map<string, { exchange: ApiExchange; at: number }>();
  const byMessages = new OpenExchanges<ApiExchange>();
  const openChains = new Set<{ exchange: ApiExchange; at: number }>();
  const recordApi = (e: ApiExchange): void => {
    const t = apiExchangeTrace(e);
    if (t.ok) {
      recorder.add(t.trace);
      stats.recorded++;
    } else log(`gateway: exchange ${e.id} not recorded: ${printable(t.message)}`);
  };
  const closeChain = (c: { exchange: ApiExchange; at: number }): void => {
    openChains.delete(c);
    for (const [k, v] of chains) if (v === c) chains.delete(k);
  };
  const chainSweep = setInterval(
    () => {
      const old = Date.now() - idleMs;
      for (const c of [...openChains])
        if (c.at < old) {
          closeChain(c);
          recordApi(c.exchange);
        }
      for (const e of byMessages.expired(old)) recordApi(e.value);
    },
    Math.min(idleMs, 10_000),
  );
  chainSweep.unref();

  /** A request of a served API (Chat Completions, Responses, Messages): the core's one path for all of them. */
  const serveApi = async (api: GatewayApi, req: IncomingMessage, res: ServerResponse, p: RequestPath, signal: AbortSignal): Promise<void> => {
    const started = Date.now();
    const raw = await readBody(req, guard.maxBodyBytes);
    const parsed = api.parse(parseJsonBody(raw));
    if (!parsed.ok) throw new GatewayError(400, parsed.message);
    const twice = duplicateTopKey(raw);
    if (twice !== undefined)
      throw new GatewayError(
        400,
        `the key "${printable(twice)}" occurs twice at the top of the request body (JSON parsers disagree on which one counts): send it once`,
      );
    const body = parsed.value;
    const { task, source } = resolveTask(req, body, () => api.routeText(body));
    const space = task !== undefined ? view.space(task) : undefined;
    const form = forms.get(api.id) ?? 'demote';
    const cut = cutRequest(api, raw, body, space ? { pinned: space.tools, deferred: space.deferred } : undefined, form);
    const saved = estimateTokens(cut.savedChars);
    const menu = `menu ${cut.requested.length}→${cut.pinned.length} pinned, ${cut.deferred.length} deferred (${form}), ${cut.hidden.length} hidden${space ? ` (space v${space.version})` : task !== undefined ? ' (no approved space)' : ''}`;
    const line = (status: number | string, extra = '') =>
      log(
        `${req.method} ${p.path} task=${task !== undefined ? printable(task) : '-'} (${source}) ${menu}${saved ? `, ~${saved} tokens saved` : ''} → ${status}${extra} in ${Date.now() - started} ms`,
      );
    let answerRes: IncomingMessage;
    try {
      answerRes = await send(req, p, cut.bytes, signal, api);
    } catch (e) {
      if (e instanceof UpstreamFailure) stats.failed(task);
      throw e;
    }
    const status = answerRes.statusCode ?? 502;
    const ok = status >= 200 && status < 300;
    const streamed = (answerRes.headers['content-type'] ?? '').includes('text/event-stream');
    res.statusCode = status;
    copyHeaders(answerRes, res);
    if (task !== undefined) res.setHeader(TASK_ANSWER_HEADER, encodeURIComponent(task));
    if (space) res.setHeader(SPACE_VERSION_HEADER, String(space.version));
    res.setHeader(TOOLS_HEADER, `pinned=${cut.pinned.length}; deferred=${cut.deferred.length}; hidden=${cut.hidden.length}; form=${form}`);
    let got: { answer?: Obj; usage?: Obj; why?: string } = { why: 'upstream error, not recorded' };
    let rest: Buffer | undefined;
    if (streamed) {
      res.flushHeaders();
      const assembler = api.stream();
      const decoder = new TextDecoder();
      try {
        await pipeAnswer(answerRes, res, signal, (chunk) => assembler.push(decoder.decode(chunk, { stream: true })), false);
      } catch (e) {
        if (e instanceof UpstreamFailure) {
          stats.failed(task);
          line(status, ` then the upstream failed: ${e.message}; the client's connection was cut, nothing recorded`);
          return;
        }
        throw e;
      }
      if (ok) got = assembler.result();
    } else {
      const bytes = await readAnswer(answerRes).catch((e: unknown) => {
        stats.failed(task);
        throw e;
      });
      rest = bytes;
      if (ok) {
        try {
          got = api.answer(JSON.parse(bytes.toString('utf8')));
        } catch {
          got = { why: 'the answer is not JSON, not recorded' };
        }
      }
    }
    const answer = got.answer;
    const promptTokens = api.promptTokens(got.usage);
    if (!answer) {
      res.end(rest);
      stats.failed(task);
      line(status, ` (${got.why ?? 'not recorded'})`);
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
    const deferredSet = new Set(cut.deferred);
    const calledDeferred = api.calledTools(answer).filter((n) => deferredSet.has(n));
    line(
      status,
      `${promptTokens !== undefined ? `, ${promptTokens} prompt tokens` : ''}${calledDeferred.length ? `, called while deferred: ${calledDeferred.map((n) => printable(n)).join(', ')}` : ''}`,
    );
    let before: ApiExchange | undefined;
    if (api.chainBy === 'messages') before = byMessages.take(cut.body.messages as unknown[])?.value;
    else
      for (const k of api.continues(body)) {
        const c = chains.get(k);
        if (c) {
          closeChain(c);
          before = c.exchange;
          break;
        }
      }
    const forwarded = before && api.merge ? api.merge(before, cut.body) : cut.body;
    const exchange: ApiExchange = {
      id: before?.id ?? `gw-${session}-${String(++seq).padStart(4, '0')}`,
      api,
      ...(task !== undefined ? { task } : {}),
      taskSource: source,
      forwarded,
      answer,
      requested: cut.requested,
      pinned: cut.pinned,
      deferred: cut.deferred,
      hidden: cut.hidden,
      deferredForm: form,
      calledWhileDeferred: [...new Set([...(before?.calledWhileDeferred ?? []), ...calledDeferred])],
      ...(space ? { spaceVersion: space.version } : {}),
      ...(got.usage ? { usage: got.usage } : {}),
      requests: (before?.requests ?? 0) + 1,
      session,
      at: new Date().toISOString(),
    };
    const keys = api.chainBy === 'messages' ? [] : api.opens(answer);
    const calls = api.calledTools(answer).length > 0;
    if (calls && (api.chainBy === 'messages' || keys.length > 0)) {
      if (api.chainBy === 'messages') byMessages.add([...(cut.body.messages as unknown[]), answer], { id: exchange.id, value: exchange, at: Date.now() });
      else {
        const c = { exchange, at: Date.now() };
        openChains.add(c);
        for (const k of keys) chains.set(k, c);
      }
      // Journaled as it stands (what it would be recorded as if nothing continued it); a continuation replaces it.
      const t = apiExchangeTrace(exchange);
      if (t.ok) recorder.provisional(t.trace);
    } else recordApi(exchange);
    res.end(rest);
  };

  const passthrough = async (req: IncomingMessage, res: ServerResponse, p: RequestPath, signal: AbortSignal): Promise<void> => {
    const started = Date.now();
    const body = req.method === 'GET' || req.method === 'HEAD' ? undefined : await readBody(req, guard.maxBodyBytes);
    passed++;
    stats.onChange?.(); // the status record says it soon
    const answer = await send(req, p, body, signal);
    res.statusCode = answer.statusCode ?? 502;
    copyHeaders(answer, res);
    let bytes: number;
    try {
      bytes = await pipeAnswer(answer, res, signal);
    } catch (e) {
      if (e instanceof UpstreamFailure) {
        log(`${req.method} ${p.path} → ${res.statusCode} passed through, then the upstream failed: ${e.message}; the client's connection was cut`);
        return;
      }
      throw e;
    }
    log(
      `${req.method} ${p.path} → ${res.statusCode} passed through as it was (not a chat request: nothing cut or recorded), ${bytes} bytes in ${Date.now() - started} ms`,
    );
  };

  const inFlight = new Set<Promise<void>>();
  const server: Server = createServer((req, res) => {
    const abort = new AbortController();
    res.on('close', () => {
      if (!res.writableFinished) abort.abort();
    });
    const rawUrl = req.url ?? '/';
    let shownPath = printable(rawUrl.split('?')[0]!, 120);
    const job = (async () => {
      try {
        checkCaller(req, guard);
        const hops = String(req.headers[HOP_HEADER] ?? '')
          .split(',')
          .map((h) => h.trim())
          .filter(Boolean);
        if (hops.includes(session) || hops.length >= MAX_HOPS)
          throw new GatewayError(
            508,
            hops.includes(session)
              ? `this request already passed through this gateway (session ${session}): its upstream ${shown} leads back to it; point --upstream at the model server`
              : `this request passed through ${hops.length} gateways already: a loop between gateways?`,
            'loop_detected',
          );
        const p = normalizeRequestPath(rawUrl);
        if (!p.ok) throw new GatewayError(400, p.message);
        shownPath = p.value.path;
        const adapter = req.method === 'POST' ? adapterFor(p.value.segments) : undefined;
        const unserved = adapter ? undefined : unservedApi(p.value);
        if (unserved !== undefined)
          throw new GatewayError(
            501,
            `this gateway serves ${API_ADAPTERS.map((a) => a.label).join(', ')}; ${unserved} is not served yet: its tools would reach the upstream uncut and unrecorded. Point this agent at a served API, or straight at the upstream`,
            'not_implemented',
          );
        if (adapter) {
          // Forwarded as the upstream's own spelling of the path, whatever case the client used.
          const segments = p.value.segments.map((x) => x.toLowerCase());
          await serveApi(adapter, req, res, { ...p.value, segments, path: `/${segments.join('/')}` }, abort.signal);
        } else await passthrough(req, res, p.value, abort.signal);
      } catch (e) {
        const where = `${req.method} ${shownPath}`;
        if (abort.signal.aborted && !(e instanceof GatewayError)) {
          log(`${where}: the client went away`);
        } else if (e instanceof UpstreamFailure) {
          const status = e.kind === 'timeout' ? 504 : 502;
          log(`${where} → ${status}: upstream ${e.kind === 'timeout' ? 'timeout' : 'failure'}: ${e.message}`);
          sendError(res, new GatewayError(status, e.message, 'upstream_error'));
        } else if (e instanceof GatewayError) {
          stats.refused++;
          log(`${where} → ${e.status}: ${printable(e.message, 1000)}`);
          sendError(res, e);
        } else {
          const text = e instanceof Error ? (e.stack ?? e.message) : String(e);
          for (const l of text.split('\n')) log(`${where}: gateway bug: ${printable(l, 1000)}`);
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
    { id: session, kind: 'openai', transport: 'http', url: `${url}/v1`, upstream: publicUpstream(options.upstream) },
    { stats, recorder, open: () => byMessages.size + openChains.size, passedThrough: () => passed },
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
    passedThrough: () => passed,
    close: () =>
      (closing ??= (async () => {
        status.stopping();
        const stopped = new Promise<void>((done) => server.close(() => done()));
        server.closeIdleConnections();
        const slow = setTimeout(() => server.closeAllConnections(), 30_000);
        await Promise.allSettled([...inFlight]);
        await stopped;
        clearTimeout(slow);
        clearInterval(chainSweep);
        for (const c of [...openChains]) {
          closeChain(c);
          recordApi(c.exchange);
        }
        agent.destroy();
        for (const e of byMessages.drain()) recordApi(e.value);
        try {
          return await recorder.close();
        } finally {
          status.stopped();
        }
      })()),
  };
}

/** Resolves when the client took what was written (or went away). */
function drained(res: ServerResponse): Promise<void> {
  return new Promise((done) => {
    const end = (): void => {
      res.off('drain', end);
      res.off('close', end);
      done();
    };
    res.once('drain', end);
    res.once('close', end);
  });
}

/** What went wrong reading an answer, as an upstream failure (a timeout stays a timeout). */
function upstreamFailure(e: unknown, shown: string, bytes?: number): UpstreamFailure {
  if (e instanceof UpstreamFailure) return e;
  const after = bytes !== undefined ? ` after ${bytes} bytes` : '';
  return new UpstreamFailure('broken', `the upstream ${shown} broke off its answer${after} (${e instanceof Error ? e.message : String(e)})`);
}
