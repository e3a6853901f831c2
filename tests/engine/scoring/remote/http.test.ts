// The remote backend's retry policy, on a loopback HTTP server that answers what each case needs:
// 429 and 5xx are retried with backoff (Retry-After honoured), other 4xx are not, a dead endpoint
// ends in SERVER_UNAVAILABLE (what moves its traces to other endpoints).
import { createServer, type Server } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { requestJson } from '../../../../electron/engine/scoring/remote/http';

import { freePort } from './llama-server-process';
import { ExpectedError } from '../../../../shared/api/errors';

let server: Server | undefined;
afterEach(() => new Promise<void>((done) => (server ? server.close(() => done()) : done())));

async function serve(answers: Array<{ status: number; body?: unknown; headers?: Record<string, string> }>): Promise<{ url: string; hits: () => number }> {
  let hits = 0;
  server = createServer((_req, res) => {
    const a = answers[Math.min(hits++, answers.length - 1)]!;
    res.writeHead(a.status, { 'content-type': 'application/json', ...a.headers });
    res.end(JSON.stringify(a.body ?? { error: 'busy' }));
  });
  await new Promise<void>((done) => server!.listen(0, '127.0.0.1', () => done()));
  return { url: `http://127.0.0.1:${(server.address() as { port: number }).port}`, hits: () => hits };
}

const fast = { attempts: 4, baseDelayMs: 10, maxDelayMs: 50, timeoutMs: 5000 };

describe('requestJson', () => {
  it('retries 429 and 503 with backoff, then returns the answer', async () => {
    const s = await serve([{ status: 429, headers: { 'retry-after': '0' } }, { status: 503 }, { status: 200, body: { ok: 1 } }]);
    const retries: string[] = [];
    const r = await requestJson<{ ok: number }>({ baseUrl: s.url, retry: fast, onRetry: (i) => retries.push(i.reason.slice(0, 3)) }, 'POST', '/x', {});
    expect(r).toEqual({ ok: 1 });
    expect(s.hits()).toBe(3);
    expect(retries).toEqual(['429', '503']);
  });

  it('does not retry a 400, and says what the server answered', async () => {
    const s = await serve([{ status: 400, body: { error: 'Prompt contains invalid tokens' } }]);
    const e = await requestJson({ baseUrl: s.url, retry: fast }, 'POST', '/x', {}).catch((x: unknown) => x);
    expect(e).toBeInstanceOf(ExpectedError);
    expect((e as ExpectedError).code).toBe('SERVER_REJECTED');
    expect((e as Error).message).toContain('invalid tokens');
    expect(s.hits()).toBe(1);
  });

  it('gives up on an endpoint that keeps failing or does not listen: SERVER_UNAVAILABLE', async () => {
    const s = await serve([{ status: 500 }]);
    const e = await requestJson({ baseUrl: s.url, retry: fast }, 'GET', '/x').catch((x: unknown) => x);
    expect((e as ExpectedError).code).toBe('SERVER_UNAVAILABLE');
    expect(s.hits()).toBe(fast.attempts);
    const dead = await requestJson({ baseUrl: `http://127.0.0.1:${await freePort()}`, retry: fast }, 'GET', '/x').catch((x: unknown) => x);
    expect((dead as ExpectedError).code).toBe('SERVER_UNAVAILABLE');
  });
});
