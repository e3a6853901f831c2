// A served reply depends only on its prompt, not on what its sequence served before: the cache is reused in
// whole decode batches only (generate.ts). Through real llama.cpp with the random-weight fixture and a batch of
// 16 tokens, so short prompts span several batches.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getLlama, type LlamaContext, type LlamaModel, type Token } from 'node-llama-cpp';
import { generateGreedyCounted, reusableCells } from '../../../electron/engine/benchmark/generate';
import { createScoringContext } from '../../../electron/engine/llama/load';
import { randomModel } from '../fixtures';

// Tokens of the fixture's small vocabulary (under 256): a run from `from`, stepping by 7.
const t = (from: number, n: number): Token[] => Array.from({ length: n }, (_, i) => (((from + i * 7) % 200) + 20) as Token);

describe('reusableCells', () => {
  const cells = t(10, 40);
  it('keeps the shared prefix in whole batches, among the cells computed that way', () => {
    const prompt = [...t(10, 30), ...t(103, 15)];
    expect(reusableCells(cells, 32, prompt, 16)).toBe(16);
    expect(reusableCells(cells, 32, prompt, 8)).toBe(24);
    // Shared cells beyond those computed in whole batches are not kept.
    expect(reusableCells(cells, 16, [...t(10, 40), 9 as Token], 8)).toBe(16);
    expect(reusableCells(cells, 0, prompt, 16)).toBe(0);
  });

  it("never keeps the prompt's last token: its logits are needed fresh", () => {
    expect(reusableCells(t(10, 32), 32, t(10, 32), 16)).toBe(16);
    expect(reusableCells(t(10, 33), 32, t(10, 33), 16)).toBe(32);
  });
});

describe('generateGreedyCounted', () => {
  let model: LlamaModel;
  const contexts: LlamaContext[] = [];
  const context = async () => {
    const c = await createScoringContext(model, { contextSize: 256, sequences: 1, batchSize: 16, threads: 1 });
    contexts.push(c);
    return c.getSequence();
  };
  beforeAll(async () => {
    const llama = await getLlama({ gpu: false, build: 'never' });
    model = await llama.loadModel({ modelPath: randomModel() });
  });
  afterAll(async () => {
    for (const c of contexts) await c.dispose();
    await model.dispose();
  });

  it('gives a prompt served after another the same next-token probabilities as served alone', async () => {
    const before = t(20, 40);
    const prompt = [...t(20, 30), ...t(103, 15)];
    const options = { maxTokens: 2, stopAtNewline: false };

    const after = await context();
    expect((await generateGreedyCounted(model, after, before, options)).reused).toBe(0);
    const second = await generateGreedyCounted(model, after, prompt, options);
    // 30 tokens shared with the prompt before; one whole batch of 16 kept.
    expect(second.reused).toBe(16);

    const alone = await context();
    const first = await generateGreedyCounted(model, alone, prompt, options);
    expect(first.reused).toBe(0);
    expect(second.text).toBe(first.text);

    // Bit for bit: the distribution of the next token after the same context, on both sequences.
    expect(after.contextTokens).toEqual(alone.contextTokens);
    const next = async (s: typeof after) => {
      for await (const out of s.evaluateWithMetadata([5 as Token], { probabilities: true }, { temperature: 0 })) return [...out.probabilities.entries()];
      throw new Error('no token');
    };
    const p = await next(after);
    expect(p.length).toBeGreaterThan(0);
    expect(p).toEqual(await next(alone));
  }, 120_000);
});
