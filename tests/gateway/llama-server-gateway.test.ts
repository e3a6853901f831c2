// The OpenAI gateway in front of a real llama.cpp server (`llama-server --jinja`, tools through Chat
// Completions) serving the default real model: a tool-using request goes through with the menu cut to the
// task's approved space, the streamed answer comes back, the exchange lands in the project as a trace of a
// new batch, the same server scores it (`lots score --backend llama-server`) and `lots update` folds it.
// Also measured (by the server's own template and tokenizer): the request's prompt tokens with the
// gateway's menu and with the client's. One generated answer of a few tokens and two scoring passes keep
// the real-model time short.
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startOpenAIGateway } from '../../electron/engine/gateway/openai-gateway';
import { findPulled, modelsDir } from '../../electron/engine/models/model-dir';
import { DEFAULT_MODEL_SOURCE, parseModelSource, sourceKey } from '../../electron/engine/models/sources';
import { ProjectStore } from '../../electron/engine/store';
import { describeRequiring } from '../describe-requiring';
import { startLlamaServer, type LlamaServerProcess } from '../engine/scoring/remote/llama-server-process';
import { tempDir } from '../cli/io';
import { post } from './fixture';

const SLOW = 300_000;
const tmp = tempDir('lots-gateway-llama-');
const modelPath = findPulled(modelsDir(), sourceKey(parseModelSource(DEFAULT_MODEL_SOURCE)))?.path;

const fn = (name: string, description: string, properties: Record<string, unknown>) => ({
  type: 'function',
  function: { name, description, parameters: { type: 'object', properties, required: Object.keys(properties) } },
});
const TOOLS = [
  fn('get_exchange_rate', 'Get the current exchange rate between two currencies.', {
    base: { type: 'string', description: 'ISO code of the currency to convert from, e.g. EUR' },
    quote: { type: 'string', description: 'ISO code of the currency to convert to, e.g. USD' },
  }),
  fn('web_search', 'Search the web and return the top results with titles, links and snippets.', {
    query: { type: 'string', description: 'the search query' },
  }),
  fn('send_email', 'Send an email to a recipient with a subject and a body.', {
    to: { type: 'string', description: 'the address' },
    subject: { type: 'string', description: 'the subject line' },
    body: { type: 'string', description: 'the text of the message' },
  }),
  fn('calculator', 'Evaluate an arithmetic expression and return the number.', { expression: { type: 'string', description: 'e.g. 100 * 1.08' } }),
];
const SPACE = ['get_exchange_rate', 'calculator'];
const QUESTION = 'How many US dollars is 100 euros? Use the exchange rate tool.';

let server: LlamaServerProcess;
let project: string;

