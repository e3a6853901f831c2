// The MCP gateway: an MCP server (the official SDK's) in front of an upstream MCP server it starts and
// talks to as a client. `tools/list` shows the task's approved space in its three states (its latest
// accepted version; without one every tool is shown, and counted): pinned tools as the upstream lists them,
// deferred ones demoted (name and short description, an empty input schema: callable, not documented up
// front; `deferred: 'hide'` leaves them out but keeps them callable), hidden ones not at all. A call of a
// deferred tool is forwarded and recorded as called while deferred; `tools/call` of a hidden tool is refused with an MCP
// error that names the space, an allowed call is forwarded and its result returned as the upstream gave
// it, and every forwarded call is recorded (call, result) as a native trace into a new batch of the
// project (recorder.ts). Only tools are the gateway's business: the upstream's prompts, resources and
// completions are passed through as they are. Served over stdio (one client: the process that started
// the gateway) or over streamable HTTP (stateless: one SDK server per request, all sharing the upstream).
//
// When the upstream fails (its process exits or is killed), the gateway says why, in its log and its
// status record. Over stdio it then ends with a non-zero exit, since MCP hosts restart a server that
// exits and cannot restart one that answers "Not connected"; over HTTP it starts the upstream again. A
// message over --max-message-mib costs only its own request (mcp-stdio.ts).
import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server as HttpServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import type { RequestOptions } from '@modelcontextprotocol/sdk/shared/protocol.js';
import {
  CallToolRequestSchema,
  CallToolResultSchema,
  CompleteRequestSchema,
  CompleteResultSchema,
  ErrorCode,
  GetPromptRequestSchema,
  GetPromptResultSchema,
  ListPromptsRequestSchema,
  ListPromptsResultSchema,
  ListResourcesRequestSchema,
  ListResourcesResultSchema,
  ListResourceTemplatesRequestSchema,
  ListResourceTemplatesResultSchema,
  ListToolsRequestSchema,
  ListToolsResultSchema,
  McpError,
  ReadResourceRequestSchema,
  ReadResourceResultSchema,
  type ServerCapabilities,
  type Tool,
} from '@modelcontextprotocol/sdk/types.js';
import { estimateTokens } from '../../../shared/gateway/chat-request';
import { shownCommand } from '../../../shared/gateway/shown-command';
import { GatewayStats } from '../../../shared/gateway/stats';
import { contentText } from '../../../shared/importers/values';
import type { SpaceVersion } from '../../../shared/project/spaces';
import type { Trace } from '../../../shared/trace/schema';
import { STUDIO_VERSION } from '../version';
import type { ProjectStore } from '../store';
import { checkCaller, DEFAULT_MAX_BODY_BYTES, GatewayError, parseJsonBody, readBody, sendJson } from './http-guard';
import { ClientStdioTransport, DEFAULT_MAX_MESSAGE_BYTES, describeExit, OVERSIZED, UpstreamTransport } from './mcp-stdio';
import { ProjectView } from './project-view';
import { TraceRecorder } from './recorder';
import { GatewayStatusWriter } from './status';
import { demotedTool } from '../../../shared/export/formats';

export { DEFAULT_MAX_MESSAGE_BYTES } from './mcp-stdio';

export interface McpUpstream {
  command: string;
  args: string[];
  /** The upstream's environment (default: this process's). */
  env?: Record<string, string>;
}

export interface McpGatewayOptions {
  store: ProjectStore;
  task: string;
  upstream: McpUpstream;
  commitEveryMs?: number;
  /** How often the gateway's status record in the project is rewritten while serving (default 5 s; status.ts). */
  statusHeartbeatMs?: number;
  /** The largest JSON-RPC message taken from the upstream, and over stdio from the client (default 10 MiB). */
  maxMessageBytes?: number;
  /** Over HTTP: how many times in a row the upstream may fail to start again before the gateway gives up (default 5). */
  restartAttempts?: number;
  /** How deferred tools are listed: demoted (the default: name and short description) or left out; either way callable. */
  deferred?: 'demote' | 'hide';
  log?: (line: string) => void;
}

