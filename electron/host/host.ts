// The local web host: the same renderer and the same API contract over HTTP (calls) and a WebSocket
// (events), bound to 127.0.0.1 by default and guarded by a random token and Host/Origin checks.
// Users run the engine on a GPU box and open the UI in a browser; the e2e tests drive it too.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Duplex } from 'node:stream';
import { WebSocketServer, type WebSocket } from 'ws';
import { EVENTS_PATH } from '../../shared/api/channels';
import { contentSecurityPolicy } from '../../shared/api/csp';
import type { ApiEventName, ApiEvents } from '../../shared/api/contract';
import { dispatch, type DispatchTarget } from '../engine/api/dispatch';
import { checkSite, checkToken, newToken, roleOf, tokenCookieName, type HostPolicy, type Verdict } from './auth';
import { isReadMethod } from '../../shared/api/access';
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
  /** The view-only token (default: a new random one): the audience's link reads the open project and its
   * Demo view; every other API method (shared/api/access.ts) is refused with 403. */
  viewToken?: string;
  /** Extra host names the host answers to (e.g. the GPU box's name when bound to 0.0.0.0). */
  allowHosts?: string[];
  /** Largest body of an `importTraces` call (trace files picked in a browser arrive as text): default 256 MiB. */
  maxImportBytes?: number;
  /** Largest body of any other call: default 4 MiB. */
  maxBodyBytes?: number;
}

/**
 * Request body caps. Each is far below V8's longest string (2^29 − 24 characters, about 512 Mi): a body is
 * decoded into one string before it is parsed, and a body at the old 512 MiB cap made that decoding
 * throw outside any handler, which ended the host. Files larger than the import cap are imported by path
 * (`lots import`, or the desktop app, which streams them from disk).
 */
export const DEFAULT_MAX_IMPORT_BYTES = 256 * 1024 * 1024;
export const DEFAULT_MAX_BODY_BYTES = 4 * 1024 * 1024;
/** The API method whose body may be as large as `maxImportBytes`. */
const IMPORT_METHOD = 'importTraces';

export interface WebHost {
  url: string;
  /** The URL with the token, to open in a browser. */
  openUrl: string;
  /** The URL with the view-only token, for an audience. */
  viewUrl: string;
  port: number;
  token: string;
  close(): Promise<void>;
}

const API_PREFIX = '/api/call/';

