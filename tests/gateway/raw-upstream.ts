// A real HTTP server on 127.0.0.1 that keeps what reached it byte for byte (the raw request target, the
// headers, the body's bytes) and answers as the test scripts: by default a Chat Completions answer "ok",
// or whatever `handle` does (die mid-stream, stream without end, go silent…). For the gateway's hostile
// traffic tests, where what matters is exactly what the upstream received.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface RawReceived {
  /** The request target as it arrived (path and query, unnormalised). */
  url: string;
  method: string;
  headers: IncomingMessage['headers'];
  body: Buffer;
}

export interface RawUpstream {
  url: string;
  port: number;
  received: RawReceived[];
  /** Answers a request (the default answers "ok" as Chat Completions JSON). */
  handle: (got: RawReceived, res: ServerResponse) => void;
  close(): Promise<void>;
}

export function chatAnswer(message: Record<string, unknown> = { role: 'assistant', content: 'ok' }): string {
  return JSON.stringify({
    id: 'chatcmpl-raw',
    object: 'chat.completion',
    created: 1,
    model: 'raw',
    choices: [{ index: 0, message, finish_reason: Array.isArray(message.tool_calls) ? 'tool_calls' : 'stop' }],
    usage: { prompt_tokens: 5, completion_tokens: 1, total_tokens: 6 },
  });
}

export function sseEvent(delta: Record<string, unknown>, finish: string | null = null): string {
  return `data: ${JSON.stringify({ id: 'chatcmpl-raw', object: 'chat.completion.chunk', created: 1, model: 'raw', choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`;
}

export const answerOk = (_got: RawReceived, res: ServerResponse): void => {
  res.writeHead(200, { 'content-type': 'application/json' }).end(chatAnswer());
};

export async function startRawUpstream(): Promise<RawUpstream> {
  const up: RawUpstream = {
    url: '',
    port: 0,
    received: [],
    handle: answerOk,
    close: async () => undefined,
  };
  const server: Server = createServer((req, res) => {
    const parts: Buffer[] = [];
    req.on('data', (c: Buffer) => parts.push(c));
    req.on('end', () => {
      const got = { url: req.url ?? '', method: req.method ?? '', headers: req.headers, body: Buffer.concat(parts) };
      up.received.push(got);
      up.handle(got, res);
    });
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  up.port = (server.address() as AddressInfo).port;
  up.url = `http://127.0.0.1:${up.port}`;
  up.close = () =>
    new Promise<void>((done) => {
      server.closeAllConnections();
      server.close(() => done());
    });
  return up;
}