function lots(args: string[]): Promise<{ code: number | null; out: string; err: string }> {
  const child = spawn(process.execPath, ['bin/lots.mjs', ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  child.stdout.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr.on('data', (d: Buffer) => (err += d.toString()));
  return new Promise((done) => child.on('exit', (code) => done({ code, out, err })));
}

describeRequiring('real-model', 'the OpenAI gateway on the default real model', () => {
  describeRequiring('scoring-server', 'the OpenAI gateway in front of a real llama-server', () => {
    beforeAll(async () => {
      server = await startLlamaServer({ model: modelPath!, slotContext: 4096, extraArgs: ['--jinja'] });
      project = join(tmp.dir, 'proj');
      // A task known only by its approved space: every trace of it will come through the gateway.
      ProjectStore.create(project).acceptSpace({ task: 'fx', tools: SPACE, pinned: [], banned: [], rule: { kind: 'topk', k: 2 }, note: 'approved' });
    }, SLOW);
    afterAll(async () => {
      await server?.stop();
      tmp.cleanup();
    });

    it(
      'serves a tool-using request with the menu cut to the space, records its trace, and lots score + lots update fold it',
      async () => {
        const lines: string[] = [];
        const gateway = await startOpenAIGateway({ store: ProjectStore.open(project), upstream: server.url, log: (l) => void lines.push(l) });
        // An agent's second step: its call of the exchange-rate tool and the observation are in the history
        // (this 0.5B model writes its calls as bare JSON, which llama-server does not parse as tool calls).
        const call = { id: 'call_fx', type: 'function', function: { name: 'get_exchange_rate', arguments: '{"base":"EUR","quote":"USD"}' } };
        const ask = {
          model: 'default',
          temperature: 0,
          max_tokens: 6,
          stream: true,
          stream_options: { include_usage: true },
          messages: [
            { role: 'user', content: QUESTION },
            { role: 'assistant', content: null, tool_calls: [call] },
            { role: 'tool', tool_call_id: 'call_fx', content: '{"base":"EUR","quote":"USD","rate":1.08}' },
          ],
          tools: TOOLS,
        };
        const answered = await post(gateway.url, ask, { 'x-lots-task': 'fx' });
        expect(answered.status, answered.text).toBe(200);
        expect(answered.text).toContain('data: [DONE]');
        expect((await gateway.close()).committed).toBe(1);
        expect(lines.join('\n')).toMatch(
          /task=fx \(header\) menu 4→2 pinned, 0 deferred \(demote\), 2 hidden \(space v0\), ~\d+ tokens saved → 200, \d+ prompt tokens/,
        );

        // The prompt the server builds from the same request, with the gateway's menu and with the client's.
        const promptTokens = async (tools: unknown[]): Promise<number> => {
          const { prompt } = (await (await fetch(`${server.url}/apply-template`, { method: 'POST', body: JSON.stringify({ ...ask, tools }) })).json()) as {
            prompt: string;
          };
          const { tokens } = (await (await fetch(`${server.url}/tokenize`, { method: 'POST', body: JSON.stringify({ content: prompt }) })).json()) as {
            tokens: number[];
          };
          return tokens.length;
        };
        const full = await promptTokens(TOOLS);
        const cut = await promptTokens(TOOLS.filter((t) => SPACE.includes(t.function.name)));
        expect(cut).toBeLessThan(full);
        console.log(`prompt tokens of the request: ${full} with the client's ${TOOLS.length} tools, ${cut} with the gateway's ${SPACE.length}`);

        const [trace] = ProjectStore.open(project)
          .listTraces()
          .filter((t) => t.task === 'fx');
        expect(trace!.tools.map((t) => t.name)).toEqual(['get_exchange_rate', 'calculator']);
        expect(trace!.turns[0]!.steps.map((s) => s.kind)).toEqual(['call', 'observation']);
        expect(trace!.turns[0]!.answer.length).toBeGreaterThan(0);
        expect((trace!.meta!.gateway as { usage: { prompt_tokens: number } }).usage.prompt_tokens).toBeGreaterThan(0);

        // Scored on the same server (its slots set the concurrency), then folded.
        const onServer = ['--backend', 'llama-server', '--endpoint', server.url];
        const scored = await lots(['score', '--project', project, '--model', modelPath!, ...onServer]);
        expect(scored.code, scored.err + scored.out).toBe(0);
        const updated = await lots(['update', '--project', project, '--json']);
        expect(updated.code, updated.err + updated.out).toBe(0);
        const fx = (
          JSON.parse(updated.out) as {
            tasks: Record<string, { folded: number[]; batches: { source: string; running: Record<string, number> }[]; proposal: string[] }>;
          }
        ).tasks.fx!;
        expect(fx.folded).toEqual([1]);
        expect(fx.batches[0]!.source).toBe('0001.jsonl');
        expect(Object.keys(fx.batches[0]!.running)).toContain('get_exchange_rate');
        expect(fx.proposal).toContain('get_exchange_rate');
      },
      SLOW,
    );

    it(
      'a deferred tool the agent calls is recorded as such, scored, folded, and promoted: the next proposal pins it (issue 44 item 4)',
      async () => {
        const dir = join(tmp.dir, 'promote');
        // The exchange-rate tool is deferred (callable, demoted), the calculator pinned, the rest hidden.
        ProjectStore.create(dir).acceptSpace({
          task: 'fx',
          tools: ['calculator'],
          deferred: ['get_exchange_rate'],
          pinned: [],
          banned: [],
          rule: { kind: 'topk', k: 2 },
          note: 'exchange rate deferred',
        });
        const gateway = await startOpenAIGateway({ store: ProjectStore.open(dir), upstream: server.url });
        const call = { id: 'call_fx', type: 'function', function: { name: 'get_exchange_rate', arguments: '{"base":"EUR","quote":"USD"}' } };
        const answered = await post(
          gateway.url,
          {
            model: 'default',
            temperature: 0,
            max_tokens: 6,
            messages: [
              { role: 'user', content: QUESTION },
              { role: 'assistant', content: null, tool_calls: [call] },
              { role: 'tool', tool_call_id: 'call_fx', content: '{"base":"EUR","quote":"USD","rate":1.08}' },
            ],
            tools: TOOLS,
          },
          { 'x-lots-task': 'fx' },
        );
        expect(answered.status, answered.text).toBe(200);
        expect(answered.headers.get('x-lots-tools')).toBe('pinned=1; deferred=1; hidden=2; form=demote');
        expect((await gateway.close()).committed).toBe(1);
        const [trace] = ProjectStore.open(dir).listTraces();
        expect(trace!.meta!.gateway).toMatchObject({ deferred: ['get_exchange_rate'] });

        const scored = await lots(['score', '--project', dir, '--model', modelPath!, '--backend', 'llama-server', '--endpoint', server.url]);
        expect(scored.code, scored.err + scored.out).toBe(0);
        const updated = await lots(['update', '--project', dir, '--json']);
        expect(updated.code, updated.err + updated.out).toBe(0);
        const fx = (
          JSON.parse(updated.out) as {
            tasks: Record<string, { batches: { calledWhileDeferred?: Record<string, number>; promoted?: string[] }[]; proposal: string[] }>;
          }
        ).tasks.fx!;
        expect(fx.batches[0]).toMatchObject({ calledWhileDeferred: { get_exchange_rate: 1 }, promoted: ['get_exchange_rate'] });
        expect(fx.proposal).toContain('get_exchange_rate');
        const said = await lots(['update', '--project', dir]);
        expect(said.out).toContain('called while deferred: get_exchange_rate (1 trace); promoted (pinned in this proposal): get_exchange_rate');
      },
      SLOW,
    );
  });
});