export interface HttpServeOptions {
  host?: string;
  port?: number;
  token?: string;
  maxBodyBytes?: number;
}

/**
 * An error the gateway answers over JSON-RPC: its message goes on the wire as it is. (The SDK's McpError
 * puts "MCP error <code>: " in its message, which the client's McpError then prefixes again.)
 */
class RpcError extends Error {
  constructor(
    readonly code: number,
    message: string,
    readonly data?: unknown,
  ) {
    super(message);
  }
}

/** A connected upstream: the SDK's client over our stdio transport. */
interface Connection {
  client: Client;
  transport: UpstreamTransport;
}

/** Restarts after a crash wait this long at first, doubling while the restarted upstream dies within a second. */
const RESTART_DELAY_MS = 250;
/** JSON-RPC's "server error" code, as the SDK's HTTP transport uses it for its own refusals. */
const SERVER_ERROR = -32000;
const MAX_RESTART_DELAY_MS = 30_000;

export class McpGateway {
  readonly stats = new GatewayStats();
  readonly recorder: TraceRecorder;
  readonly session = `${new Date().toISOString().replace(/[-:]/g, '').replace(/\..*$/, '')}-${randomBytes(3).toString('hex')}`;
  /** The upstream as it may be shown and stored (shared/gateway/shown-command.ts): never its whole command line. */
  readonly upstreamName: string;
  private readonly view: ProjectView;
  private readonly log: (line: string) => void;
  private seq = 0;
  private tools: Tool[] = [];
  private http?: HttpServer;
  private stdio?: ClientStdioTransport;
  private mode?: 'http' | 'stdio';
  /** The connection in use, or the restart that will give one (HTTP). */
  private connection: Promise<Connection>;
  private restartDelay = RESTART_DELAY_MS;
  /** Requests waiting for the upstream, and who waits for there to be none. */
  private inflight = 0;
  private idle: (() => void)[] = [];
  /** Why the gateway cannot serve any more (the upstream failed over stdio, or could not be started again). */
  failure?: string;
  private endedBy!: () => void;
  /** Resolves when the gateway stopped serving by itself: its stdio client went away, or its upstream failed for good. */
  readonly ended = new Promise<void>((done) => (this.endedBy = done));
  /** Its status record in the project (gateways/<session>.json), written once it serves. */
  status?: GatewayStatusWriter;
  private closing?: Promise<{ committed: number; leftIn?: string }>;

  private constructor(
    private readonly options: McpGatewayOptions,
    first: Connection,
    private readonly capabilities: ServerCapabilities,
    private readonly instructions: string | undefined,
  ) {
    this.log = options.log ?? (() => undefined);
    this.upstreamName = shownCommand(options.upstream.command, options.upstream.args);
    this.view = new ProjectView(options.store);
    this.recorder = new TraceRecorder(options.store, {
      source: `gateway-mcp-${this.session}`,
      log: this.log,
      ...(options.commitEveryMs !== undefined ? { commitEveryMs: options.commitEveryMs } : {}),
    });
    this.connection = Promise.resolve(first);
    this.watch(first);
  }

