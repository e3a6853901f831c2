// The OpenAI gateway's work grows with what it is sent, not with its square, and what it holds is bounded
// (issue 37, item 8): matching a request of 18,000 messages to the open exchanges looks at each message a
// bounded number of times; a 32 MB stream line without a newline is scanned once and not kept whole;
// through the real gateway such a line still reaches the client byte for byte; and a client that does not
// read holds the upstream back (the gateway does not read the whole answer into memory for it).
import { createHash } from 'node:crypto';
import { request } from 'node:http';
import { afterAll, describe, expect, it } from 'vitest';
import { OpenExchanges } from '../../shared/gateway/conversations';
import { LINE_CAP, SseAssembler } from '../../shared/gateway/sse';
import { tempDir } from '../cli/io';
import { chatRequest, gatewayTraces, makeProject } from './fixture';
import { rawRequest, startGatewayProcess } from './gateway-process';
import { sseEvent, startRawUpstream } from './raw-upstream';

const tmp = tempDir('lots-gateway-linear-');
afterAll(() => tmp.cleanup());

describe('the bookkeeping of agent chains', () => {
  it('matches a request of 18,000 messages looking at each message a bounded number of times', () => {
    const n = 18_000;
    const messages: unknown[] = [];
    for (let i = 0; i < n / 2; i++) messages.push({ role: 'user', content: `q${i}` }, { role: 'assistant', content: `a${i}` });
    const open = new OpenExchanges<string>();
    open.add(
      [
        { role: 'user', content: 'other' },
        { role: 'assistant', content: 'x', tool_calls: [{ id: 'c', function: { name: 'T', arguments: '{}' } }] },
      ],
      {
        id: 'e1',
        value: 'v',
        at: 0,
      },
    );
    const before = open.work;
    expect(open.take(messages)).toBeUndefined();
    expect(open.work - before).toBeLessThanOrEqual(3 * n);
    // …and still finds the chain a request continues, among identical open exchanges, first in first out.
    const chain = [
      { role: 'user', content: 'q' },
      { role: 'assistant', content: null, tool_calls: [{ id: 'c1', type: 'function', function: { name: 'T', arguments: '{}' } }] },
    ];
    open.add(chain, { id: 'first', value: 'a', at: 1 });
    open.add(chain, { id: 'second', value: 'b', at: 2 });
    const next = [...chain, { role: 'tool', tool_call_id: 'c1', content: 'obs' }];
    expect(open.take(next)?.id).toBe('first');
    expect(open.take(next)?.id).toBe('second');
    expect(open.take(next)).toBeUndefined();
  });
});

describe('the stream assembler', () => {
  it('scans a 32 MB line without a newline once, keeps at most LINE_CAP of it, and goes on after it', () => {
    const sse = new SseAssembler();
    const piece = 'x'.repeat(64 * 1024);
    let pushed = 0;
    sse.push('data: {"choices":[{"delta":{"content":"');
    for (let i = 0; i < 512; i++) {
      sse.push(piece);
      pushed += piece.length;
      expect(sse.pendingChars).toBeLessThanOrEqual(LINE_CAP);
    }
    sse.push('"}}]}\n\n' + sseEvent({ content: 'after' }) + 'data: [DONE]\n\n');
    expect(sse.work).toBeLessThanOrEqual(2 * pushed);
    const got = sse.result();
    expect(got.truncated).toBe(true);
    expect(got.message.content).toBe('after');
    expect(got.done).toBe(true);
  });
});

describe('through the real gateway', () => {
  it('passes an 8 MB stream line to the client byte for byte, and does not record the answer it could not keep', async () => {
    const up = await startRawUpstream();
    const huge = `data: ${JSON.stringify({ choices: [{ index: 0, delta: { content: 'y'.repeat(8 * 1024 * 1024) }, finish_reason: null }] })}\n\n`;
    const stream = sseEvent({ role: 'assistant', content: '' }) + huge + sseEvent({}, 'stop') + 'data: [DONE]\n\n';
    up.handle = (_got, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.end(stream);
    };
    const project = makeProject(tmp.dir, 'huge-line');
    const gw = await startGatewayProcess(['--project', project, '--upstream', up.url]);
    try {
      const r = await rawRequest(gw.url, 'POST', '/v1/chat/completions', JSON.stringify(chatRequest('x', { stream: true })), { 'x-lots-task': 'fx' });
      expect(r.cut).toBe(false);
      expect(createHash('sha256').update(r.body).digest('hex')).toBe(createHash('sha256').update(stream).digest('hex'));
      await expect.poll(() => gw.err()).toMatch(/over what the gateway keeps .* not recorded/);
    } finally {
      expect(await gw.stop()).toBe(0);
      await up.close();
    }
    expect(gatewayTraces(project)).toHaveLength(0);
  }, 60_000);

  it('holds the upstream back while the client does not read (the answer is not buffered for it)', async () => {
    const up = await startRawUpstream();
    const total = 256 * 1024 * 1024;
    const chunk = Buffer.alloc(64 * 1024, 'z');
    let sent = 0;
    let waitingSince: number | undefined;
    up.handle = (_got, res) => {
      res.writeHead(200, { 'content-type': 'application/octet-stream' });
      const more = (): void => {
        waitingSince = undefined;
        while (sent < total) {
          sent += chunk.length;
          if (!res.write(chunk)) {
            waitingSince = Date.now();
            res.once('drain', more);
            return;
          }
        }
        res.end();
      };
      res.on('close', () => (waitingSince = undefined));
      more();
    };
    const gw = await startGatewayProcess(['--project', makeProject(tmp.dir, 'slow-reader'), '--upstream', up.url]);
    const u = new URL(gw.url);
    const req = request({ host: u.hostname, port: u.port, path: '/v1/files/big/content', agent: false }, (res) => res.pause());
    req.on('error', () => undefined);
    req.end();
    try {
      // The upstream waits for the gateway, which waits for the client: nothing moves once the buffers are full.
      await expect.poll(() => waitingSince !== undefined && Date.now() - waitingSince > 1000, { timeout: 30_000, interval: 200 }).toBe(true);
      expect(sent).toBeLessThan(64 * 1024 * 1024);
    } finally {
      req.destroy();
      expect(await gw.stop()).toBe(0);
      await up.close();
    }
  }, 60_000);
});
