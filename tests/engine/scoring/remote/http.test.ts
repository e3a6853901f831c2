// The remote backend's retry policy, on a loopback HTTP server that answers what each case needs:
// 429 and 5xx are retried with backoff (Retry-After honoured), other 4xx are not, a dead endpoint
// ends in SERVER_UNAVAILABLE (what moves its traces to other endpoints). Bodies are read under a size
// cap and an idle deadline, and a request still waiting says so.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { requestJson } from '../../../../electron/engine/scoring/remote/http';

import { freePort } from './llama-server-process';
import { ExpectedError } from '../../../../shared/api/errors';

let server: Server | undefined;
afterEach(
  () =>
    new Promise<void>((done) => {
      server?.closeAllConnections();
      if (server) server.close(() => done());
      else done();
    }),
);

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

/** A server whose every answer is `handle`'s. */
async function serveRaw(handle: (req: IncomingMessage, res: ServerResponse) => void): Promise<{ url: string; hits: () => number }> {
  let hits = 0;
  server = createServer((req, res) => {
    hits++;
    handle(req, res);
  });
  await new Promise<void>((done) => server!.listen(0, '127.0.0.1', () => done()));
  return { url: `http://127.0.0.1:${(server.address() as { port: number }).port}`, hits: () => hits };
}

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

  it('refuses a body over the size cap at once, by its Content-Length or as it arrives, without retrying', async () => {
    const declared = await serveRaw((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': String(10 * 1024 ** 3) });
      res.write('{');
    });
    const e = await requestJson({ baseUrl: declared.url, retry: { ...fast, maxBodyBytes: 1000 } }, 'GET', '/x').catch((x: unknown) => x);
    expect((e as ExpectedError).code).toBe('SERVER_PROTOCOL');
    expect((e as Error).message).toBe(
      `GET ${declared.url}/x answered 200 with a body of 10.0 GiB (its Content-Length), more than the 1000 bytes a scoring server's answer can need: this is not a scoring server's answer (check the URL) or a broken one`,
    );
    expect(declared.hits()).toBe(1);
    server!.closeAllConnections();
    await new Promise<void>((done) => server!.close(() => done()));

    const chunked = await serveRaw((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(`[${'0,'.repeat(1000)}0]`);
    });
    const f = await requestJson({ baseUrl: chunked.url, retry: { ...fast, maxBodyBytes: 1000 } }, 'GET', '/x').catch((x: unknown) => x);
    expect((f as ExpectedError).code).toBe('SERVER_PROTOCOL');
    expect((f as Error).message).toMatch(/answered 200 with a body of more than .* \(read so far\)/);
    expect(chunked.hits()).toBe(1);
  });

  it('gives up a body that stops coming (the idle deadline) and retries, saying what it waits for meanwhile', async () => {
    const s = await serveRaw((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.write('{"ok":'); // and nothing more
    });
    const waits: string[] = [];
    const retries: string[] = [];
    const e = await requestJson(
      {
        baseUrl: s.url,
        retry: { ...fast, attempts: 2, idleMs: 300, noticeMs: 50 },
        onWait: (w) => waits.push(w.message),
        onRetry: (r) => retries.push(r.reason),
      },
      'POST',
      '/completion',
      {},
    ).catch((x: unknown) => x);
    expect((e as ExpectedError).code).toBe('SERVER_UNAVAILABLE');
    expect((e as Error).message).toContain(`POST ${s.url}/completion: no byte of the body came for 300 ms`);
    expect(s.hits()).toBe(2);
    expect(retries).toHaveLength(1);
    expect(retries[0]).toMatch(/^BodyStalled: /);
    expect(waits.some((m) => m.startsWith(`waiting for POST ${s.url}/completion to finish its answer: `))).toBe(true);
  });
});
