// The BFCL serving loop against the official package: calls become BFCL call strings as the official
// handlers write them (Python's repr), are executed by the official classes and graded by the official
// checker; a demoted function stays callable, a pruned one is refused; a turn ends at a text answer, an
// empty response after calls (its last call is then the target) or the step limit. The loop's responses
// come from a script here (to force each path), and from the default real model in the last suite.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BfclHarness } from '../../../electron/engine/bfcl/harness';
import { provisionBfcl, BFCL_VERSION } from '../../../electron/engine/bfcl/provision';
import { BfclServer, messageEnd, recordArmMenu, traceResult, serveRecordWith, type Response, type ResponseSource } from '../../../electron/engine/bfcl/serve';
import { pulledDefaultModel } from '../../../electron/engine/models/model-arg';
import type { BfclAnswer, BfclDoc, BfclEntry } from '../../../shared/benchmark/bfcl';
import type { CallSyntax } from '../../../shared/benchmark/bfcl-serve';
import type { Trace } from '../../../shared/trace/schema';
import { describeRequiring } from '../../describe-requiring';
import { requestStarts, watchModelBatches } from '../watch-batches';
import { SERVE_BATCH_TOKENS } from '../../../electron/engine/benchmark/server';

const QWEN: CallSyntax = { prefix: '<tool_call>\n{"name": "', paramsPrefix: '", "arguments": ', suffix: '}\n</tool_call>' };
const call = (name: string, args: Record<string, unknown>) => `<tool_call>\n${JSON.stringify({ name, arguments: args })}\n</tool_call>`;

let harness: BfclHarness;
let records: Map<string, BfclEntry>;
let answers: Map<string, BfclAnswer>;
let docs: Record<string, BfclDoc[]>;

beforeAll(async () => {
  try {
    await provisionBfcl();
  } catch (e) {
    throw new Error(`the BFCL tests need bfcl-eval==${BFCL_VERSION} in a cached venv and could not provision it: ${(e as Error).message}`);
  }
  harness = BfclHarness.start();
  const loaded = await harness.load('multi_turn_base');
  records = new Map(loaded.records.map((r) => [r.id, r]));
  answers = new Map(loaded.answers.map((a) => [a.id, a]));
  docs = loaded.docs;
}, 300_000);

afterAll(async () => {
  await harness?.close();
});

/** Answers each open request with the next scripted text, recording the trace it saw. */
function script(texts: string[]): ResponseSource & { seen: Trace[] } {
  const queue = [...texts];
  const seen: Trace[] = [];
  return {
    seen,
    respond: async (trace): Promise<Response> => {
      seen.push(structuredClone(trace));
      const text = queue.shift();
      if (text === undefined) throw new Error('the script ran out of responses');
      return { text, promptTokens: 100, generated: 10 };
    },
  };
}

// multi_turn_base_100 (TradingBot): turn 0 asks for Nvidia's price, turn 1 to fund the account with ten shares' worth.
const ID = 'multi_turn_base_100';
const serve = (source: ResponseSource, space: readonly string[] | 'all', form: 'demote' | 'prune', arm: string, maxSteps = 20) =>
  serveRecordWith(source, harness, records.get(ID)!, answers.get(ID)!, recordArmMenu(records.get(ID)!, docs, space, form), arm, {
    syntax: QWEN,
    maxSteps,
    lenient: false,
  });

