// Issue 37 item 1: no request of any size or shape ends `lots ui`. A body just under the old 512 MiB cap
// made decoding it throw outside any handler and killed the process; now an import upload is capped at
// 256 MiB and every other call at 4 MiB (both far below V8's longest string), refused with 413 and a
// message as soon as the size is known, and the host goes on serving. Bodies are streamed from one
// reused buffer: the test never holds them.
import { request } from 'node:http';
import { mkdtempSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startWebHost, DEFAULT_MAX_BODY_BYTES, DEFAULT_MAX_IMPORT_BYTES, type EventSource } from '../../electron/host/host';
import { ensureRendererBuilt } from '../e2e/studio';
import { call, startUiProcess, type UiProcess } from './ui-process';

let ui: UiProcess;
beforeAll(async () => {
  ensureRendererBuilt();
  ui = await startUiProcess();
}, 120_000);
afterAll(async () => {
  await ui?.stop();
});

/**
 * POSTs `bytes` of `{"files":[…` filler to an API method, streamed in 1 MiB pieces of one buffer (with a
 * Content-Length, or chunked), and resolves with the status and body of the answer, or the socket error
 * when the host closed the connection before answering.
 */
function stream(method: string, bytes: number, chunked: boolean): Promise<{ status: number; body: string; sent: number }> {
  const piece = Buffer.alloc(1024 * 1024, 0x20);
  const u = new URL(`${ui.url}api/call/${method}`);
  return new Promise((done, fail) => {
    let sent = 0;
    const req = request({
      host: u.hostname,
      port: u.port,
      path: u.pathname,
      method: 'POST',
      headers: {
        Authorization: `Bearer ${ui.token}`,
        'Content-Type': 'application/json',
        ...(chunked ? { 'Transfer-Encoding': 'chunked' } : { 'Content-Length': String(bytes) }),
      },
    });
    let answered = false;
    req.on('response', (res) => {
      answered = true;
      let body = '';
      res.on('data', (d: Buffer) => (body += d.toString()));
      res.on('end', () => done({ status: res.statusCode!, body, sent }));
      res.on('error', () => done({ status: res.statusCode!, body, sent }));
    });
    req.on('error', (e) => {
      if (!answered) fail(e);
    });
    const pump = (): void => {
      while (!answered && sent < bytes) {
        const n = Math.min(piece.length, bytes - sent);
        sent += n;
        if (!req.write(n === piece.length ? piece : piece.subarray(0, n))) return void req.once('drain', pump);
      }
      if (!answered) req.end();
    };
    pump();
  });
}

async function stillServing(): Promise<void> {
  expect(ui.child.exitCode).toBeNull();
  expect(await call(ui, ui.token, 'getAppInfo')).toMatchObject({ status: 200, body: { ok: true } });
}

describe('lots ui under oversized requests', () => {
  it('refuses a 536,870,900-byte import upload (just under the old cap) with 413 before reading it, and lives', async () => {
    const answer = await stream('importTraces', 536_870_900, false);
    expect(answer.status).toBe(413);
    expect(JSON.parse(answer.body)).toMatchObject({
      ok: false,
      error: { code: 'INVALID_INPUT', message: expect.stringMatching(/larger than 256 MiB.*lots import --project/) },
    });
    expect(answer.sent).toBeLessThan(DEFAULT_MAX_IMPORT_BYTES);
    await stillServing();
  }, 120_000);

  it('refuses a chunked upload once it passes the import cap, and lives', async () => {
    const answer = await stream('importTraces', DEFAULT_MAX_IMPORT_BYTES + 8 * 1024 * 1024, true);
    expect(answer.status).toBe(413);
    await stillServing();
  }, 120_000);

  it('caps every other call at 4 MiB (chunked or declared), and lives', async () => {
    for (const chunked of [false, true]) {
      const answer = await stream('getProject', DEFAULT_MAX_BODY_BYTES + 1, chunked);
      expect(answer.status).toBe(413);
      expect(JSON.parse(answer.body)).toMatchObject({ error: { message: expect.stringMatching(/getProject is larger than 4 MiB/) } });
    }
    await stillServing();
  }, 60_000);

  it('takes a client that goes away mid-body, and malformed HTTP, without a word of a bug', async () => {
    const u = new URL(ui.url);
    await new Promise<void>((done) => {
      const req = request({
        host: u.hostname,
        port: u.port,
        path: '/api/call/getProject',
        method: 'POST',
        headers: { Authorization: `Bearer ${ui.token}`, 'Content-Type': 'application/json', 'Content-Length': '1000' },
      });
      req.on('error', () => done());
      req.write('{"a":', () => setTimeout(() => req.destroy(), 100));
      req.on('close', () => done());
    });
    const { connect } = await import('node:net');
    await new Promise<void>((done) => {
      const s = connect(Number(u.port), u.hostname, () => s.write('GARBAGE \u0000 HTTP/9\r\n\r\n'));
      s.on('data', () => s.destroy());
      s.on('close', () => done());
      s.on('error', () => done());
    });
    await stillServing();
    expect(ui.output()).not.toMatch(/a bug/);
  }, 30_000);
});

describe('the host guards its own listeners', () => {
  it('an event that cannot be serialised is logged, and the host goes on', async () => {
    let sink: Parameters<EventSource['onAny']>[0] | undefined;
    const events: EventSource = { onAny: (s) => ((sink = s), () => undefined) };
    const staticDir = mkdtempSync(join(tmpdir(), 'lots-static-'));
    expect(readdirSync(staticDir)).toEqual([]);
    const host = await startWebHost({ service: { getAppInfo: async () => ({ ok: 1 }) } as never, events, staticDir });
    try {
      expect(() => sink!('jobUpdate', { id: 1n } as never)).not.toThrow();
      const reply = await fetch(`${host.url}api/call/getAppInfo`, {
        method: 'POST',
        headers: { Authorization: `Bearer ${host.token}`, 'Content-Type': 'application/json' },
        body: 'null',
      });
      expect(reply.status).toBe(200);
    } finally {
      await host.close();
    }
  });
});
