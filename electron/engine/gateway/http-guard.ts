// What both gateways check before a request does anything: who may call (a bearer token, required off
// loopback; without one, only a loopback Host and no browser Origin, so a web page cannot reach the
// upstream with this machine's key), how large a body may be (a cap, 413 beyond it), and that a body is
// JSON (400 saying where it is not). Errors are sent in the OpenAI error shape, which agents already read.
import { timingSafeEqual } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { isIP } from 'node:net';
import { jsonErrorOffset, lineColumn } from '../../../shared/gateway/json-where';

export const DEFAULT_MAX_BODY_BYTES = 4 * 1024 * 1024;

export function isLoopbackHost(host: string): boolean {
  const h = host.replace(/^\[|\]$/g, '');
  if (h === 'localhost' || h === '::1') return true;
  return isIP(h) === 4 && h.startsWith('127.');
}

export interface Guard {
  /** The bearer token every request must carry; undefined on loopback without --token-env. */
  token?: string;
  maxBodyBytes: number;
}

/** An answer the gateway gives itself (not the upstream's): status and an OpenAI-style error. */
export class GatewayError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly type = 'invalid_request_error',
    readonly extra: Record<string, unknown> = {},
  ) {
    super(message);
  }
}

export function sendJson(res: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  if (res.headersSent) {
    res.end();
    return;
  }
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) });
  res.end(text);
}

export function sendError(res: ServerResponse, e: GatewayError): void {
  sendJson(res, e.status, { error: { message: e.message, type: e.type, code: e.status, ...e.extra } });
}

/** Throws a 401/403 GatewayError when the request may not use the gateway. */
export function checkCaller(req: IncomingMessage, guard: Guard): void {
  if (guard.token !== undefined) {
    const given = /^Bearer\s+(.+)$/i.exec(req.headers.authorization ?? '')?.[1]?.trim() ?? '';
    const a = Buffer.from(given);
    const b = Buffer.from(guard.token);
    if (a.length !== b.length || !timingSafeEqual(a, b))
      throw new GatewayError(
        401,
        'this gateway needs its token: send "Authorization: Bearer <token>" (the value of its --token-env variable)',
        'authentication_error',
      );
    return;
  }
  const host = (req.headers.host ?? '').replace(/:\d+$/, '');
  if (!isLoopbackHost(host)) throw new GatewayError(403, `Host "${req.headers.host ?? ''}" is not this machine's loopback address`, 'permission_error');
  if (req.headers.origin !== undefined)
    throw new GatewayError(
      403,
      'requests from a web page (with an Origin header) are refused without a token: start the gateway with --token-env',
      'permission_error',
    );
}

/** The request body, at most `max` bytes (413 beyond, told before reading when Content-Length says so). */
export async function readBody(req: IncomingMessage, max: number): Promise<Buffer> {
  const tooLarge = () => new GatewayError(413, `the request body is over the gateway's cap of ${max} bytes (--max-body-mib)`, 'request_too_large');
  const declared = Number(req.headers['content-length']);
  if (Number.isFinite(declared) && declared > max) {
    req.resume();
    throw tooLarge();
  }
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > max) {
      req.resume();
      throw tooLarge();
    }
    chunks.push(chunk);
  }
  return Buffer.concat(chunks);
}

/** The body as JSON, or a 400 that says where it stops being JSON (line and column). */
export function parseJsonBody(body: Buffer): unknown {
  const text = body.toString('utf8');
  if (text.trim() === '') throw new GatewayError(400, 'the request body is empty: send a JSON Chat Completions request');
  try {
    return JSON.parse(text) as unknown;
  } catch (e) {
    const reason = e instanceof Error ? e.message : String(e);
    const at = jsonErrorOffset(text);
    const where = at !== undefined ? ` at line ${lineColumn(text, at).line}, column ${lineColumn(text, at).column}` : '';
    throw new GatewayError(400, `malformed JSON in the request body${where}: ${reason}`);
  }
}
