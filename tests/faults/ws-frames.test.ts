// Issue 13 #1: one bad WebSocket frame from a client holding the token must not kill the web host. The
// client that sent it is disconnected; the host keeps serving HTTP, and events still reach other clients.
// Frames are written by hand over a raw TCP socket, so they can break the protocol in ways `ws` never would.
import { randomBytes } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { connect, type Socket } from 'node:net';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import type { ApiEventName, ApiEvents } from '../../shared/api/contract';
import { startWebHost, type EventSource, type WebHost } from '../../electron/host/host';
import { recordFaults } from './fault-tally';

type Sink = <E extends ApiEventName>(event: E, payload: ApiEvents[E]) => void;
const sinks = new Set<Sink>();
const events: EventSource = {
  onAny(sink) {
    sinks.add(sink);
    return () => sinks.delete(sink);
  },
};
function emitProjectChanged(): void {
  for (const s of sinks) s('projectChanged', { reason: 'open' });
}

let host: WebHost;
const crashes: unknown[] = [];
const onCrash = (e: unknown) => crashes.push(e);

beforeAll(async () => {
  // Without an 'error' handler on the socket, `ws` throws from inside the socket's data handler: that
  // surfaces here as an uncaught exception, which is exactly what killed `lots ui`.
  process.on('uncaughtException', onCrash);
  const staticDir = mkdtempSync(join(tmpdir(), 'lots-static-'));
  writeFileSync(join(staticDir, 'index.html'), '<!doctype html><title>LOTS</title>');
  host = await startWebHost({ service: {} as never, events, staticDir });
});

afterAll(async () => {
  process.off('uncaughtException', onCrash);
  await host?.close();
});

/** Opens the event socket by hand and resolves once the 101 has arrived. */
function rawUpgrade(): Promise<{ socket: Socket; closed: Promise<void> }> {
  return new Promise((resolve, reject) => {
    const socket = connect(host.port, '127.0.0.1');
    const closed = new Promise<void>((done) => socket.on('close', () => done()));
    socket.on('error', () => undefined);
    let head = '';
    const onData = (c: Buffer) => {
      head += c.toString('latin1');
      if (head.includes('\r\n\r\n')) {
        socket.off('data', onData);
        if (!head.startsWith('HTTP/1.1 101')) reject(new Error(`no upgrade: ${head.split('\r\n')[0]}`));
        else resolve({ socket, closed });
      }
    };
    socket.on('data', onData);
    socket.write(
      [
        'GET /api/events HTTP/1.1',
        `Host: 127.0.0.1:${host.port}`,
        'Upgrade: websocket',
        'Connection: Upgrade',
        `Sec-WebSocket-Key: ${randomBytes(16).toString('base64')}`,
        'Sec-WebSocket-Version: 13',
        `Authorization: Bearer ${host.token}`,
        '',
        '',
      ].join('\r\n'),
    );
  });
}

/** One frame: FIN + opcode, masked unless told otherwise. */
function frame(opcode: number, payload: Buffer, opts: { mask?: boolean; fin?: boolean; rsv?: number } = {}): Buffer {
  const mask = opts.mask ?? true;
  const first = ((opts.fin ?? true) ? 0x80 : 0) | ((opts.rsv ?? 0) << 4) | opcode;
  let header: Buffer;
  if (payload.length < 126) header = Buffer.from([first, (mask ? 0x80 : 0) | payload.length]);
  else if (payload.length < 65536) {
    header = Buffer.alloc(4);
    header[0] = first;
    header[1] = (mask ? 0x80 : 0) | 126;
    header.writeUInt16BE(payload.length, 2);
  } else {
    header = Buffer.alloc(10);
    header[0] = first;
    header[1] = (mask ? 0x80 : 0) | 127;
    header.writeBigUInt64BE(BigInt(payload.length), 2);
  }
  if (!mask) return Buffer.concat([header, payload]);
  const key = randomBytes(4);
  const body = Buffer.from(payload);
  for (let i = 0; i < body.length; i++) body[i] = body[i]! ^ key[i % 4]!;
  return Buffer.concat([header, key, body]);
}

function httpStatus(path: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = request(
      { host: '127.0.0.1', port: host.port, path, headers: { Host: `127.0.0.1:${host.port}`, Authorization: `Bearer ${host.token}` } },
      (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode ?? 0));
      },
    );
    req.on('error', reject);
    req.end();
  });
}