export async function startWebHost(options: WebHostOptions): Promise<WebHost> {
  const bind = options.bind ?? '127.0.0.1';
  const token = options.token ?? newToken();
  const maxImport = options.maxImportBytes ?? DEFAULT_MAX_IMPORT_BYTES;
  const maxBody = options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;
  const viewToken = options.viewToken ?? newToken();
  const policy: HostPolicy = { port: 0, token, viewToken, hostnames: [] };

  // Every listener is guarded: a bug in handling one request answers 500 (or drops that connection) and is
  // logged; the host, and every other tab it serves, lives on.
  const server = createServer((req, res) => {
    const failed = (e: unknown): void => {
      if (e instanceof ClientGone) return void res.destroy();
      console.error('lots host: request failed (a bug; the host keeps serving):', e);
      try {
        if (!res.headersSent) send(res, 500, 'text/plain; charset=utf-8', 'internal error (logged by lots ui)\n');
        else res.destroy();
      } catch {
        res.destroy();
      }
    };
    try {
      handle(req, res).catch(failed);
    } catch (e) {
      failed(e);
    }
  });
  server.on('clientError', (e: NodeJS.ErrnoException, socket) => {
    // Malformed HTTP (Node's parser): answer 400 when the socket can still take it, else drop it.
    if (socket.writable && e.code !== 'ECONNRESET') socket.end('HTTP/1.1 400 Bad Request\r\nConnection: close\r\nContent-Length: 0\r\n\r\n');
    else socket.destroy();
  });

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const site = checkSite(req, policy);
    if (!site.ok) return refuse(res, site);
    const url = new URL(req.url ?? '/', 'http://host.invalid');

    // The printed URL carries the token once; it becomes an HttpOnly cookie and leaves the address bar.
    const fromQuery = url.searchParams.get('token');
    if (req.method === 'GET' && fromQuery !== null) {
      if (!roleOf(fromQuery, policy)) return refuse(res, { ok: false, status: 401, message: 'refused: wrong access token' });
      res.setHeader('Set-Cookie', `${tokenCookieName(policy.port)}=${encodeURIComponent(fromQuery)}; HttpOnly; SameSite=Strict; Path=/`);
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
      const method = url.pathname.slice(API_PREFIX.length);
      const viewOnly = auth.role === 'view';
      if (viewOnly && !isReadMethod(method)) {
        return refuse(res, {
          ok: false,
          status: 403,
          message: `refused: ${method} is not open to the view-only link (it reads the open project and nothing else); use the full link that \`lots ui\` printed`,
        });
      }
      const cap = method === IMPORT_METHOD ? maxImport : maxBody;
      const body = await readBody(req, cap);
      if (body === null) return tooLarge(req, res, method, cap);
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
      const envelope = await dispatch(options.service, method, input);
      // The page learns it is view-only from getAppInfo (it hides what it may not do).
      if (viewOnly && method === 'getAppInfo' && envelope.ok) envelope.value = { ...(envelope.value as object), viewOnly: true };
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
    try {
      upgrade(req, socket, head);
    } catch (e) {
      console.error('lots host: event connection failed (a bug; the host keeps serving):', e);
      socket.destroy();
    }
  });
  function upgrade(req: IncomingMessage, socket: Duplex, head: Buffer): void {
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
  }
  const offEvents = options.events.onAny((event, payload) => {
    try {
      const text = JSON.stringify({ event, payload });
      for (const ws of clients) if (ws.readyState === ws.OPEN) ws.send(text);
    } catch (e) {
      console.error(`lots host: could not send the ${event} event (a bug; the host keeps serving):`, e);
    }
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
    viewUrl: `${url}?token=${encodeURIComponent(viewToken)}`,
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

/** The client went away before its request body was complete: nothing to answer, nothing to log. */
class ClientGone extends Error {
  override name = 'ClientGone';
}

/**
 * The body as text, or null as soon as it is known to be over `max` bytes: by its Content-Length before
 * any of it is read, or as it arrives (what came so far is dropped, the rest is not read). Nothing in
 * here can throw outside the promise.
 */
function readBody(req: IncomingMessage, max: number): Promise<string | null> {
  return new Promise((resolvePromise, reject) => {
    const declared = Number(req.headers['content-length'] ?? 0);
    if (declared > max) return resolvePromise(null);
    const chunks: Buffer[] = [];
    let size = 0;
    let done = false;
    const finish = (value: string | null | Error): void => {
      if (done) return;
      done = true;
      req.off('data', onData);
      if (value instanceof Error) reject(value);
      else resolvePromise(value);
    };
    const onData = (c: Buffer): void => {
      size += c.length;
      if (size > max) {
        chunks.length = 0;
        req.pause();
        finish(null);
      } else chunks.push(c);
    };
    req.on('data', onData);
    req.on('end', () => {
      try {
        finish(Buffer.concat(chunks).toString('utf8'));
      } catch (e) {
        finish(e instanceof Error ? e : new Error(String(e)));
      }
    });
    req.on('error', () => finish(new ClientGone()));
    req.on('close', () => finish(new ClientGone()));
  });
}

/** What a refused body may still send, read and dropped, so that the client can read the 413 (a client
 * still writing to a closed connection sees a reset instead of the answer); then the connection is cut. */
const DRAIN_BYTES = 16 * 1024 * 1024;
const DRAIN_MS = 3000;

/** 413 with the API's error envelope (the page shows its message); the rest of the body is not kept. */
function tooLarge(req: IncomingMessage, res: ServerResponse, method: string, cap: number): void {
  const mib = Math.round(cap / (1024 * 1024));
  const message =
    method === IMPORT_METHOD
      ? `the upload is larger than ${mib} MiB, the most a browser may send to lots ui at once: import fewer files at a time, or import the file by its path (\`lots import --project <dir> <file>\` on the machine that runs lots ui)`
      : `the request body of ${method} is larger than ${mib} MiB, the most lots ui accepts for it`;
  send(res, 413, 'application/json', JSON.stringify({ ok: false, error: { name: 'InvalidInput', code: 'INVALID_INPUT', message } }));
  let drained = 0;
  const cut = (): void => {
    clearTimeout(timer);
    req.socket.destroy();
  };
  const timer = setTimeout(cut, DRAIN_MS);
  req.on('data', (c: Buffer) => {
    drained += c.length;
    if (drained > DRAIN_BYTES) cut();
  });
  req.on('end', () => clearTimeout(timer));
  req.on('close', () => clearTimeout(timer));
  req.resume();
}
