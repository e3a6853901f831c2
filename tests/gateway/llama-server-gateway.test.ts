// The OpenAI gateway in front of a real llama.cpp server (`llama-server --jinja`, tool calls through Chat
// Completions) serving the default real model: an agent's tool-using loop goes through with the menu cut
// to the task's approved space, the answers come back, the chain lands in the project as one trace of a
// new batch, the same server scores it (`lots score --backend llama-server`) and `lots update` folds it.
// Also measured: the prompt tokens of the same request with the gateway's cut menu and without it.
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

type Answer = {
  choices: { message: { content: string | null; tool_calls?: { id: string; function: { name: string; arguments: string } }[] } }[];
  usage: { prompt_tokens: number };
};

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
      'serves a tool-using loop with the menu cut to the space, records it as one trace, and lots score + lots update fold it',
      async () => {
        const lines: string[] = [];
        const gateway = await startOpenAIGateway({ store: ProjectStore.open(project), upstream: server.url, log: (l) => void lines.push(l) });
        const ask = {
          model: 'default',
          temperature: 0,
          max_tokens: 48,
          messages: [{ role: 'user', content: QUESTION }],
          tools: TOOLS,
          tool_choice: 'required',
        };
        const direct = (await post(server.url, ask)).json as Answer;
        const first = await post(gateway.url, ask, { 'x-lots-task': 'fx' });
        expect(first.status, first.text).toBe(200);
        const called = (first.json as Answer).choices[0]!.message;
        const call = called.tool_calls?.[0];
        expect(call, JSON.stringify(called)).toBeDefined();
        expect(SPACE).toContain(call!.function.name); // the model could only see the space
        const cut = (first.json as Answer).usage.prompt_tokens;
        const full = direct.usage.prompt_tokens;
        expect(cut).toBeLessThan(full);
        console.log(
          `prompt tokens of the same request: ${full} without the gateway, ${cut} through it (${full - cut} saved, ${TOOLS.length} → ${SPACE.length} tools)`,
        );

        const observation = { role: 'tool', tool_call_id: call!.id, content: '{"base":"EUR","quote":"USD","rate":1.08}' };
        const second = await post(
          gateway.url,
          { ...ask, stream: true, tool_choice: 'none', max_tokens: 40, messages: [...ask.messages, called, observation] },
          { 'x-lots-task': 'fx' },
        );
        expect(second.status).toBe(200);
        expect(second.text).toContain('data: [DONE]');
        expect((await gateway.close()).committed).toBe(1);
        expect(lines.join('\n')).toMatch(/task=fx \(header\) menu 4→2 \(space v0\), 2 hidden/);

        const [trace] = ProjectStore.open(project)
          .listTraces()
          .filter((t) => t.task === 'fx');
        expect(trace!.tools.map((t) => t.name).sort()).toEqual([...SPACE].sort());
        expect(trace!.turns[0]!.steps.map((s) => s.kind)).toEqual(['call', 'observation']);
        expect(trace!.turns[0]!.answer.length).toBeGreaterThan(0);

        const scored = await lots([
          'score',
          '--project',
          project,
          '--model',
          modelPath!,
          '--backend',
          'llama-server',
          '--endpoint',
          server.url,
          '--concurrency',
          '1',
        ]);
        expect(scored.code, scored.err + scored.out).toBe(0);
        const updated = await lots(['update', '--project', project, '--json']);
        expect(updated.code, updated.err + updated.out).toBe(0);
        const fx = (JSON.parse(updated.out) as { tasks: Record<string, { folded: number[]; batches: { source: string }[]; proposal: string[] }> }).tasks.fx!;
        expect(fx.folded).toEqual([1]);
        expect(fx.batches[0]!.source).toBe('0001.jsonl');
        expect(fx.proposal.length).toBeGreaterThan(0);
      },
      SLOW,
    );
  });
});
