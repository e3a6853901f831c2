// The batch composition that keeps parallel scoring exact: at most one sequence with outputs per batch
// (llama.cpp reorders multi-sequence outputs lazily on first access, and node-llama-cpp samples
// different sequences concurrently — two first accesses race). Prefill without outputs still mixes.
import { describe, expect, it } from 'vitest';
import type { BatchItem } from 'node-llama-cpp';
import { oneOutputSequencePerBatch, oneSequencePerBatch } from '../../../electron/engine/llama/batching';

function item(length: number, outputsFrom: number): BatchItem {
  return {
    tokens: Array.from({ length }, (_, i) => i) as never,
    logits: Array.from({ length }, (_, i) => (i >= outputsFrom ? true : undefined)),
    evaluationPriority: 5,
  };
}

function withOutputs(batch: ReturnType<ReturnType<typeof oneOutputSequencePerBatch>>): number {
  return batch.filter((b) => b.item.logits.slice(0, b.processAmount).some(Boolean)).length;
}

describe('oneOutputSequencePerBatch', () => {
  it('lets one sequence have outputs and the others only their prefill before their first output', () => {
    const strategy = oneOutputSequencePerBatch();
    const items = [item(100, 90), item(100, 95), item(300, 1000)];
    const batch = strategy({ items, size: 512 });
    expect(withOutputs(batch)).toBe(1);
    expect(batch.reduce((n, b) => n + b.processAmount, 0)).toBeLessThanOrEqual(512);
    const byItem = new Map(batch.map((b) => [b.item, b.processAmount]));
    expect(byItem.get(items[2]!)).toBe(300); // no outputs: takes what it needs
    const limited = items.slice(0, 2).find((i) => byItem.get(i) !== 100)!;
    expect(byItem.get(limited)).toBe(limited === items[0] ? 90 : 95); // stops before its first output
  });

  it('drains every sequence over successive batches, each batch with one output owner', () => {
    const strategy = oneOutputSequencePerBatch();
    const left = [item(700, 650), item(40, 0), item(260, 200), item(5, 4)].map((i) => ({ ...i }));
    let batches = 0;
    while (left.some((i) => i.tokens.length > 0)) {
      const active = left.filter((i) => i.tokens.length > 0);
      const batch = strategy({ items: active, size: 256 });
      expect(batch.length).toBeGreaterThan(0);
      expect(withOutputs(batch)).toBeLessThanOrEqual(1);
      expect(batch.reduce((n, b) => n + b.processAmount, 0)).toBeLessThanOrEqual(256);
      for (const { item: it, processAmount } of batch) {
        const target = left.find((l) => l === it)!;
        (target as { tokens: readonly unknown[] }).tokens = target.tokens.slice(processAmount);
        (target as { logits: readonly unknown[] }).logits = target.logits.slice(processAmount);
      }
      expect(++batches).toBeLessThan(50);
    }
  });
});

// What generation uses (the benchmark server): replies broke into garbage when a long prefill of one
// sequence shared batches with another sequence's generation, under either strategy above.
describe('oneSequencePerBatch', () => {
  it('puts one sequence in a batch and lets the sequences take turns until all are drained', () => {
    const strategy = oneSequencePerBatch();
    const left = [item(700, 699), item(1, 0), item(260, 259), item(1, 0)].map((i) => ({ ...i }));
    const order: number[] = [];
    while (left.some((i) => i.tokens.length > 0)) {
      const active = left.filter((i) => i.tokens.length > 0);
      const batch = strategy({ items: active, size: 256 });
      expect(batch).toHaveLength(1);
      const [{ item: it, processAmount }] = batch as [{ item: BatchItem; processAmount: number }];
      expect(processAmount).toBe(Math.min(256, it.tokens.length));
      order.push(left.indexOf(it));
      const target = left.find((l) => l === it)!;
      (target as { tokens: readonly unknown[] }).tokens = target.tokens.slice(processAmount);
      (target as { logits: readonly unknown[] }).logits = target.logits.slice(processAmount);
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
