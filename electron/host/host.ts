// The local web host: the same renderer and the same API contract over HTTP (calls) and a WebSocket
// (events), bound to 127.0.0.1 by default and guarded by a random token and Host/Origin checks.
// Users run the engine on a GPU box and open the UI in a browser; the e2e tests drive it too.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { WebSocketServer, type WebSocket } from 'ws';
import { EVENTS_PATH } from '../../shared/api/channels';
import { contentSecurityPolicy } from '../../shared/api/csp';
import type { ApiEventName, ApiEvents } from '../../shared/api/contract';
import { dispatch, type DispatchTarget } from '../engine/api/dispatch';
import { checkSite, checkToken, newToken, tokenCookieName, type HostPolicy, type Verdict } from './auth';
import { resolveStatic } from './static-files';
import { errorCode } from '../../shared/api/errors';

export interface EventSource {
  onAny(sink: <E extends ApiEventName>(event: E, payload: ApiEvents[E]) => void): () => void;
}

export interface WebHostOptions {
  /** Its `paths` (`lots ui --root`) confine every file path the API is given. */
  service: DispatchTarget;
  events: EventSource;
  /** The built renderer (vite's outDir). */
  staticDir: string;
  /** Default 127.0.0.1. Binding anything else exposes the engine on the network: the token still guards it. */
  bind?: string;
  /** 0 picks a free port. */
  port?: number;
  token?: string;
  /** Extra host names the host answers to (e.g. the GPU box's name when bound to 0.0.0.0). */
  allowHosts?: string[];
  /** Largest request body (trace files arrive as text): default 512 MB. */
  maxBodyBytes?: number;
}

export interface WebHost {
  url: string;
  /** The URL with the token, to open in a browser. */
  openUrl: string;
  port: number;
  token: string;
  close(): Promise<void>;
}

const API_PREFIX = '/api/call/';