describe('BFCL serving loop (official classes and checker, scripted responses)', () => {
  it('turns decoded calls into the official call strings (Python repr of every argument)', async () => {
    const strings = await harness.toCalls([
      { name: 'f', arguments: { s: "it's", q: 'say "hi"', n: 2.5, i: 3, b: true, z: null, l: [1, 'a'], d: { k: 'v' } } },
      { name: 'ls', arguments: {} },
    ]);
    expect(strings).toEqual([`f(s="it's",q='say "hi"',n=2.5,i=3,b=True,z=None,l=[1, 'a'],d={'k': 'v'})`, 'ls()']);
  });

  it('the gold calls, answered as a model would, pass the official checker; the trace holds calls, real observations and each turn’s target', async () => {
    expect(answers.get(ID)!.ground_truth).toEqual([["get_stock_info(symbol='NVDA')"], ['fund_account(amount=2203.4)']]);
    const source = script([call('get_stock_info', { symbol: 'NVDA' }), 'Nvidia trades at 220.34.', call('fund_account', { amount: 2203.4 }), '']);
    const { trace, outcome, result } = await serve(source, 'all', 'demote', 'keep-all');
    expect(outcome).toMatchObject({
      valid: true,
      steps: 4,
      calls: 2,
      deferredCalls: 0,
      hiddenCalls: 0,
      stepLimited: 0,
      firstPromptTokens: 100,
      turns: 2,
      turnsPassed: 2,
    });
    expect(result).toEqual([[["get_stock_info(symbol='NVDA')"]], [['fund_account(amount=2203.4)']]]);
    expect(trace).toMatchObject({ id: `bfcl/keep-all/${ID}`, task: 'TradingBot' });
    expect(trace.turns[0]!.answer).toBe('Nvidia trades at 220.34.');
    expect(trace.turns[0]!.target).toBeUndefined();
    const [c0, o0] = trace.turns[0]!.steps;
    expect(c0).toMatchObject({ kind: 'call', calls: [{ id: 't0.s0.c0', name: 'get_stock_info', arguments: { symbol: 'NVDA' } }] });
    expect(o0).toMatchObject({ kind: 'observation', callId: 't0.s0.c0', name: 'get_stock_info' });
    expect((o0 as { content: string }).content).toContain('220.34');
    // Turn 1 closed by an empty response after its call: that call is the frozen target.
    expect(trace.turns[1]).toMatchObject({ answer: '', target: 'call' });
    // The second request saw the first call's observation (the session keeps the classes' state).
    expect(source.seen[1]!.turns[0]!.steps).toHaveLength(2);
  });

  it('a wrong argument fails the official checker', async () => {
    const { outcome } = await serve(
      script([call('get_stock_info', { symbol: 'NVDA' }), 'ok', call('fund_account', { amount: 5 }), '']),
      'all',
      'demote',
      'keep-all-wrong',
    );
    expect(outcome.valid).toBe(false);
    expect(outcome.error).toMatch(/mismatch/);
    // The first turn alone is right: the checker accepts that prefix only.
    expect(outcome).toMatchObject({ turns: 2, turnsPassed: 1 });
  });

  it('under demotion a deferred function is on the menu without parameters and stays callable; under pruning a call to it is refused, not executed', async () => {
    const demoted = await serve(script([call('get_stock_info', { symbol: 'NVDA' }), 'done', 'done']), ['fund_account'], 'demote', 'demote');
    const tool = demoted.trace.tools.find((t) => t.name === 'get_stock_info')!;
    expect(tool).toEqual({ name: 'get_stock_info', description: 'Get the details of a stock.' });
    expect(demoted.trace.tools.find((t) => t.name === 'fund_account')!.parameters).toBeDefined();
    expect(demoted.outcome.deferredCalls).toBe(1);
    expect((demoted.trace.turns[0]!.steps[1] as { content: string }).content).toContain('220.34');

    const pruned = await serve(script([call('get_stock_info', { symbol: 'NVDA' }), 'done', 'done']), ['fund_account'], 'prune', 'prune');
    expect(pruned.trace.tools.map((t) => t.name)).toEqual(['fund_account']);
    expect(pruned.outcome.hiddenCalls).toBe(1);
    expect(pruned.trace.turns[0]!.steps[1]).toMatchObject({
      kind: 'observation',
      isError: true,
      content: 'Error: the function get_stock_info is not offered on this menu.',
    });
    // Not executed: the checker is given no call for that step.
    expect(pruned.result[0]).toEqual([[]]);
    // What a stored trace executed is read back as the checker took it (a resumed run counts turns from it).
    expect(await traceResult(harness, pruned.trace)).toEqual(pruned.result);
    expect(await traceResult(harness, demoted.trace)).toEqual(demoted.result);
  });

  it('a turn that keeps calling is cut at the step limit, its last call the target', async () => {
    const again = call('get_stock_info', { symbol: 'NVDA' });
    const { trace, outcome } = await serve(script([again, again, 'text', '']), 'all', 'demote', 'limit', 2);
    expect(trace.turns[0]).toMatchObject({ target: 'call', answer: '' });
    expect(trace.turns[0]!.steps.filter((s) => s.kind === 'call')).toHaveLength(2);
    expect(outcome.stepLimited).toBe(1);
    expect(outcome.steps).toBe(3);
  });
});

