// The serving memo is keyed by what the model reads, not by a request's id: a `--seeds` demo serves seed 0's
// table_total-0000 and seed 1's table_total-0000 (different scenes, different gold answers) with one server,
// and once answered the second from the first's memo, so every seed after the first repeated seed 0's answers.
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BenchServer } from '../../../electron/engine/benchmark/server';
import { ensureFixtureModel } from '../../../electron/engine/gguf/fixture-cache';
import { generateBenchmark } from '../../../shared/benchmark/generate';

const ROOT = join(__dirname, '../../..');

describe('the serving memo', () => {
  let server: BenchServer;
  beforeAll(async () => {
    server = await BenchServer.open(ensureFixtureModel(join(ROOT, 'tests/.fixtures/models'), { kind: 'random' }), { gpu: 'cpu', parallel: 1, maxTokens: 4 });
  }, 120_000);
  afterAll(async () => {
    await server?.close();
  });

  const request = (seed: string, variant: 'faithful' | 'number-free' = 'faithful') =>
    generateBenchmark({ seed, families: ['table_total'], fit: 1, eval: 0, variant })[0]!;

  it('never answers a request of one seed (or variant) from another with the same id and menu', async () => {
    const menu = ['TableQuery', 'Calculator'];
    const [zero, one, numberFree] = [request('0'), request('1'), request('0', 'number-free')];
    expect(zero.id).toBe(one.id);
    expect(zero.turns[0]!.gold).not.toBe(one.turns[0]!.gold);
    const [a] = await server.serve([{ base: zero, menu }]);
    const [b] = await server.serve([{ base: one, menu }]);
    expect(a!.cached).toBe(false);
    expect(b!.cached).toBe(false);
    expect(b!.trace.turns[0]!.gold).toBe(one.turns[0]!.gold);
    expect(b!.trace.meta?.bench).toMatchObject({ seed: '1' });
    // number-free keeps the chain's lines: with only chain tools served the prompt is the same, so the answer is shared.
    const [c] = await server.serve([{ base: numberFree, menu }]);
    expect(c!.cached).toBe(true);
    // …and a distractor served beside them makes it another prompt.
    const [d] = await server.serve([{ base: numberFree, menu: [...menu, 'UnitConvert'] }]);
    const [e] = await server.serve([{ base: zero, menu: [...menu, 'UnitConvert'] }]);
    expect([d!.cached, e!.cached]).toEqual([false, false]);
  }, 120_000);

  it('answers the same prompt once, in one call or across calls', async () => {
    const base = request('memo');
    const menu = ['TableQuery'];
    const [x, y] = await server.serve([
      { base, menu },
      { base, menu },
    ]);
    expect([x!.cached, y!.cached]).toEqual([false, true]);
    const before = server.generated;
    const [z] = await server.serve([{ base, menu }]);
    expect(z!.cached).toBe(true);
    expect(server.generated).toBe(before);
    expect(z!.trace.turns[0]!.answer).toBe(x!.trace.turns[0]!.answer);
  }, 120_000);
});
