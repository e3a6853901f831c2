// Batch composition for scoring contexts: at most one sequence may have outputs (logits) in a batch.
//
// Why: with several sequences in one batch, llama.cpp may compute the outputs out of batch order and
// swaps them back lazily, on the first logits access after the decode (llama_context::output_reorder).
// node-llama-cpp samples the outputs of different sequences concurrently on libuv worker threads,
// so two first accesses race and read each other's half-swapped rows: log-probs end up at the
// wrong positions (seen here as |diff| ≈ 20 nats between two runs of the same trace on a 150k
// vocabulary, where a sample is slow enough to overlap). Tokens without outputs — the bulk of the
// work, every context prefix — still share batches freely.
import type { BatchItem, CustomBatchingPrioritizationStrategy, PrioritizedBatchItem } from 'node-llama-cpp';

export function oneOutputSequencePerBatch(): CustomBatchingPrioritizationStrategy {
  let turn = 0;
  return ({ items, size }) => {
    const out: PrioritizedBatchItem[] = [];
    if (items.length === 0) return out;
    // Rotate which sequence goes first so that no sequence waits behind the others for long.
    const start = turn++ % items.length;
    let left = size;
    let outputsTaken = false;
    // Fair share first (maximum parallelism), then hand what is left to whoever still has tokens.
    const share = Math.max(1, Math.floor(size / items.length));
    const amounts = new Map<BatchItem, number>();
    for (const pass of [share, Infinity]) {
      for (let k = 0; k < items.length && left > 0; k++) {
        const item = items[(start + k) % items.length]!;
        const already = amounts.get(item) ?? 0;
        let amount = Math.min(item.tokens.length - already, pass === Infinity ? left : Math.min(pass, left));
        if (amount <= 0) continue;
        const firstOutput = firstLogit(item, already);
        const hasOutput = firstOutput !== -1 && firstOutput < already + amount;
        if (hasOutput && outputsTaken && !ownsOutputs(item, amounts)) amount = firstOutput - already;
        if (amount <= 0) continue;
        if (firstOutput !== -1 && firstOutput < already + amount) outputsTaken = true;
        amounts.set(item, already + amount);
        left -= amount;
      }
    }
    for (const [item, processAmount] of amounts) if (processAmount > 0) out.push({ item, processAmount });
    return out;
  };
}

function firstLogit(item: BatchItem, from: number): number {
  for (let i = from; i < item.logits.length; i++) if (item.logits[i]) return i;
  return -1;
}

/** The item already holds outputs in this batch (its own later outputs may join them). */
function ownsOutputs(item: BatchItem, amounts: Map<BatchItem, number>): boolean {
  const taken = amounts.get(item) ?? 0;
  const first = firstLogit(item, 0);
  return first !== -1 && first < taken;
}

/**
 * Every batch holds the tokens of one sequence: the sequences take turns, each with as much of its
 * queue as the batch holds. For generation (the benchmark server): with several sequences in one batch,
 * llama.cpp's CPU decode of this node-llama-cpp version broke some replies of Qwen2.5 1.5B into garbage
 * midway ("2306.17 = 2306!etei-olsnes…") whenever a long prefill of one sequence shared batches with
 * another's generation — with either batch composition above; with one sequence a batch the same
 * requests are answered as one sequence at a time answers them (docs/benchmark.md, "Serving"). On a CPU
 * nothing is lost: a decode of one sequence's token costs what a mixed batch's share did.
 */
export function oneSequencePerBatch(): CustomBatchingPrioritizationStrategy {
  let turn = 0;
  return ({ items, size }) => {
    const waiting = items.filter((i) => i.tokens.length > 0);
    if (waiting.length === 0) return [];
    const item = waiting[turn++ % waiting.length]!;
    return [{ item, processAmount: Math.min(item.tokens.length, size) }];
  };
}