const modelPath = pulledDefaultModel();
describeRequiring('real-model', 'BFCL serving loop on the default real model', () => {
  let server: BfclServer;
  beforeAll(async () => {
    server = await BfclServer.open(modelPath!, { gpu: 'cpu', maxSteps: 2, maxTokens: 48 });
  }, 300_000);
  afterAll(async () => {
    await server?.close();
  });

  it('ends a message at a control token outside the call format (<|im_start|>), not at the call markers', () => {
    const model = server.loaded.model;
    const stop = messageEnd(model, server.syntax);
    const one = (text: string) => model.tokenize(text, true)[0]!;
    expect(stop(one('<|im_start|>'))).toBe(true);
    expect(stop(one('<tool_call>'))).toBe(false);
    expect(stop(one('</tool_call>'))).toBe(false);
    expect(stop(one('Hello'))).toBe(false);
  });

  it('serves a real record turn by turn: prompts rendered by the scorer’s renderer, its calls in the Qwen format, a verdict from the official checker', async () => {
    const entry = records.get(ID)!;
    expect(server.syntax).toEqual(QWEN);
    const watch = watchModelBatches(server.loaded.model);
    let keep: Awaited<ReturnType<BfclServer['serveRecord']>>;
    try {
      keep = await server.serveRecord(harness, entry, answers.get(ID)!, recordArmMenu(entry, docs, 'all', 'demote'), 'real-keep-all');
    } finally {
      watch.restore();
    }
    // The benchmark server's batches: every batch of prompt tokens begins at a multiple of 128 cells and
    // holds at most 128, so what a turn keeps of the record's earlier turns is what evaluating its prompt
    // from nothing gives; and a later request kept some of it (began past cell 0).
    const prompt = watch.runs.flat().filter((r) => r.tokens > 1);
    expect(prompt.length).toBeGreaterThan(0);
    expect(prompt.every((r) => r.tokens <= SERVE_BATCH_TOKENS)).toBe(true);
    expect(prompt.filter((r) => r.first % SERVE_BATCH_TOKENS !== 0)).toEqual([]);
    // Where each request began: the first cell written below the end of what the sequence held.
    const starts = requestStarts(watch.runs);
    expect(starts.length).toBeGreaterThan(1);
    expect(starts.some((first) => first > 0)).toBe(true);
    expect(keep.trace.turns).toHaveLength(entry.question.length);
    expect(typeof keep.outcome.valid).toBe('boolean');
    // The first request is the record's first turn under the whole menu, as the scorer renders it.
    const first: Trace = { ...keep.trace, turns: [{ request: keep.trace.turns[0]!.request, steps: [], answer: '' }] };
    expect(keep.outcome.firstPromptTokens).toBe(server.renderer.render(first, 0, '').length);
    // No control token leaks into what the model said.
    expect(JSON.stringify(keep.trace.turns)).not.toContain('<|im_start|>');
    for (const turn of keep.trace.turns)
      for (const step of turn.steps)
        if (step.kind === 'call') for (const c of step.calls) expect(turn.steps.some((s) => s.kind === 'observation' && s.callId === c.id)).toBe(true);
    // Demotion shortens the menu the model reads.
    const demoted = await server.serveRecord(
      harness,
      entry,
      answers.get(ID)!,
      recordArmMenu(entry, docs, ['get_stock_info', 'fund_account'], 'demote'),
      'real-demote',
    );
    expect(demoted.outcome.firstPromptTokens).toBeLessThan(keep.outcome.firstPromptTokens / 2);
  }, 600_000);
});
