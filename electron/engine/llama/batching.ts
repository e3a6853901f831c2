// Batch composition for every context the Studio decodes on (scoring, serving): each batch holds the
// tokens of one sequence; the sequences take turns, each with as much of its queue as the batch holds.
//
// Why: with several sequences in one batch, the CPU decode of the llama.cpp that node-llama-cpp 3.21.1
// bundles corrupted some sequences' results on Qwen2.5 1.5B (2026-12-07), with node-llama-cpp's own batch
// composition and with one that let only one sequence have outputs in a batch:
// - serving: 9 of composition seed 2's 20 fitting replies broke into garbage midway
//   ("1506.17 + 800 = 2306.17 = 2306!etei-olsnes…"), deterministically, once a long prefill of one
//   sequence shared batches with another's generation;
// - scoring: on eight lanes (a trace's interventions side by side), two of 90 I_x(s) of six composition
//   traces came out 11.45 and 1.18 where the naive path and one lane give −0.04 and −0.01.
// One sequence a batch gives what one sequence at a time gives (replies; scores to the batch-shape noise
// floor, 1e-2) and, on a CPU, costs nothing measurable (docs/scoring-speed.md). Lanes still take the
// base's KV cells over (LlamaContextSequence.shareTokensFrom) instead of evaluating the prefix again.
//
// (Before, scoring contexts let at most one sequence have outputs in a batch, because llama.cpp swaps
// multi-sequence outputs back lazily on the first logits access and node-llama-cpp's concurrent sampler
// reads raced on it; one sequence a batch keeps that guarantee too.)
import type { CustomBatchingPrioritizationStrategy } from 'node-llama-cpp';

export function oneSequencePerBatch(): CustomBatchingPrioritizationStrategy {
  let turn = 0;
  return ({ items, size }) => {
    const waiting = items.filter((i) => i.tokens.length > 0);
    if (waiting.length === 0) return [];
    const item = waiting[turn++ % waiting.length]!;
    return [{ item, processAmount: Math.min(item.tokens.length, size) }];
  };
}
