// The local web host refuses requests without the token, with a foreign Host or Origin, and serves the
// API and the renderer to a client that has the token.
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { StudioService } from '../../electron/engine/api';
import { startWebHost, type WebHost } from '../../electron/host/host';

interface Reply {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

function send(host: WebHost, path: string, opts: { method?: string; headers?: Record<string, string>; body?: string } = {}): Promise<Reply> {
  return new Promise((resolve, reject) => {
    const req = request(
      { host: '127.0.0.1', port: host.port, path, method: opts.method ?? 'GET', headers: { Host: `127.0.0.1:${host.port}`, ...opts.headers } },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString('utf8') }));
      },
    );
    req.on('error', reject);
    if (opts.body) req.write(opts.body);
    req.end();
  });
}

let host: WebHost;
let cookie: string;

beforeAll(async () => {
  const staticDir = mkdtempSync(join(tmpdir(), 'lots-static-'));
  mkdirSync(join(staticDir, 'assets'));
  writeFileSync(join(staticDir, 'index.html'), '<!doctype html><title>LOTS</title>');
  writeFileSync(join(staticDir, 'assets', 'app.js'), 'console.log(1)');
  const service = new StudioService({ transport: 'web', configDir: mkdtempSync(join(tmpdir(), 'lots-config-')) });
  host = await startWebHost({ service, events: service.events, staticDir });
});

afterAll(async () => {
  await host?.close();
});

describe('local web host', () => {
  it('binds 127.0.0.1 and prints a URL with the token', () => {
    expect(host.url).toBe(`http://127.0.0.1:${host.port}/`);
    expect(host.openUrl).toContain(`token=${encodeURIComponent(host.token)}`);
    expect(host.token.length).toBeGreaterThanOrEqual(32);
  });

  it('refuses the page and the API without the token', async () => {
    const page = await send(host, '/');
    expect(page.status).toBe(401);
    expect(page.body).not.toContain('<title>LOTS');
    const api = await send(host, '/api/call/getAppInfo', { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: 'null' });
    expect(api.status).toBe(401);
  });

  it('refuses a wrong token', async () => {
    expect((await send(host, '/?token=not-the-token')).status).toBe(401);
    const api = await send(host, '/api/call/getAppInfo', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Authorization: 'Bearer nope' },
      body: 'null',
    });
    expect(api.status).toBe(401);
  });

  it('turns the URL token into an HttpOnly cookie and drops it from the address', async () => {
    const r = await send(host, `/?token=${encodeURIComponent(host.token)}`);
    expect(r.status).toBe(303);
    expect(r.headers.location).toBe('/');
    const set = String(r.headers['set-cookie']);
    expect(set).toContain('HttpOnly');
    expect(set).toContain('SameSite=Strict');
    cookie = set.split(';')[0]!;
    const page = await send(host, '/', { headers: { Cookie: cookie } });
    expect(page.status).toBe(200);
    expect(page.body).toContain('<title>LOTS');
    expect(page.headers['content-security-policy']).toContain("script-src 'self'");
    const asset = await send(host, '/assets/app.js', { headers: { Cookie: cookie } });
    expect(asset.status).toBe(200);
    expect(asset.headers['content-type']).toContain('text/javascript');
  });

  it('refuses a foreign Host header even with the token (DNS rebinding)', async () => {
    const r = await send(host, '/', { headers: { Cookie: cookie, Host: `evil.example:${host.port}` } });
    expect(r.status).toBe(403);
    const api = await send(host, '/api/call/getAppInfo', {
      method: 'POST',
      headers: { Host: 'evil.example', 'Content-Type': 'application/json', Authorization: `Bearer ${host.token}` },
      body: 'null',
    });
    expect(api.status).toBe(403);
  });

  it('refuses a foreign Origin even with the token (cross-site requests)', async () => {
    const api = await send(host, '/api/call/getAppInfo', {
      method: 'POST',
      headers: { Origin: 'http://evil.example', 'Content-Type': 'application/json', Cookie: cookie },
      body: 'null',
    });
    expect(api.status).toBe(403);
    const same = await send(host, '/api/call/getAppInfo', {
      method: 'POST',
      headers: { Origin: `http://127.0.0.1:${host.port}`, 'Content-Type': 'application/json', Cookie: cookie },
      body: 'null',
    });
    expect(same.status).toBe(200);
  });

  it('answers API calls with envelopes; bad input is INVALID_INPUT, not a crash', async () => {
    const ok = await send(host, '/api/call/getAppInfo', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${host.token}` },
      body: 'null',
    });
    expect(JSON.parse(ok.body)).toMatchObject({ ok: true, value: { transport: 'web', nativeDialogs: false } });
    const bad = await send(host, '/api/call/openProject', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${host.token}` },
      body: JSON.stringify({ dir: 42 }),
    });
    expect(JSON.parse(bad.body)).toMatchObject({ ok: false, error: { code: 'INVALID_INPUT' } });
    const unknown = await send(host, '/api/call/rmRf', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${host.token}` },
      body: 'null',
    });
    expect(JSON.parse(unknown.body)).toMatchObject({ ok: false, error: { code: 'UNKNOWN_METHOD' } });
    const noProject = await send(host, '/api/call/getHeatmap', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${host.token}` },
      body: JSON.stringify({ task: 't' }),
    });
    expect(JSON.parse(noProject.body)).toMatchObject({ ok: false, error: { code: 'NO_PROJECT' } });
  });

  it('needs a JSON content type for API calls (no form posts)', async () => {
    const r = await send(host, '/api/call/getAppInfo', { method: 'POST', headers: { 'Content-Type': 'text/plain', Cookie: cookie }, body: 'null' });
    expect(r.status).toBe(415);
  });

  it('does not serve files outside the renderer folder', async () => {
    const r = await send(host, '/..%2f..%2f..%2fetc%2fpasswd', { headers: { Cookie: cookie } });
    expect(r.body).not.toContain('root:');
  });

  it('refuses the event socket without the token or from a foreign origin, accepts it with the token', async () => {
    const attempt = (headers: Record<string, string>) =>
      new Promise<string>((resolve) => {
        const ws = new WebSocket(`ws://127.0.0.1:${host.port}/api/events`, { headers });
        ws.on('open', () => {
          ws.close();
          resolve('open');
        });
        ws.on('unexpected-response', (_req, res) => resolve(String(res.statusCode)));
        ws.on('error', () => resolve('error'));
      });
    expect(await attempt({})).toBe('401');
    expect(await attempt({ Cookie: cookie, Origin: 'http://evil.example' })).toBe('403');
    expect(await attempt({ Cookie: cookie, Origin: `http://127.0.0.1:${host.port}` })).toBe('open');
  });
});
