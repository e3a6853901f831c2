// Who may talk to the local web host: requests carrying the session token (cookie or bearer header),
// addressed to a Host we serve (DNS-rebinding defence) and, when a browser says where it comes from,
// from our own origin (cross-site requests are refused).
import { randomBytes, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage } from 'node:http';

export function newToken(): string {
  return randomBytes(24).toString('base64url');
}

export function tokenCookieName(port: number): string {
  // Cookies are shared by every port of a host; the port in the name keeps two hosts apart.
  return `lots_token_${port}`;
}

export function sameToken(a: string | undefined, b: string): boolean {
  if (a === undefined) return false;
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

export function readCookie(req: IncomingMessage, name: string): string | undefined {
  const header = req.headers.cookie;
  if (!header) return undefined;
  for (const part of header.split(';')) {
    const eq = part.indexOf('=');
    if (eq === -1) continue;
    if (part.slice(0, eq).trim() === name) return decodeURIComponent(part.slice(eq + 1).trim());
  }
  return undefined;
}

export function bearerToken(req: IncomingMessage): string | undefined {
  const auth = req.headers.authorization;
  return auth?.startsWith('Bearer ') ? auth.slice(7).trim() : undefined;
}

export interface HostPolicy {
  port: number;
  token: string;
  /** The view-only token: reads the open project (shared/api/access.ts), nothing else. */
  viewToken?: string;
  /** Host names (without port) this host answers to. */
  hostnames: readonly string[];
}

export function allowedHosts(policy: HostPolicy): Set<string> {
  return new Set(policy.hostnames.map((h) => `${h.includes(':') && !h.startsWith('[') ? `[${h}]` : h}:${policy.port}`.toLowerCase()));
}

export type Verdict = { ok: true } | { ok: false; status: number; message: string };

/** Host and Origin checks; every request and WebSocket upgrade goes through this first. */
export function checkSite(req: IncomingMessage, policy: HostPolicy): Verdict {
  const hosts = allowedHosts(policy);
  const host = (req.headers.host ?? '').toLowerCase();
  if (!hosts.has(host)) {
    return { ok: false, status: 403, message: `refused: Host "${req.headers.host ?? ''}" is not this LOTS host (expected one of ${[...hosts].join(', ')})` };
  }
  const origin = req.headers.origin;
  if (origin !== undefined && origin !== 'null') {
    let originHost: string;
    try {
      const u = new URL(origin);
      originHost = u.protocol === 'http:' ? u.host.toLowerCase() : '';
    } catch {
      originHost = '';
    }
    if (!hosts.has(originHost)) return { ok: false, status: 403, message: `refused: requests from ${origin} are not allowed` };
  } else if (origin === 'null') {
    return { ok: false, status: 403, message: 'refused: requests from an opaque origin are not allowed' };
  }
  return { ok: true };
}

export type Role = 'full' | 'view';

/** Which token a value is: the full one, the view-only one, or neither. */
export function roleOf(given: string | undefined, policy: HostPolicy): Role | null {
  if (sameToken(given, policy.token)) return 'full';
  if (policy.viewToken !== undefined && sameToken(given, policy.viewToken)) return 'view';
  return null;
}

/** The token, from the session cookie or an Authorization: Bearer header, and what it may do. */
export function checkToken(req: IncomingMessage, policy: HostPolicy): Verdict & { role?: Role } {
  const given = readCookie(req, tokenCookieName(policy.port)) ?? bearerToken(req);
  const role = roleOf(given, policy);
  if (role) return { ok: true, role };
  return { ok: false, status: 401, message: 'refused: this LOTS host needs its access token; open the URL that `lots ui` printed (it carries ?token=…)' };
}