  /**
   * Starts the upstream server and connects to it. A task the project has no traces or space of yet is
   * served too (every tool shown): a first audit of an MCP server starts its task.
   */
  static async start(options: McpGatewayOptions): Promise<McpGateway> {
    const log = options.log ?? (() => undefined);
    const view = new ProjectView(options.store);
    if (!view.knows(options.task)) {
      const known = view.tasks();
      log(
        `gateway: task "${options.task}" is new to this project (no traces or space yet; its tasks: ${known.length ? known.map((t) => `"${t}"`).join(', ') : 'none'}): every tool is shown, and its calls start it`,
      );
    }
    const first = await McpGateway.connect(options, log);
    const upstream = first.client.getServerCapabilities() ?? {};
    // Only what the gateway passes on is announced; subscriptions and change notifications need a session it does not keep.
    const capabilities: ServerCapabilities = {
      tools: {},
      ...(upstream.prompts ? { prompts: {} } : {}),
      ...(upstream.resources ? { resources: {} } : {}),
      ...(upstream.completions ? { completions: {} } : {}),
    };
    const gateway = new McpGateway(options, first, capabilities, first.client.getInstructions());
    await gateway.refreshTools();
    return gateway;
  }

  private static async connect(options: McpGatewayOptions, log: (line: string) => void): Promise<Connection> {
    const env = options.upstream.env ?? Object.fromEntries(Object.entries(process.env).filter((e): e is [string, string] => e[1] !== undefined));
    const transport = new UpstreamTransport({
      command: options.upstream.command,
      args: options.upstream.args,
      env,
      maxMessageBytes: options.maxMessageBytes ?? DEFAULT_MAX_MESSAGE_BYTES,
      log,
    });
    const client = new Client({ name: 'lots-gateway', version: STUDIO_VERSION });
    client.onerror = (e) => log(`gateway: upstream: ${e.message}`);
    try {
      await client.connect(transport);
    } catch (e) {
      await transport.close().catch(() => undefined);
      // Not spawned at all (no such command): the spawn error says it; spawned, then gone: how it ended.
      const why = transport.startedAt !== 0 && transport.exit ? describeExit(transport.exit) : e instanceof Error ? e.message : String(e);
      throw new GatewayError(502, `the upstream MCP server (${shownCommand(options.upstream.command, options.upstream.args)}) did not start: ${why}`);
    }
    return { client, transport };
  }

  get task(): string {
    return this.options.task;
  }

  /** The upstream process's id now (it changes when it is restarted). */
  async upstreamPid(): Promise<number | undefined> {
    return (await this.connection).transport.pid;
  }

  /** The approved space now (read again every few seconds: an approval reaches a running gateway). */
  space(): SpaceVersion | undefined {
    return this.view.space(this.options.task);
  }

  /** Notice when this connection's upstream goes away on its own. */
  private watch(conn: Connection): void {
    conn.client.onclose = () => {
      if (this.closing) return;
      void this.upstreamLost(conn);
    };
  }

  private async upstreamLost(conn: Connection): Promise<void> {
    const reason = `the upstream MCP server (${this.upstreamName}) ${describeExit(conn.transport.exit)}`;
    this.log(`gateway: ${reason}`);
    this.status?.upstreamFailed(reason);
    if (this.mode !== 'http') {
      // Over stdio (or before serving) the gateway ends: its host sees the exit and restarts it.
      this.fail(`${reason}; the gateway ends so that its MCP host can restart it`);
      return;
    }
    const lived = Date.now() - conn.transport.startedAt;
    this.restartDelay = lived < 1000 ? Math.min(this.restartDelay * 2, MAX_RESTART_DELAY_MS) : RESTART_DELAY_MS;
    const restarted = this.restart(this.restartDelay);
    this.connection = restarted;
    restarted.catch(() => undefined);
  }

  /** Start the upstream again, trying `restartAttempts` times; gives up (the gateway fails) when none starts. */
  private async restart(delayMs: number): Promise<Connection> {
    const attempts = this.options.restartAttempts ?? 5;
    let last = '';
    for (let i = 0; i < attempts && !this.closing; i++) {
      await new Promise((r) => setTimeout(r, delayMs * 2 ** i));
      if (this.closing) break;
      try {
        const conn = await McpGateway.connect(this.options, this.log);
        if (this.closing) {
          await conn.client.close().catch(() => undefined);
          break;
        }
        this.watch(conn);
        this.log(`gateway: the upstream MCP server (${this.upstreamName}) was started again (pid ${conn.transport.pid ?? '?'})`);
        this.status?.upstreamRestarted();
        return conn;
      } catch (e) {
        last = e instanceof Error ? e.message : String(e);
        this.log(`gateway: restart ${i + 1} of ${attempts} failed: ${last}`);
      }
    }
    const reason = `the upstream MCP server (${this.upstreamName}) could not be started again after ${attempts} attempt(s)${last ? ` (${last})` : ''}`;
    if (!this.closing) this.fail(reason);
    throw new RpcError(ErrorCode.InternalError, reason);
  }

