// A small llama-server on 127.0.0.1 for the fault suite: it answers what the remote scoring client asks
// (/v1/models, /props, /tokenize, /completion) as llama-server does, with the fixture model's own
// tokenizer (a vocabulary-only load) and log-probs that are a deterministic function of the prompt, the
// forced token and the served model's "weights" — so two runs against honest servers store the same
// scores, and a server that changes its model gives other ones. A `hostile` hook answers instead of it
// wherever a case wants: any status, headers and body text (JSON.stringify cannot write 1e999), or a
// hand on the raw response (a slow drip, no answer at all).
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { LlamaModel, Token } from 'node-llama-cpp';

/** What the server says it serves; `weights` scales every log-prob (another model, other values). */
export interface FakeModel {
  name: string;
  weights: number;
}

export interface FakeRequest {
  method: string;
  path: string;
  body: Record<string, unknown>;
  /** 1-based count of requests to this path so far, this one included. */
  n: number;
  /** /completion: the prompt's text (the fixture tokenizer's detokenization of its ids). */
  prompt?: string;
}

export type FakeAnswer =
  | { status?: number; headers?: Record<string, string>; json: unknown }
  | { status?: number; headers?: Record<string, string>; text: string }
  /** Take over the response (the request's body has been read). */
  | { handle: (res: ServerResponse) => void };

/** Return an answer to replace the honest one, or undefined to let the server answer honestly. */
export type Hostility = (
  request: FakeRequest,
  honest: () => Record<string, unknown>,
  server: FakeLlamaServer,
) => FakeAnswer | undefined | Promise<FakeAnswer | undefined>;

export interface FakeLlamaServer {
  url: string;
  /** Mutable: what /v1/models reports and how the log-probs are computed from now on. */
  model: FakeModel;
  /** Mutable: what /props reports as total_slots (undefined: left out). */
  slots: unknown;
  hostile: Hostility | undefined;
  /** Requests answered or taken so far, per path. */
  counts: Map<string, number>;
  close(): Promise<void>;
}

export const MODEL_A: FakeModel = { name: 'fake-model-a', weights: 1 };
export const MODEL_B: FakeModel = { name: 'fake-model-a', weights: 3 }; // same name, other weights: only the hash tells

export async function startFakeLlamaServer(
  vocab: LlamaModel,
  options: { model?: FakeModel; slots?: unknown; hostile?: Hostility } = {},
): Promise<FakeLlamaServer> {
  const state: FakeLlamaServer = {
    url: '',
    model: options.model ?? MODEL_A,
    slots: 'slots' in options ? options.slots : 1,
    hostile: options.hostile,
    counts: new Map(),
    close: () => Promise.resolve(),
  };
  const honest = (path: string, body: Record<string, unknown>): Record<string, unknown> => {
    switch (path) {
      case '/v1/models':
        return {
          object: 'list',
          data: [
            {
              id: state.model.name,
              object: 'model',
              owned_by: 'llamacpp',
              meta: { n_vocab: vocab.fileInfo.metadata.tokenizer?.ggml?.tokens?.length ?? 0, weights: state.model.weights },
            },
          ],
        };
      case '/props':
        return {
          ...(state.slots === undefined ? {} : { total_slots: state.slots }),
          build_info: 'fake-llama-server',
          default_generation_settings: { n_ctx: 4096 },
        };
      case '/tokenize': {
        const special = body.parse_special === true;
        const ids = vocab.tokenize(String(body.content), special);
        return { tokens: ids.map((id) => ({ id, piece: vocab.detokenize([id], special) })) };
      }
      case '/completion': {
        const prompt = body.prompt as number[];
        const forced = [...String(body.grammar).matchAll(/<\[(\d+)\]>/g)].map((m) => Number(m[1]));
        let h = 7;
        for (const t of prompt) h = (Math.imul(h, 31) + t) >>> 0;
        return {
          content: vocab.detokenize(forced as Token[]),
          tokens: forced,
          stop: true,
          stop_type: 'limit',
          model: state.model.name,
          completion_probabilities: forced.map((id, i) => ({
            id,
            token: vocab.detokenize([id as Token]),
            logprob: -state.model.weights * (0.01 + ((h + 7919 * i + id) % 997) / 997),
            top_logprobs: [],
          })),
        };
      }
      default:
        return {};
    }
  };
  const server: Server = createServer((req: IncomingMessage, res: ServerResponse) => {
    let raw = '';
    req.on('data', (chunk: Buffer) => (raw += chunk.toString()));
    req.on('end', () => {
      void (async () => {
        const path = (req.url ?? '/').split('?')[0]!;
        const n = (state.counts.get(path) ?? 0) + 1;
        state.counts.set(path, n);
        const body = (raw ? JSON.parse(raw) : {}) as Record<string, unknown>;
        const request: FakeRequest = { method: req.method ?? 'GET', path, body, n };
        if (path === '/completion') request.prompt = vocab.detokenize(body.prompt as Token[], true);
        const known = ['/v1/models', '/props', '/tokenize', '/completion'].includes(path);
        const answer =
          (await state.hostile?.(request, () => honest(path, body), state)) ??
          (known ? { json: honest(path, body) } : { status: 404, json: { error: 'not found' } });
        if ('handle' in answer) return answer.handle(res);
        const text = 'text' in answer ? answer.text : JSON.stringify(answer.json);
        res.writeHead(answer.status ?? 200, { 'content-type': 'application/json', ...answer.headers });
        res.end(text);
      })();
    });
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', () => done()));
  state.url = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  state.close = () =>
    new Promise<void>((done) => {
      server.closeAllConnections();
      server.close(() => done());
    });
  return state;
}

/** The honest /completion answer's JSON with answer token `index`'s log-prob written as `literal` (e.g. 1e999). */
export function withLogprob(honest: Record<string, unknown>, index: number, literal: string): string {
  const probs = honest.completion_probabilities as Array<{ logprob: unknown }>;
  probs[index]!.logprob = '__LOGPROB__';
  return JSON.stringify(honest).replace('"__LOGPROB__"', literal);
}
