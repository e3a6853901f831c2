// A small real Chat Completions server on 127.0.0.1 for the gateway's own tests (menus, streams, errors):
// it keeps every request body it received and answers with what the test scripts — a text answer, a tool
// call, a stream of either, or an error status.
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Received {
  path: string;
  headers: IncomingMessage['headers'];
  body: Record<string, unknown>;
}

export type Reply =
  | { kind: 'text'; text: string }
  | { kind: 'call'; name: string; arguments: Record<string, unknown>; id?: string }
  | { kind: 'status'; status: number; body: unknown };

export interface TinyUpstream {
  url: string;
  received: Received[];
  /** What the next requests get, first in first out; a text answer "ok" when empty. */
  replies: Reply[];
  close(): Promise<void>;
}

function message(reply: Reply): Record<string, unknown> {
  if (reply.kind === 'call')
    return {
      role: 'assistant',
      content: null,
      tool_calls: [{ id: reply.id ?? 'call_1', type: 'function', function: { name: reply.name, arguments: JSON.stringify(reply.arguments) } }],
    };
  return { role: 'assistant', content: reply.kind === 'text' ? reply.text : '' };
}

/** The stream a server sends for a reply: role first, then the text (or call) in two pieces, usage, [DONE]. */
function chunks(reply: Reply): string[] {
  const base = { id: 'chatcmpl-tiny', object: 'chat.completion.chunk', model: 'tiny' };
  const delta = (d: Record<string, unknown>, finish: string | null = null) =>
    `data: ${JSON.stringify({ ...base, choices: [{ index: 0, delta: d, finish_reason: finish }] })}\n\n`;
  const out = [delta({ role: 'assistant', content: null })];
  if (reply.kind === 'call') {
    const args = JSON.stringify(reply.arguments);
    const half = Math.floor(args.length / 2);
    out.push(delta({ tool_calls: [{ index: 0, id: reply.id ?? 'call_1', type: 'function', function: { name: reply.name, arguments: args.slice(0, half) } }] }));
    out.push(delta({ tool_calls: [{ index: 0, function: { arguments: args.slice(half) } }] }));
    out.push(delta({}, 'tool_calls'));
  } else {
    const text = reply.kind === 'text' ? reply.text : '';
    out.push(delta({ content: text.slice(0, 3) }), delta({ content: text.slice(3) }), delta({}, 'stop'));
  }
  out.push(`data: ${JSON.stringify({ ...base, choices: [], usage: { prompt_tokens: 11, completion_tokens: 3, total_tokens: 14 } })}\n\n`, 'data: [DONE]\n\n');
  return out;
}

export async function startTinyUpstream(): Promise<TinyUpstream> {
  const received: Received[] = [];
  const replies: Reply[] = [];
  const server: Server = createServer((req, res) => {
    const parts: Buffer[] = [];
    req.on('data', (c: Buffer) => parts.push(c));
    req.on('end', () => {
      const text = Buffer.concat(parts).toString('utf8');
      const body = (text ? JSON.parse(text) : {}) as Record<string, unknown>;
      received.push({ path: req.url ?? '', headers: req.headers, body });
      if (req.url === '/v1/models') {
        res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ object: 'list', data: [{ id: 'tiny', object: 'model' }] }));
        return;
      }
      const reply = replies.shift() ?? { kind: 'text', text: 'ok' };
      if (reply.kind === 'status') {
        res.writeHead(reply.status, { 'content-type': 'application/json' }).end(JSON.stringify(reply.body));
        return;
      }
      if (body.stream === true) {
        res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
        const list = chunks(reply);
        const next = (): void => {
          const c = list.shift();
          if (c === undefined) res.end();
          else res.write(c, () => setTimeout(next, 5));
        };
        next();
        return;
      }
      res.writeHead(200, { 'content-type': 'application/json' }).end(
        JSON.stringify({
          id: 'chatcmpl-tiny',
          object: 'chat.completion',
          model: 'tiny',
          choices: [{ index: 0, message: message(reply), finish_reason: reply.kind === 'call' ? 'tool_calls' : 'stop' }],
          usage: { prompt_tokens: 11, completion_tokens: 3, total_tokens: 14 },
        }),
      );
    });
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}`,
    received,
    replies,
    close: () =>
      new Promise<void>((done) => {
        server.closeAllConnections();
        server.close(() => done());
      }),
  };
}