export async function startWebHost(options: WebHostOptions): Promise<WebHost> {
  const bind = options.bind ?? '127.0.0.1';
  const token = options.token ?? newToken();
  const maxBody = options.maxBodyBytes ?? 512 * 1024 * 1024;
  const policy: HostPolicy = { port: 0, token, hostnames: [] };

  const server = createServer((req, res) => {
    handle(req, res).catch((e) => {
      console.error('lots host: request failed:', e);
      if (!res.headersSent) send(res, 500, 'text/plain', 'internal error');
      else res.end();
    });
  });

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const site = checkSite(req, policy);
    if (!site.ok) return refuse(res, site);
    const url = new URL(req.url ?? '/', 'http://host.invalid');

    // The printed URL carries the token once; it becomes an HttpOnly cookie and leaves the address bar.
    const fromQuery = url.searchParams.get('token');
    if (req.method === 'GET' && fromQuery !== null) {
      if (fromQuery !== token) return refuse(res, { ok: false, status: 401, message: 'refused: wrong access token' });
      res.setHeader('Set-Cookie', `${tokenCookieName(policy.port)}=${encodeURIComponent(token)}; HttpOnly; SameSite=Strict; Path=/`);
      url.searchParams.delete('token');
      res.writeHead(303, { Location: url.pathname + (url.search || '') + (url.hash || ''), 'Cache-Control': 'no-store' });
      res.end();
      return;
    }
    const auth = checkToken(req, policy);
    if (!auth.ok) return refuse(res, auth);

    if (url.pathname.startsWith(API_PREFIX)) {
      if (req.method !== 'POST') return refuse(res, { ok: false, status: 405, message: 'API calls are POST requests' });
      // A JSON content type cannot be sent by a plain cross-site form: one more CSRF guard.
      if (!(req.headers['content-type'] ?? '').startsWith('application/json')) {
        return refuse(res, { ok: false, status: 415, message: 'API calls need Content-Type: application/json' });
      }
      const body = await readBody(req, maxBody);
      if (body === null) return refuse(res, { ok: false, status: 413, message: `request body over ${maxBody} bytes` });
      let input: unknown;
      try {
        input = body.length ? JSON.parse(body) : undefined;
      } catch {
        return send(
          res,
          400,
          'application/json',
          JSON.stringify({ ok: false, error: { name: 'InvalidInput', code: 'INVALID_INPUT', message: 'the request body is not valid JSON' } }),
        );
      }
      const envelope = await dispatch(options.service, url.pathname.slice(API_PREFIX.length), input);
      return send(res, 200, 'application/json', JSON.stringify(envelope));
    }

    if (req.method !== 'GET' && req.method !== 'HEAD') return refuse(res, { ok: false, status: 405, message: 'method not allowed' });
    const file = resolveStatic(options.staticDir, url.pathname) ?? resolveStatic(options.staticDir, '/index.html');
    if (!file) return send(res, 404, 'text/plain', `the UI is not built: run \`npm run build:renderer\` (looked in ${options.staticDir})`);
    res.setHeader('Content-Security-Policy', contentSecurityPolicy([`ws://${req.headers.host}`]));
    res.setHeader('Cache-Control', file.type.startsWith('text/html') ? 'no-store' : 'no-cache');
    send(res, 200, file.type, file.body, req.method === 'HEAD');
  }

  const wss = new WebSocketServer({ noServer: true, maxPayload: 64 * 1024 });
  const clients = new Set<WebSocket>();
  server.on('upgrade', (req, socket, head) => {
    // Node hands the raw socket over without its own 'error' handler: a client that resets the connection
    // before (or while) the handshake completes must not become an uncaught exception.
    socket.on('error', () => socket.destroy());
    const site = checkSite(req, policy);
    const auth = site.ok ? checkToken(req, policy) : site;
    const path = new URL(req.url ?? '/', 'http://host.invalid').pathname;
    if (!auth.ok || path !== EVENTS_PATH) {
      const status = auth.ok ? 404 : auth.status;
      socket.end(`HTTP/1.1 ${status} Refused\r\nConnection: close\r\nContent-Length: 0\r\n\r\n`);
      return;
    }
    wss.handleUpgrade(req, socket, head, (ws) => {
      clients.add(ws);
      ws.on('close', () => clients.delete(ws));
      // Any frame a client can send (over maxPayload, invalid UTF-8, unmasked, bad opcode or close code…)
      // ends up here: `ws` has already failed the connection with the right close code; without this
      // handler the 'error' event would throw and take the whole host down with it.
      ws.on('error', (e: Error) => {
        clients.delete(ws);
        console.warn(`lots host: dropped an event client: ${errorCode(e) ?? e.name}: ${e.message}`);
        ws.terminate();
      });
      // Events flow to the page only; anything it sends is ignored.
      ws.on('message', () => undefined);
    });
  });
  const offEvents = options.events.onAny((event, payload) => {
    const text = JSON.stringify({ event, payload });
    for (const ws of clients) if (ws.readyState === ws.OPEN) ws.send(text);
  });

  await new Promise<void>((resolvePromise, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, bind, () => resolvePromise());
  });
  const port = (server.address() as AddressInfo).port;
  policy.port = port;
  policy.hostnames = [...new Set(['127.0.0.1', 'localhost', '::1', ...(bind === '0.0.0.0' || bind === '::' ? [] : [bind]), ...(options.allowHosts ?? [])])];
  const shown = bind === '0.0.0.0' || bind === '::' ? '127.0.0.1' : bind.includes(':') ? `[${bind}]` : bind;
  const url = `http://${shown}:${port}/`;

  return {
    url,
    openUrl: `${url}?token=${encodeURIComponent(token)}`,
    port,
    token,
    close: () =>
      new Promise<void>((done) => {
        offEvents();
        for (const ws of clients) ws.terminate();
        wss.close();
        server.closeAllConnections();
        server.close(() => done());
      }),
  };
}

function refuse(res: ServerResponse, verdict: Verdict & { ok: false }): void {
  send(res, verdict.status, 'text/plain; charset=utf-8', verdict.message + '\n');
}

function send(res: ServerResponse, status: number, type: string, body: string | Buffer, headOnly = false): void {
  res.writeHead(status, {
    'Content-Type': type,
    'X-Content-Type-Options': 'nosniff',
    'Referrer-Policy': 'no-referrer',
    'X-Frame-Options': 'DENY',
    'Cross-Origin-Opener-Policy': 'same-origin',
    'Cross-Origin-Resource-Policy': 'same-origin',
  });
  res.end(headOnly ? undefined : body);
}

function readBody(req: IncomingMessage, max: number): Promise<string | null> {
  return new Promise((resolvePromise, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let over = false;
    req.on('data', (c: Buffer) => {
      size += c.length;
      if (size > max) over = true;
      else chunks.push(c);
    });
    req.on('end', () => resolvePromise(over ? null : Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}