  /** The gateway cannot serve any more: it ends once the requests in flight are answered (with the reason). */
  private fail(reason: string): void {
    this.failure ??= reason;
    void this.settled().then(() => this.endedBy());
  }

  /** Resolves once no request waits for the upstream and their answers have been handed to the transport. */
  private async settled(): Promise<void> {
    while (this.inflight > 0) await new Promise<void>((done) => this.idle.push(done));
    await new Promise((done) => setImmediate(done));
  }

  /** A request to the upstream, its errors turned into the gateway's answer (never a doubled prefix). */
  private async upstream<T>(send: (client: Client, options: RequestOptions) => Promise<T>, signal: AbortSignal): Promise<T> {
    if (this.failure !== undefined) throw new RpcError(ErrorCode.InternalError, this.failure);
    this.inflight++;
    let conn: Connection | undefined;
    try {
      conn = await this.connection;
      return await send(conn.client, { signal });
    } catch (e) {
      if (!conn) throw e;
      if (conn.transport.exit) {
        const next = this.mode === 'http' ? 'the gateway starts it again' : 'the gateway ends';
        throw new RpcError(
          ErrorCode.InternalError,
          `the upstream MCP server (${this.upstreamName}) ${describeExit(conn.transport.exit)} before it answered; ${next}`,
        );
      }
      if (e instanceof McpError) throw new RpcError(e.code, e.message.replace(/^(MCP error -?\d+: )+/, ''), e.data);
      throw new RpcError(
        ErrorCode.InternalError,
        `the upstream MCP server (${this.upstreamName}) could not be asked: ${e instanceof Error ? e.message : String(e)}`,
      );
    } finally {
      if (--this.inflight === 0) for (const done of this.idle.splice(0)) done();
    }
  }

  /** The upstream's tools (every page). */
  private async refreshTools(signal: AbortSignal = new AbortController().signal): Promise<Tool[]> {
    const all: Tool[] = [];
    let cursor: string | undefined;
    do {
      const params = cursor !== undefined ? { cursor } : {};
      const page = await this.upstream((c, o) => c.request({ method: 'tools/list', params }, ListToolsResultSchema, o), signal);
      all.push(...page.tools);
      cursor = page.nextCursor;
    } while (cursor !== undefined);
    this.tools = all;
    return all;
  }

  /** A tool's state in the space served (every tool is pinned when the task has no approved space). */
  private stateOf(name: string, space = this.space()): 'pinned' | 'deferred' | 'hidden' {
    if (space === undefined || space.tools.includes(name)) return 'pinned';
    return space.deferred.includes(name) ? 'deferred' : 'hidden';
  }

  private allowed(name: string, space = this.space()): boolean {
    return this.stateOf(name, space) !== 'hidden';
  }

  /** The menu as tools/list shows it: pinned tools as listed upstream, deferred ones demoted (or left out). */
  private menu(tools: readonly Tool[], space: SpaceVersion | undefined): Tool[] {
    const form = this.options.deferred ?? 'demote';
    return tools.flatMap((t): Tool[] => {
      const state = this.stateOf(t.name, space);
      if (state === 'pinned') return [t];
      if (state === 'hidden' || form === 'hide') return [];
      const demoted = demotedTool({ name: t.name, ...(t.description !== undefined ? { description: t.description } : {}) });
      return [{ name: t.name, ...(demoted.description !== undefined ? { description: demoted.description } : {}), inputSchema: { type: 'object' } }];
    });
  }

