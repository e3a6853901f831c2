// Golden tests on rendered token sequences: a silent change in the plain transcript, in
// node-llama-cpp's chat wrapper or in how the scored tokens are located changes every score.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getLlama, type LlamaModel } from 'node-llama-cpp';
import { createRenderer, type TraceRenderer } from '../../../electron/engine/scoring/chat-template';
import { findExpression, locateScoredTokens, locateTarget, type ScoringSequence } from '../../../electron/engine/scoring/span';
import { planTrace } from '../../../electron/engine/scoring/plan';
import type { Trace } from '../../../shared/trace/schema';
import { fixtureModel } from '../fixtures';

const trace: Trace = {
  v: 1,
  id: 'golden',
  system: 'Be brief.',
  tools: [{ name: 'Calc', description: 'Compute.', parameters: { type: 'object', properties: { x: { type: 'string' } } } }, { name: 'Search' }],
  turns: [
    {
      request: 'Hi',
      steps: [
        { kind: 'call', calls: [{ id: 'a', name: 'Search', arguments: { q: 'x' } }] },
        { kind: 'observation', callId: 'a', name: 'Search', content: 'none', pairing: 'id' },
      ],
      answer: 'Nothing.',
    },
    {
      request: 'Sum?',
      steps: [
        {
          kind: 'call',
          text: 'Two calls.',
          calls: [
            { id: 'b', name: 'Calc', arguments: { x: '1+1' } },
            { id: 'c', name: 'Search', arguments: { q: 'y' } },
          ],
        },
        { kind: 'observation', callId: 'b', name: 'Calc', content: '2', pairing: 'id' },
        { kind: 'observation', callId: 'c', name: 'Search', content: '{"hits": 3}', pairing: 'id' },
        { kind: 'lines', lines: [{ tool: 'Clock', output: '12:00' }] },
      ],
      answer: 'It is 4821.',
    },
  ],
};

const PLAIN =
  'Be brief.\n\nTools:\n- Calc: Compute. {"type":"object","properties":{"x":{"type":"string"}}}\n- Search\n\n' +
  'User: Hi\nCall: Search({"q":"x"})\nResult Search: none\nAssistant: Nothing.\n' +
  'User: Sum?\nAssistant: Two calls.\nCall: Calc({"x":"1+1"})\nCall: Search({"q":"y"})\nResult Calc: 2\nResult Search: {"hits": 3}\nClock: 12:00\n' +
  'Assistant: It is 4821.';

const CHATML_TAIL =
  '<|im_start|>user\nHi<|im_end|>\n<|im_start|>assistant\n||call: Search({"q": "x"})\n||result: "none"\nNothing.<|im_end|>\n' +
  '<|im_start|>user\nSum?<|im_end|>\n<|im_start|>assistant\nTwo calls.||call: Calc({"x": "1+1"})\n||result: "2"\n' +
  '||call: Search({"q": "y"})\n||result: {"hits": 3}\n<|im_end|>\n<|im_start|>user\nClock: 12:00<|im_end|>\n<|im_start|>assistant\nIt is 4821.';

const models: LlamaModel[] = [];
let plain: { model: LlamaModel; renderer: TraceRenderer };
let chat: { model: LlamaModel; renderer: TraceRenderer };
let merged: { model: LlamaModel; renderer: TraceRenderer };

beforeAll(async () => {
  const llama = await getLlama({ gpu: false, build: 'never' });
  const open = async (path: string) => {
    const model = await llama.loadModel({ modelPath: path });
    models.push(model);
    return { model, renderer: createRenderer(model) };
  };
  plain = await open(fixtureModel({ kind: 'random' }));
  chat = await open(fixtureModel({ kind: 'random', chatml: true }));
  merged = await open(fixtureModel({ kind: 'random', merges: ['Ġ I'] }));
});
afterAll(async () => {
  for (const m of models) await m.dispose();
});

describe('plain transcript (models without a chat template)', () => {
  it('renders every step kind and earlier turns, as BOS + one token per byte', () => {
    expect(plain.renderer.format).toBe('plain');
    const tokens = plain.renderer.render(trace, 1, trace.turns[1]!.answer);
    expect(tokens).toEqual([256, ...Buffer.from(PLAIN, 'utf8')]);
  });

  it('locates the answer after the longest common prefix of context alone and context + answer', () => {
    const s = locateScoredTokens(plain.renderer, trace, 1, 'answer')!;
    expect(s.end).toBe(s.tokens.length);
    expect(plain.model.detokenize(s.tokens.slice(s.start, s.end))).toBe('It is 4821.');
    expect(s.tokens.slice(0, s.start)).toEqual(plain.renderer.render(trace, 1, ''));
  });

  it('scores the first number-like expression in place and cuts the sequence after it', () => {
    const s = locateScoredTokens(plain.renderer, trace, 1, 'expression')!;
    expect(plain.model.detokenize(s.tokens.slice(s.start, s.end))).toBe('4821');
    expect(s.tokens).toHaveLength(s.end);
    expect(plain.model.detokenize(s.tokens.slice(s.start - 6, s.start))).toBe('It is ');
  });

  it('an empty answer has nothing to score', () => {
    const empty: Trace = { ...trace, turns: [{ ...trace.turns[0]!, answer: '' }] };
    expect(locateScoredTokens(plain.renderer, empty, 0, 'answer')).toBeUndefined();
  });
});

