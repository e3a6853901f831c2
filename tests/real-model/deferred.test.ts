// Deferred tools served by the default real model (shared/benchmark/deferred.ts, BenchServer.serve): the
// pinned tools run, the deferred ones are listed, and a reply "RUN: <Tool>" serves the request again with
// that tool run. Two requests of the standard run's fx_settle family (seed 0, the sample project's): under
// LOTS's space there, greedy decoding asks for CurrencyConvert on fx_settle-0009 and answers fx_settle-0008
// at once (measured with this model; docs/results.md has the whole run).
import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeRequiring } from '../describe-requiring';
import { pulledDefaultModel } from '../../electron/engine/models/model-arg';
import { BenchServer } from '../../electron/engine/benchmark/server';
import { generateBenchmark } from '../../shared/benchmark/generate';
import { registryNames } from '../../shared/benchmark/registry';
import { deferredHint } from '../../shared/trace/render-hints';
import type { Trace } from '../../shared/trace/schema';

const PINNED = ['ExchangeRate', 'DocRetrieve', 'Calculator'];

describeRequiring('real-model', 'deferred tools on the default model', () => {
  let server: BenchServer;
  let requests: Map<string, Trace>;
  const deferred = registryNames('0', 15).filter((t) => !PINNED.includes(t));

  beforeAll(async () => {
    requests = new Map(generateBenchmark({ seed: '0', families: ['fx_settle'], fit: 8, eval: 2 }).map((t) => [t.id, t]));
    server = await BenchServer.open(pulledDefaultModel()!, { gpu: 'cpu', parallel: 1 });
  }, 600_000);

  afterAll(async () => {
    await server?.close();
  });

  it('a request that asks for a deferred tool is served again with it run, and that answer is graded', async () => {
    const base = requests.get('fx_settle-0009')!;
    const [asked] = await server.serve([{ base, menu: PINNED, deferred }]);
    expect(asked!.called).toEqual(['CurrencyConvert']);
    const meta = (asked!.trace.meta as { served: { deferred: { offered: string[]; called: string[]; asked: string } } }).served.deferred;
    expect(meta.called).toEqual(['CurrencyConvert']);
    expect(meta.asked).toMatch(/^RUN:? *CurrencyConvert/);
    expect([...meta.offered].sort()).toEqual([...deferred].sort());
    // The recorded trace is the second serving: CurrencyConvert's line among the pinned tools' lines, no deferred list.
    const lines = asked!.trace.turns[0]!.steps.flatMap((s) => (s.kind === 'lines' ? s.lines.map((l) => l.tool) : []));
    expect(lines.sort()).toEqual([...PINNED, 'CurrencyConvert'].sort());
    expect(deferredHint(asked!.trace)).toBeUndefined();
    // …and it is exactly that menu served directly: the same answer, its prompt counted on top of the first.
    const [direct] = await server.serve([{ base, menu: [...PINNED, 'CurrencyConvert'] }]);
    expect(asked!.trace.turns[0]!.answer).toBe(direct!.trace.turns[0]!.answer);
    expect(asked!.correct).toBe(direct!.correct);
    expect(asked!.promptTokens).toBeGreaterThan(direct!.promptTokens);
    // Served again: remembered, the call with it.
    const [again] = await server.serve([{ base, menu: PINNED, deferred }]);
    expect(again).toMatchObject({ cached: true, called: ['CurrencyConvert'], promptTokens: asked!.promptTokens });
  }, 600_000);

  it('a request that answers at once is graded as it is, with the deferred list it was offered', async () => {
    const base = requests.get('fx_settle-0008')!;
    const [answered] = await server.serve([{ base, menu: PINNED, deferred }]);
    expect(answered!.called).toBeUndefined();
    expect(
      deferredHint(answered!.trace)
        ?.tools.map((t) => t.name)
        .sort(),
    ).toEqual([...deferred].sort());
    const lines = answered!.trace.turns[0]!.steps.flatMap((s) => (s.kind === 'lines' ? s.lines.map((l) => l.tool) : []));
    expect(lines.sort()).toEqual([...PINNED].sort());
    expect(answered!.trace.turns[0]!.answer).not.toMatch(/^RUN/i);
  }, 600_000);
});