  /** One SDK server wired to the upstream; one per transport (stdio: one, HTTP: one per request). */
  server(): Server {
    const server = new Server(
      { name: 'lots-gateway', version: STUDIO_VERSION },
      { capabilities: this.capabilities, ...(this.instructions !== undefined ? { instructions: this.instructions } : {}) },
    );
    server.setRequestHandler(ListToolsRequestSchema, async (_request, extra) => {
      const space = this.space();
      const tools = await this.refreshTools(extra.signal);
      const shown = this.menu(tools, space);
      const hidden = tools.filter((t) => this.stateOf(t.name, space) === 'hidden');
      const deferred = tools.filter((t) => this.stateOf(t.name, space) === 'deferred').length;
      const saved = estimateTokens(JSON.stringify(tools).length - JSON.stringify(shown).length);
      this.stats.served({
        task: this.task,
        source: 'flag',
        hasSpace: space !== undefined,
        hidden: hidden.length,
        tokensSaved: saved,
        ...(space ? { spaceVersion: space.version } : {}),
      });
      this.log(
        `tools/list task=${this.task} ${tools.length}→${tools.length - hidden.length - deferred} pinned, ${deferred} deferred (${this.options.deferred ?? 'demote'}), ${hidden.length} hidden${space ? ` (space v${space.version})` : ' (no approved space: all shown)'}${saved > 0 ? `, ~${saved} tokens saved` : ''}`,
      );
      return { tools: shown };
    });
    server.setRequestHandler(CallToolRequestSchema, async (request, extra) => {
      const { name } = request.params;
      const space = this.space();
      if (!this.allowed(name, space)) {
        this.stats.refused++;
        this.log(`tools/call ${name} task=${this.task}: refused (not in space v${space!.version})`);
        throw new RpcError(
          ErrorCode.InvalidParams,
          `tool "${name}" is hidden by the approved space of task "${this.task}" (v${space!.version}: pinned ${space!.tools.join(', ') || 'none'}${space!.deferred.length ? `; deferred ${space!.deferred.join(', ')}` : ''}); the LOTS gateway refuses it`,
        );
      }
      const started = Date.now();
      let result;
      try {
        result = await this.upstream((c, o) => c.request({ method: 'tools/call', params: request.params }, CallToolResultSchema, o), extra.signal);
      } catch (e) {
        this.stats.failed(this.task);
        const oversized = e instanceof RpcError && (e.data as { lotsGateway?: string } | undefined)?.lotsGateway === OVERSIZED;
        this.log(
          `tools/call ${name} task=${this.task} → ${oversized ? 'answer over the size limit' : 'failed'}: ${e instanceof Error ? e.message : String(e)}`,
        );
        throw e;
      }
      this.stats.served({
        task: this.task,
        source: 'flag',
        hasSpace: space !== undefined,
        hidden: 0,
        tokensSaved: 0,
        ...(space ? { spaceVersion: space.version } : {}),
      });
      const whileDeferred = this.stateOf(name, space) === 'deferred';
      this.log(
        `tools/call ${name} task=${this.task} → ${result.isError ? 'error result' : 'ok'} in ${Date.now() - started} ms${whileDeferred ? ', called while deferred' : ''}`,
      );
      this.record(name, request.params.arguments, result, space);
      return result;
    });
    // Not tools: passed through as the upstream answers them, and only logged.
    const pass = <R>(method: string, params: unknown, schema: Parameters<Client['request']>[1], signal: AbortSignal, what: string): Promise<R> => {
      this.log(`${method} ${what}`.trimEnd());
      return this.upstream((c, o) => c.request({ method, params: params as Record<string, unknown> }, schema, o) as Promise<R>, signal);
    };
    if (this.capabilities.prompts) {
      server.setRequestHandler(ListPromptsRequestSchema, (r, x) => pass(r.method, r.params, ListPromptsResultSchema, x.signal, ''));
      server.setRequestHandler(GetPromptRequestSchema, (r, x) => pass(r.method, r.params, GetPromptResultSchema, x.signal, r.params.name));
    }
    if (this.capabilities.resources) {
      server.setRequestHandler(ListResourcesRequestSchema, (r, x) => pass(r.method, r.params, ListResourcesResultSchema, x.signal, ''));
      server.setRequestHandler(ListResourceTemplatesRequestSchema, (r, x) => pass(r.method, r.params, ListResourceTemplatesResultSchema, x.signal, ''));
      server.setRequestHandler(ReadResourceRequestSchema, (r, x) => pass(r.method, r.params, ReadResourceResultSchema, x.signal, r.params.uri));
    }
    if (this.capabilities.completions) server.setRequestHandler(CompleteRequestSchema, (r, x) => pass(r.method, r.params, CompleteResultSchema, x.signal, ''));
    return server;
  }

