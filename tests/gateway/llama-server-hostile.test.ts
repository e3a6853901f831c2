// The real `lots gateway openai` process in front of a real llama.cpp server on the default real model
// (issue 37, items 6 and 7): a dot-segment variant of the chat path is cut like the chat path (the
// server's own prompt-token count says so: the same as through the plain path, fewer than straight to the
// server), and a server killed with -9 in the middle of a stream leaves the client with a failed stream
// (the official SDK throws), never a cleanly ended one, logged as an upstream failure.
import OpenAI from 'openai';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { findPulled, modelsDir } from '../../electron/engine/models/model-dir';
import { DEFAULT_MODEL_SOURCE, parseModelSource, sourceKey } from '../../electron/engine/models/sources';
import { describeRequiring } from '../describe-requiring';
import { startLlamaServer, type LlamaServerProcess } from '../engine/scoring/remote/llama-server-process';
import { tempDir } from '../cli/io';
import { makeProject, openaiTools } from './fixture';
import { rawRequest, startGatewayProcess, type GatewayProcess } from './gateway-process';

const SLOW = 300_000;
const tmp = tempDir('lots-gateway-llama-hostile-');
const modelPath = findPulled(modelsDir(), sourceKey(parseModelSource(DEFAULT_MODEL_SOURCE)))?.path;

let server: LlamaServerProcess;
let gw: GatewayProcess;

describeRequiring('real-model', 'the OpenAI gateway on the default real model, under hostile traffic', () => {
  describeRequiring('scoring-server', 'the gateway process in front of a real llama-server', () => {
    beforeAll(async () => {
      server = await startLlamaServer({ model: modelPath!, slotContext: 4096, extraArgs: ['--jinja'] });
      gw = await startGatewayProcess(['--project', makeProject(tmp.dir), '--upstream', server.url]);
    }, SLOW);
    afterAll(async () => {
      await gw?.stop();
      await server?.stop();
      tmp.cleanup();
    });

    const ask = JSON.stringify({
      model: 'default',
      temperature: 0,
      max_tokens: 1,
      messages: [{ role: 'user', content: 'Convert 100 EUR to USD.' }],
      tools: openaiTools,
    });
    const promptTokens = (text: string): number => (JSON.parse(text) as { usage: { prompt_tokens: number } }).usage.prompt_tokens;

    it(
      'cuts the menu of a path variant as of the chat path: the same prompt tokens, fewer than straight to the server',
      async () => {
        const direct = await rawRequest(server.url, 'POST', '/v1/chat/completions', ask);
        const plain = await rawRequest(gw.url, 'POST', '/v1/chat/completions', ask, { 'x-lots-task': 'fx' });
        const variant = await rawRequest(gw.url, 'POST', '/v1/chat/x/../%2e/completions', ask, { 'x-lots-task': 'fx' });
        for (const r of [direct, plain, variant]) expect(r.status, r.body).toBe(200);
        expect(promptTokens(variant.body)).toBe(promptTokens(plain.body));
        expect(promptTokens(variant.body)).toBeLessThan(promptTokens(direct.body));
        console.log(
          `prompt tokens: ${promptTokens(direct.body)} straight to llama-server, ${promptTokens(variant.body)} through /v1/chat/x/../%2e/completions`,
        );
      },
      SLOW,
    );

    it(
      'a server killed with -9 mid-stream: the SDK stream fails, the gateway logs an upstream failure',
      async () => {
        const client = new OpenAI({ baseURL: `${gw.url}/v1`, apiKey: 'unused', maxRetries: 0 });
        const stream = await client.chat.completions.create(
          {
            model: 'default',
            temperature: 0,
            max_tokens: 2000,
            stream: true,
            messages: [{ role: 'user', content: 'Count from 1 to 1000, one number a line.' }],
          },
          { headers: { 'x-lots-task': 'docs' } },
        );
        let pieces = 0;
        const outcome = await (async () => {
          for await (const chunk of stream) {
            if (chunk.choices[0]?.delta.content) pieces++;
            if (pieces === 3) void server.kill();
          }
          return 'ended';
        })().catch((e: unknown) => `failed: ${e instanceof Error ? e.message : String(e)}`);
        expect(pieces).toBeGreaterThanOrEqual(3);
        expect(outcome).toMatch(/^failed/);
        await expect.poll(() => gw.err()).toMatch(/then the upstream failed: .*the client's connection was cut, nothing recorded/);
        expect(gw.err()).not.toMatch(/gateway bug/);
      },
      SLOW,
    );
  });
});
