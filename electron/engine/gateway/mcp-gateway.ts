// The MCP gateway: an MCP server (the official SDK's) in front of an upstream MCP server it starts and
// talks to as a client. `tools/list` shows only the task's approved space (its latest accepted version;
// without one every tool is shown, and counted), `tools/call` of a hidden tool is refused with an MCP
// error that names the space, an allowed call is forwarded and its result returned as the upstream gave
// it, and every forwarded call is recorded (call, result) as a native trace into a new batch of the
// project (recorder.ts). Served over stdio (one client: the process that started the gateway) or over
// streamable HTTP (stateless: one SDK server per request, all sharing the upstream connection).
import { randomBytes } from 'node:crypto';
import { createServer, type Server as HttpServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { basename } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { CallToolRequestSchema, ErrorCode, ListToolsRequestSchema, McpError, type Tool } from '@modelcontextprotocol/sdk/types.js';
import { estimateTokens } from '../../../shared/gateway/chat-request';
import { GatewayStats } from '../../../shared/gateway/stats';
import { contentText } from '../../../shared/importers/values';
import type { SpaceVersion } from '../../../shared/project/spaces';
import type { Trace } from '../../../shared/trace/schema';
import { STUDIO_VERSION } from '../version';
import type { ProjectStore } from '../store';
import { checkCaller, DEFAULT_MAX_BODY_BYTES, GatewayError, parseJsonBody, readBody, sendError, sendJson } from './http-guard';
import { ProjectView } from './project-view';
import { TraceRecorder } from './recorder';
import { GatewayStatusWriter } from './status';

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
  log?: (line: string) => void;
}

export interface HttpServeOptions {
  host?: string;
  port?: number;
  token?: string;
  maxBodyBytes?: number;
}

export class McpGateway {
  readonly stats = new GatewayStats();
  readonly recorder: TraceRecorder;
  readonly session = `${new Date().toISOString().replace(/[-:]/g, '').replace(/\..*$/, '')}-${randomBytes(3).toString('hex')}`;
  private readonly view: ProjectView;
  private readonly log: (line: string) => void;
  private seq = 0;
  private tools: Tool[] = [];
  private http?: HttpServer;
  /** Its status record in the project (gateways/<session>.json), written once it serves. */
  status?: GatewayStatusWriter;
  private closing?: Promise<{ committed: number; leftIn?: string }>;

  private constructor(
    private readonly options: McpGatewayOptions,
    private readonly client: Client,
  ) {
    this.log = options.log ?? (() => undefined);
    this.view = new ProjectView(options.store);
    this.recorder = new TraceRecorder(options.store, {
      source: `gateway-mcp-${this.session}`,
      log: this.log,
      ...(options.commitEveryMs !== undefined ? { commitEveryMs: options.commitEveryMs } : {}),
    });
  }

  /** Starts the upstream server and connects to it; refuses a task the project does not know. */
  static async start(options: McpGatewayOptions): Promise<McpGateway> {
    const view = new ProjectView(options.store);
    if (!view.knows(options.task)) {
      const known = view.tasks();
      throw new GatewayError(
        400,
        `unknown task "${options.task}": this project's tasks are ${known.length ? known.map((t) => `"${t}"`).join(', ') : '(none yet)'}`,
      );
    }
    const client = new Client({ name: 'lots-gateway', version: STUDIO_VERSION });
    const env = options.upstream.env ?? Object.fromEntries(Object.entries(process.env).filter((e): e is [string, string] => e[1] !== undefined));
    try {
      await client.connect(new StdioClientTransport({ command: options.upstream.command, args: options.upstream.args, env, stderr: 'inherit' }));
    } catch (e) {
      throw new GatewayError(
        502,
        `the upstream MCP server (${[options.upstream.command, ...options.upstream.args].join(' ')}) did not start: ${e instanceof Error ? e.message : String(e)}`,
      );
    }
    const gateway = new McpGateway(options, client);
    await gateway.refreshTools();
    return gateway;
  }

  get task(): string {
    return this.options.task;
  }

  /** The approved space now (read again every few seconds: an approval reaches a running gateway). */
  space(): SpaceVersion | undefined {
    return this.view.space(this.options.task);
  }

  /** The upstream's tools (every page). */
  private async refreshTools(): Promise<Tool[]> {
    const all: Tool[] = [];
    let cursor: string | undefined;
    do {
      const page = await this.client.listTools(cursor !== undefined ? { cursor } : {});
      all.push(...page.tools);
      cursor = page.nextCursor;
    } while (cursor !== undefined);
    this.tools = all;
    return all;
  }

  private allowed(name: string, space = this.space()): boolean {
    return space === undefined || space.tools.includes(name);
  }