  private record(name: string, args: unknown, result: Record<string, unknown>, space: SpaceVersion | undefined): void {
    const id = `gw-mcp-${this.session}-${String(++this.seq).padStart(4, '0')}`;
    const menu = this.menu(this.tools, space);
    const deferred = this.tools.filter((t) => this.stateOf(t.name, space) === 'deferred').map((t) => t.name);
    const content = contentText(result.content ?? result.structuredContent ?? result.toolResult);
    const trace: Trace = {
      v: 1,
      id,
      task: this.task,
      tools: menu.map((t) => ({
        name: t.name,
        ...(t.description ? { description: t.description } : {}),
        parameters: t.inputSchema,
      })),
      turns: [
        {
          request: '',
          steps: [
            { kind: 'call', calls: [{ id: 'c1', name, ...(args !== undefined ? { arguments: args } : {}) }] },
            { kind: 'observation', callId: 'c1', name, content, ...(result.isError === true ? { isError: true } : {}), pairing: 'id' },
          ],
          answer: '',
        },
      ],
      meta: {
        gateway: {
          kind: 'mcp',
          session: this.session,
          at: new Date().toISOString(),
          taskFrom: 'flag',
          upstream: this.upstreamName,
          hidden: this.tools.filter((t) => this.stateOf(t.name, space) === 'hidden').map((t) => t.name),
          deferred,
          deferredForm: this.options.deferred ?? 'demote',
          calledWhileDeferred: deferred.includes(name) ? [name] : [],
          ...(space ? { spaceVersion: space.version } : {}),
        },
      },
    };
    this.recorder.add(trace);
    this.stats.recorded++;
  }

  /** Start the status record: the Studio's Gateway view shows this gateway from now on. */
  private announce(transport: 'http' | 'stdio', url: string): void {
    this.status = new GatewayStatusWriter(
      this.options.store,
      { id: this.session, kind: 'mcp', transport, url, upstream: this.upstreamName, task: this.task },
      { stats: this.stats, recorder: this.recorder },
      { log: this.log, ...(this.options.statusHeartbeatMs !== undefined ? { heartbeatMs: this.options.statusHeartbeatMs } : {}) },
    );
    const status = this.status;
    this.recorder.onCommit = () => status.beat();
    status.start();
  }

  /**
   * Serve one client over this process's stdin/stdout; resolves when that client goes away or the
   * upstream fails (then `failure` says why, and the process should exit non-zero).
   */
  async serveStdio(): Promise<void> {
    this.mode = 'stdio';
    this.announce('stdio', 'stdio');
    const transport = new ClientStdioTransport(this.options.maxMessageBytes ?? DEFAULT_MAX_MESSAGE_BYTES, this.log);
    this.stdio = transport;
    transport.onclose = () => this.endedBy();
    const server = this.server();
    server.onerror = (e) => this.log(`gateway: client: ${e.message}`);
    await server.connect(transport);
    if (this.failure !== undefined) this.endedBy();
    await this.ended;
  }