describe('chat template (node-llama-cpp chat wrapper)', () => {
  it('renders the menu as functions, calls with their results, lines as user text', () => {
    expect(chat.renderer.format).toBe('ChatML');
    const tokens = chat.renderer.render(trace, 1, trace.turns[1]!.answer);
    const text = chat.model.detokenize(tokens, true);
    expect(text.startsWith('<|bos|><|im_start|>system\nBe brief.\n\n')).toBe(true);
    expect(text).toContain('// Compute.\nfunction Calc(params: {x: string});\n\nfunction Search();');
    expect(text.endsWith(CHATML_TAIL)).toBe(true);
    // The markers are single special tokens, not their spelling in bytes.
    const imStart = chat.model.tokenize('<|im_start|>', true);
    expect(imStart).toEqual([257]);
    expect(tokens.filter((t) => t === 257)).toHaveLength(7);
    expect(tokens.filter((t) => t === 258)).toHaveLength(6);
  });

  it('locates the same answer string inside the template', () => {
    const s = locateScoredTokens(chat.renderer, trace, 1, 'answer')!;
    expect(chat.model.detokenize(s.tokens.slice(s.start, s.end), true)).toBe('It is 4821.');
    expect(chat.model.detokenize(s.tokens.slice(s.start - 2, s.start), true)).toBe('t\n'); // "…assistant\n"
  });
});

describe('the answer-eot span: the answer and the token that ends it', () => {
  it("chat template: the answer's tokens, then the end-of-turn token, all scored", () => {
    const answer = locateScoredTokens(chat.renderer, trace, 1, 'answer')!;
    const eot = locateScoredTokens(chat.renderer, trace, 1, 'answer-eot')!;
    expect(eot.start).toBe(answer.start);
    expect(eot.end).toBe(answer.end + 1);
    expect(eot.tokens.slice(0, answer.end)).toEqual(answer.tokens);
    expect(chat.model.detokenize(eot.tokens.slice(eot.start, eot.end), true)).toBe('It is 4821.<|im_end|>');
  });

  it("plain: the answer's tokens, then the newline that stops a plain answer", () => {
    const eot = locateScoredTokens(plain.renderer, trace, 1, 'answer-eot')!;
    expect(plain.model.detokenize(eot.tokens.slice(eot.start, eot.end))).toBe('It is 4821.\n');
  });

  it('an empty answer still has nothing to score; a call target is scored as under the answer span', () => {
    const empty: Trace = { ...trace, turns: [{ ...trace.turns[0]!, answer: '' }] };
    expect(locateTarget(chat.renderer, empty, 0, 'answer-eot')).toEqual({ unscored: 'empty-answer' });
    expect(locateScoredTokens(chat.renderer, callTrace, 1, 'answer-eot')).toEqual(locateScoredTokens(chat.renderer, callTrace, 1, 'answer'));
  });
});

describe('a token that merges across the answer boundary', () => {
  it('is scored as it appears in the sequence, never as the answer tokenized alone', () => {
    const single: Trace = { v: 1, id: 'm', tools: [], turns: [{ request: 'n?', steps: [], answer: 'It is 42' }] };
    const s = locateScoredTokens(merged.renderer, single, 0, 'answer')!;
    const scored = s.tokens.slice(s.start, s.end);
    // "Assistant: " + "It is 42": the space and the I are one token (merge "Ġ I") in the full sequence,
    // so the context alone ends one token earlier than the text suggests.
    expect(merged.model.detokenize(scored)).toBe(' It is 42');
    expect(scored).toHaveLength(8);
    expect(scored[0]).toBe(merged.model.tokenize(' I', false)[0]);
    expect(scored).not.toEqual(merged.model.tokenize('It is 42', false));
  });
});

