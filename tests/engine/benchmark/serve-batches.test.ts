// The benchmark server decodes one sequence a batch. With several sequences in one batch, llama.cpp's CPU
// decode (node-llama-cpp 3.21.1's bundle) broke replies of Qwen2.5 1.5B into garbage midway — 9 of
// composition seed 2's 20 fitting replies ("2306.17 = 2306!etei-olsnes…") — whenever one sequence's long
// prefill shared batches with another's generation; one sequence a batch gave the replies one sequence at a
// time gives (llama/batching.ts oneSequencePerBatch, docs/benchmark.md "Serving"). The fixture model cannot
// show garbage, so this test watches the batches themselves: it records the sequence of every token the
// context adds to a batch (tests/engine/watch-batches.ts), and where each batch's tokens begin.
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { requestStarts, watchModelBatches } from '../watch-batches';
import { BenchServer, SERVE_BATCH_TOKENS } from '../../../electron/engine/benchmark/server';
import { ensureFixtureModel } from '../../../electron/engine/gguf/fixture-cache';
import { generateBenchmark } from '../../../shared/benchmark/generate';

const ROOT = join(__dirname, '../../..');

describe('the benchmark server’s batches', () => {
  let server: BenchServer;
  beforeAll(async () => {
    server = await BenchServer.open(ensureFixtureModel(join(ROOT, 'tests/.fixtures/models'), { kind: 'random' }), { gpu: 'cpu', parallel: 4, maxTokens: 6 });
  }, 120_000);
  afterAll(async () => {
    await server?.close();
  });

  it('holds one sequence each while four requests are in flight', async () => {
    const requests = generateBenchmark({ seed: 'batches', families: ['table_total', 'fx_settle', 'sensor_mean', 'compute_only'], fit: 2, eval: 0 });
    expect(requests.length).toBeGreaterThanOrEqual(8);
    const menu = ['TableQuery', 'Calculator', 'CurrencyConvert', 'ExchangeRate', 'SensorAPI', 'DocRetrieve'];
    // The server makes its context at the first call: watch every context its model makes from now on.
    const watch = watchModelBatches(server.loaded.model);
    const served = await server.serve(requests.map((base) => ({ base, menu }))).finally(() => watch.restore());
    const batches = watch.batches;
    expect(served.every((s) => !s.cached)).toBe(true);
    // Four sequences were used, so requests overlapped…
    expect(new Set(batches.flatMap((b) => [...b])).size).toBe(4);
    // …and yet no batch mixed two of them.
    expect(batches.length).toBeGreaterThan(requests.length);
    expect(batches.filter((b) => b.size > 1)).toEqual([]);

    // A prompt's cached prefix is reused in whole batches only (generate.ts): every batch of prompt tokens
    // begins at a multiple of the batch size, as evaluating the prompt from nothing would, and some did
    // begin past cell 0 (a reused prefix: the requests share their system text and menu).
    const prompt = watch.runs.flat().filter((r) => r.tokens > 1);
    expect(prompt.every((r) => r.tokens <= SERVE_BATCH_TOKENS)).toBe(true);
    expect(prompt.filter((r) => r.first % SERVE_BATCH_TOKENS !== 0)).toEqual([]);
    // Where a sequence's next request began: the first cell written below the end of what it held.
    const starts = requestStarts(watch.runs);
    expect(starts.length).toBeGreaterThanOrEqual(requests.length);
    expect(starts.some((first) => first > 0)).toBe(true);
  }, 120_000);
});