  /** Serve streamable HTTP at `/mcp` (stateless); returns the URL. When it cannot listen, the upstream is closed too. */
  async serveHttp(options: HttpServeOptions = {}): Promise<string> {
    this.mode = 'http';
    const guard = { maxBodyBytes: options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES, ...(options.token !== undefined ? { token: options.token } : {}) };
    const http = createServer((req, res) => void this.handleHttp(req, res, guard));
    try {
      await new Promise<void>((done, fail) => {
        http.once('error', fail);
        http.listen(options.port ?? 0, options.host ?? '127.0.0.1', () => done());
      });
    } catch (e) {
      // Nothing may be left running: the upstream would keep the process alive.
      await this.close();
      throw e;
    }
    this.http = http;
    const a = http.address() as AddressInfo;
    const url = `http://${a.family === 'IPv6' ? `[${a.address}]` : a.address}:${a.port}/mcp`;
    this.announce('http', url);
    return url;
  }

  private async handleHttp(req: IncomingMessage, res: ServerResponse, guard: { maxBodyBytes: number; token?: string }): Promise<void> {
    try {
      checkCaller(req, guard);
      const path = (req.url ?? '/').split('?')[0];
      if (path !== '/mcp') throw new GatewayError(404, `no such endpoint ${path}: the MCP endpoint is /mcp`, 'not_found');
      if (req.method !== 'POST') throw new GatewayError(405, 'this gateway is stateless: only POST /mcp (no sessions, no GET stream)', 'method_not_allowed');
      const raw = await readBody(req, guard.maxBodyBytes);
      let body: unknown;
      try {
        body = parseJsonBody(raw);
      } catch (e) {
        if (e instanceof GatewayError)
          throw new GatewayError(e.status, e.message.replace('a JSON Chat Completions request', 'a JSON-RPC message'), 'parse_error');
        throw e;
      }
      const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
      const server = this.server();
      res.on('close', () => {
        void transport.close();
        void server.close();
      });
      await server.connect(transport);
      await transport.handleRequest(req, res, body);
    } catch (e) {
      if (e instanceof GatewayError) {
        if (e.status !== 404) this.stats.refused++;
        sendRpcError(res, e.status, e.type === 'parse_error' ? ErrorCode.ParseError : SERVER_ERROR, e.message);
      } else {
        this.log(`mcp http: gateway bug: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}`);
        sendRpcError(res, 500, ErrorCode.InternalError, `the gateway failed on this request: ${e instanceof Error ? e.message : String(e)}`);
      }
    }
  }

  /** Stop serving, close the upstream, commit the batch. */
  close(): Promise<{ committed: number; leftIn?: string }> {
    return (this.closing ??= (async () => {
      this.status?.stopping();
      if (this.http) {
        const http = this.http;
        await new Promise<void>((done) => {
          http.close(() => done());
          http.closeIdleConnections();
        });
      }
      await this.stdio?.close();
      const conn = await this.connection.catch(() => undefined);
      await conn?.client.close().catch(() => undefined);
      this.endedBy();
      try {
        return await this.recorder.close();
      } finally {
        this.status?.stopped(this.failure);
      }
    })());
  }
}

/**
 * The gateway's own answers on /mcp (401, 403, 404, 405, 413, 400, 500) as JSON-RPC errors, as an MCP
 * client reads them: the HTTP status stays, the body is `{"jsonrpc":"2.0","error":{…},"id":null}` (the
 * request's id is not known before its body is read; the SDK's transport answers the same way).
 */
function sendRpcError(res: ServerResponse, status: number, code: number, message: string): void {
  sendJson(res, status, { jsonrpc: '2.0', error: { code, message }, id: null });
}