describe('findExpression', () => {
  it.each([
    ['The total is $1,234.50 today.', '$1,234.50'],
    ['Down -3.5% since 2020', '-3.5%'],
    ['It is 42.', '42'],
    ['no numbers here\nfinal line  \n', 'final line'],
    ['single', 'single'],
  ])('%j → %j', (answer, expected) => {
    const span = findExpression(answer)!;
    expect(answer.slice(span[0], span[1])).toBe(expected);
  });

  it('has no expression in an empty answer', () => {
    expect(findExpression('')).toBeUndefined();
    expect(findExpression('  \n ')).toBeUndefined();
  });
});

/** Turn 1 ends in a call (paper B.2): its last call step is the frozen target, its observation after it. */
const callTrace: Trace = {
  ...trace,
  id: 'call-target',
  turns: [
    trace.turns[0]!,
    {
      request: 'Sum?',
      steps: [
        { kind: 'call', calls: [{ id: 'b', name: 'Calc', arguments: { x: '1+1' } }] },
        { kind: 'observation', callId: 'b', name: 'Calc', content: '2', pairing: 'id' },
        { kind: 'call', text: 'Then search.', calls: [{ id: 'c', name: 'Search', arguments: { q: 'y' } }] },
        { kind: 'observation', callId: 'c', name: 'Search', content: '{"hits": 3}', pairing: 'id' },
      ],
      answer: '',
      target: 'call',
    },
  ],
};

describe('a turn whose target is a call', () => {
  it('plain: scores the call text and its Call line after the context that stops before it', () => {
    const s = locateScoredTokens(plain.renderer, callTrace, 1, 'answer')!;
    expect(plain.model.detokenize(s.tokens.slice(s.start, s.end))).toBe('Then search.\nCall: Search({"q":"y"})');
    expect(plain.model.detokenize(s.tokens.slice(0, s.start))).toMatch(/User: Sum\?\nCall: Calc\(\{"x":"1\+1"\}\)\nResult Calc: 2\nAssistant: $/);
    // The expression span has nothing narrower in a call: the call is scored whole.
    expect(locateScoredTokens(plain.renderer, callTrace, 1, 'expression')).toEqual(s);
  });

  it("chat template: scores the call in the wrapper's own tool-call format, exactly as generation continues", () => {
    const s = locateScoredTokens(chat.renderer, callTrace, 1, 'answer')!;
    expect(chat.model.detokenize(s.tokens.slice(s.start, s.end), true)).toBe('Then search.||call: Search({"q": "y"})');
    expect(
      chat.model
        .detokenize(s.tokens.slice(0, s.start), true)
        .endsWith('<|im_start|>user\nSum?<|im_end|>\n<|im_start|>assistant\n||call: Calc({"x": "1+1"})\n||result: "2"\n'),
    ).toBe(true);
  });

  it('an earlier turn that ended in a call is context like any call, with its result and no answer line', () => {
    const three: Trace = { ...callTrace, turns: [...callTrace.turns, { request: 'Thanks', steps: [], answer: 'Bye.' }] };
    const s = locateScoredTokens(plain.renderer, three, 2, 'answer')!;
    expect(plain.model.detokenize(s.tokens.slice(0, s.start))).toContain(
      'Assistant: Then search.\nCall: Search({"q":"y"})\nResult Search: {"hits": 3}\nUser: Thanks\nAssistant: ',
    );
  });

  it('no intervention removes the target: removing Search takes turn 0 evidence and leaves the scored call as it was', async () => {
    const plan = await planTrace(callTrace, chat.renderer, { intervention: 'evidence', span: 'answer' });
    const turn1 = plan.turns.find((t) => t.turn === 1)!;
    expect(turn1.interventions.map((i) => i.tool).sort()).toEqual(['Calc', 'Search']);
    const text = (q: ScoringSequence) => chat.model.detokenize(q.tokens.slice(q.start, q.end), true);
    for (const iv of turn1.interventions) expect(text(iv.sequence)).toBe(text(turn1.base));
    expect(plan.unscored).toBeUndefined();
  });

  it('turns with nothing to score are reported with their reason, not skipped silently', async () => {
    const empty: Trace = {
      ...trace,
      turns: [
        { ...trace.turns[0]!, answer: '' },
        { ...trace.turns[1]!, answer: 'no digits' },
      ],
    };
    expect(locateTarget(plain.renderer, empty, 0, 'answer')).toEqual({ unscored: 'empty-answer' });
    const plan = await planTrace({ ...empty, turns: [empty.turns[0]!, { ...empty.turns[1]!, answer: '   ' }] }, plain.renderer, {
      intervention: 'evidence',
      span: 'expression',
    });
    expect(plan.unscored).toEqual([
      { turn: 0, reason: 'empty-answer' },
      { turn: 1, reason: 'no-expression' },
    ]);
  });
});
