// The batch composition of every context (scoring, serving): one sequence a batch, the sequences taking
// turns. Mixed batches corrupted results on llama.cpp's CPU decode (llama/batching.ts); the contexts
// themselves are watched in tests/engine/benchmark/serve-batches.test.ts and fast-read.test.ts.
import { describe, expect, it } from 'vitest';
import type { BatchItem } from 'node-llama-cpp';
import { oneSequencePerBatch } from '../../../electron/engine/llama/batching';

function item(length: number, outputsFrom: number): BatchItem {
  return {
    tokens: Array.from({ length }, (_, i) => i) as never,
    logits: Array.from({ length }, (_, i) => (i >= outputsFrom ? true : undefined)),
    evaluationPriority: 5,
  };
}

describe('oneSequencePerBatch', () => {
  it('puts one sequence in a batch and lets the sequences take turns until all are drained', () => {
    const strategy = oneSequencePerBatch();
    const left = [item(700, 699), item(1, 0), item(260, 259), item(1, 0)].map((i) => ({ ...i }));
    const order: number[] = [];
    while (left.some((i) => i.tokens.length > 0)) {
      const active = left.filter((i) => i.tokens.length > 0);
      const batch = strategy({ items: active, size: 256 });
      expect(batch).toHaveLength(1);
      const [{ item: it, processAmount }] = batch as [{ item: (typeof left)[number]; processAmount: number }];
      expect(processAmount).toBe(Math.min(256, it.tokens.length));
      order.push(left.indexOf(it));
      (it as { tokens: readonly unknown[] }).tokens = it.tokens.slice(processAmount);
      (it as { logits: readonly unknown[] }).logits = it.logits.slice(processAmount);
      expect(order.length).toBeLessThan(20);
    }
    // Turns: the long prefill does not hold the one-token generations back behind its 700 tokens.
    expect(order.indexOf(1)).toBeLessThan(3);
    expect(order.indexOf(3)).toBeLessThan(4);
    expect(order.filter((i) => i === 0)).toHaveLength(3);
  });

  it('returns nothing when no sequence waits', () => {
    expect(oneSequencePerBatch()({ items: [], size: 512 })).toEqual([]);
  });
});