  /** One SDK server wired to the upstream; one per transport (stdio: one, HTTP: one per request). */
  server(): Server {
    const server = new Server({ name: 'lots-gateway', version: STUDIO_VERSION }, { capabilities: { tools: {} } });
    server.setRequestHandler(ListToolsRequestSchema, async () => {
      const space = this.space();
      const tools = await this.refreshTools();
      const shown = tools.filter((t) => this.allowed(t.name, space));
      const hidden = tools.filter((t) => !this.allowed(t.name, space));
      const saved = estimateTokens(hidden.reduce((n, t) => n + JSON.stringify(t).length, 0));
      this.stats.served({
        task: this.task,
        source: 'flag',
        hasSpace: space !== undefined,
        hidden: hidden.length,
        tokensSaved: saved,
        ...(space ? { spaceVersion: space.version } : {}),
      });
      this.log(
        `tools/list task=${this.task} ${tools.length}→${shown.length} tools${space ? ` (space v${space.version})` : ' (no approved space: all shown)'}${hidden.length ? `, ~${saved} tokens saved` : ''}`,
      );
      return { tools: shown };
    });
    server.setRequestHandler(CallToolRequestSchema, async (request) => {
      const { name } = request.params;
      const space = this.space();
      if (!this.allowed(name, space)) {
        this.stats.refused++;
        this.log(`tools/call ${name} task=${this.task}: refused (not in space v${space!.version})`);
        throw new McpError(
          ErrorCode.InvalidParams,
          `tool "${name}" is not in the approved space of task "${this.task}" (v${space!.version}: ${space!.tools.join(', ') || 'no tools'}); the LOTS gateway hides it`,
        );
      }
      const started = Date.now();
      const result = await this.client.callTool(request.params);
      this.stats.served({
        task: this.task,
        source: 'flag',
        hasSpace: space !== undefined,
        hidden: 0,
        tokensSaved: 0,
        ...(space ? { spaceVersion: space.version } : {}),
      });
      this.log(`tools/call ${name} task=${this.task} → ${result.isError ? 'error result' : 'ok'} in ${Date.now() - started} ms`);
      this.record(name, request.params.arguments, result, space);
      return result;
    });
    return server;
  }

  private record(name: string, args: unknown, result: Record<string, unknown>, space: SpaceVersion | undefined): void {
    const id = `gw-mcp-${this.session}-${String(++this.seq).padStart(4, '0')}`;
    const menu = this.tools.filter((t) => this.allowed(t.name, space));
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
          upstream: this.options.upstream.command,
          hidden: this.tools.filter((t) => !this.allowed(t.name, space)).map((t) => t.name),
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
      { id: this.session, kind: 'mcp', transport, url, upstream: shownCommand(this.options.upstream), task: this.task },
      { stats: this.stats, recorder: this.recorder },
      { log: this.log, ...(this.options.statusHeartbeatMs !== undefined ? { heartbeatMs: this.options.statusHeartbeatMs } : {}) },
    );
    const status = this.status;
    this.recorder.onCommit = () => status.beat();
    status.start();
  }

  /** Serve one client over this process's stdin/stdout; resolves when that client goes away. */
  async serveStdio(): Promise<void> {
    this.announce('stdio', 'stdio');
    const transport = new StdioServerTransport();
    const ended = new Promise<void>((done) => {
      transport.onclose = () => done();
      process.stdin.once('end', () => done());
    });
    await this.server().connect(transport);
    await ended;
  }

  /** Serve streamable HTTP at `/mcp` (stateless); returns the URL. */
  async serveHttp(options: HttpServeOptions = {}): Promise<string> {
    const guard = { maxBodyBytes: options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES, ...(options.token !== undefined ? { token: options.token } : {}) };
    const http = createServer((req, res) => {
      void (async () => {
        try {
          checkCaller(req, guard);
          const path = (req.url ?? '/').split('?')[0];
          if (path !== '/mcp') throw new GatewayError(404, `no such endpoint ${path}: the MCP endpoint is /mcp`, 'not_found');
          if (req.method !== 'POST')
            throw new GatewayError(405, 'this gateway is stateless: only POST /mcp (no sessions, no GET stream)', 'method_not_allowed');
          const body = parseJsonBody(await readBody(req, guard.maxBodyBytes));
          const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
          const server = this.server();
          res.on('close', () => {
            void transport.close();
            void server.close();
          });
          await server.connect(transport);
          await transport.handleRequest(req, res, body);
        } catch (e) {
          if (e instanceof GatewayError) sendError(res, e);
          else {
            this.log(`mcp http: gateway bug: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}`);
            sendJson(res, 500, { error: { message: String(e), type: 'server_error', code: 500 } });
          }
        }
      })();
    });
    await new Promise<void>((done, fail) => {
      http.once('error', fail);
      http.listen(options.port ?? 0, options.host ?? '127.0.0.1', () => done());
    });
    this.http = http;
    const a = http.address() as AddressInfo;
    const url = `http://${a.family === 'IPv6' ? `[${a.address}]` : a.address}:${a.port}/mcp`;
    this.announce('http', url);
    return url;
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
      await this.client.close().catch(() => undefined);
      try {
        return await this.recorder.close();
      } finally {
        this.status?.stopped();
      }
    })());
  }
}

/**
 * The upstream MCP server as the status record shows it: its command's name and its first argument's
 * (`npx server-filesystem`, `node index.js`); the rest of the command line may carry secrets and is left out.
 */
function shownCommand(upstream: McpUpstream): string {
  const first = upstream.args.find((a) => !a.startsWith('-'));
  return [basename(upstream.command), ...(first !== undefined ? [basename(first)] : [])].join(' ');
}