/** A well-behaved client still gets events after the bad one is gone. */
async function goodClientHearsEvents(): Promise<void> {
  const ws = new WebSocket(`ws://127.0.0.1:${host.port}/api/events`, { headers: { Authorization: `Bearer ${host.token}` } });
  await new Promise<void>((resolve, reject) => {
    ws.once('open', () => resolve());
    ws.once('error', reject);
  });
  const got = new Promise<string>((resolve) => ws.once('message', (m) => resolve((m as Buffer).toString())));
  emitProjectChanged();
  expect(JSON.parse(await got)).toEqual({ event: 'projectChanged', payload: { reason: 'open' } });
  ws.close();
}

const BAD_FRAMES: Array<[string, () => Buffer]> = [
  ['a message over 64 KiB', () => frame(0x1, Buffer.alloc(70 * 1024, 0x61))],
  [
    'a message over 64 KiB in fragments',
    () => Buffer.concat([frame(0x1, Buffer.alloc(40 * 1024, 0x61), { fin: false }), frame(0x0, Buffer.alloc(40 * 1024, 0x61))]),
  ],
  ['invalid UTF-8 in a text frame', () => frame(0x1, Buffer.from([0x7b, 0xff, 0xfe, 0xc3, 0x28, 0x7d]))],
  ['an unmasked frame', () => frame(0x1, Buffer.from('hello'), { mask: false })],
  ['a reserved opcode', () => frame(0x3, Buffer.from('x'))],
  ['RSV bits without an extension', () => frame(0x1, Buffer.from('x'), { rsv: 4 })],
  ['a close frame with an invalid code', () => frame(0x8, Buffer.from([0x03, 0xe7]))],
];

describe('web host against hostile WebSocket frames', () => {
  for (const [name, make] of BAD_FRAMES) {
    it(`survives ${name}: the client is dropped, the host keeps serving`, async () => {
      crashes.length = 0;
      const { socket, closed } = await rawUpgrade();
      socket.write(make());
      await Promise.race([closed, new Promise((_, reject) => setTimeout(() => reject(new Error('the bad client was not disconnected')), 5000))]);
      expect(crashes).toEqual([]);
      expect(await httpStatus('/')).toBe(200);
      await goodClientHearsEvents();
      expect(crashes).toEqual([]);
      recordFaults({ injected: 1, recovered: 1, lost: 0, falseSuccesses: 0 });
    });
  }

  it('survives a broken handshake (no key, a wrong version) and a reset before the upgrade', async () => {
    crashes.length = 0;
    for (const headers of [['Sec-WebSocket-Version: 13'], [`Sec-WebSocket-Key: ${randomBytes(16).toString('base64')}`, 'Sec-WebSocket-Version: 99']]) {
      const socket = connect(host.port, '127.0.0.1');
      socket.on('error', () => undefined);
      const closed = new Promise<void>((done) => socket.on('close', () => done()));
      let reply = '';
      socket.on('data', (c: Buffer) => (reply += c.toString('latin1')));
      socket.write(
        [
          'GET /api/events HTTP/1.1',
          `Host: 127.0.0.1:${host.port}`,
          'Upgrade: websocket',
          'Connection: Upgrade',
          ...headers,
          `Authorization: Bearer ${host.token}`,
          '',
          '',
        ].join('\r\n'),
      );
      await closed;
      expect(reply).toMatch(/^HTTP\/1\.1 (400|426)/);
    }
    const early = connect(host.port, '127.0.0.1');
    early.on('error', () => undefined);
    early.write(`GET /api/events HTTP/1.1\r\nHost: 127.0.0.1:${host.port}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n`);
    early.resetAndDestroy();
    await new Promise((r) => setTimeout(r, 50));
    expect(crashes).toEqual([]);
    expect(await httpStatus('/')).toBe(200);
    await goodClientHearsEvents();
  });

  it('survives a client that vanishes mid-frame', async () => {
    crashes.length = 0;
    const { socket, closed } = await rawUpgrade();
    socket.write(frame(0x1, Buffer.from('hello world')).subarray(0, 5));
    socket.destroy();
    await closed;
    await new Promise((r) => setTimeout(r, 50));
    expect(crashes).toEqual([]);
    expect(await httpStatus('/')).toBe(200);
  });
});
