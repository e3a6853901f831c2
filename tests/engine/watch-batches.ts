// Which sequences each decode batch of a llama.cpp context holds, recorded at node-llama-cpp's binding
// (3.21.1: `initBatch(size)` starts a batch, `addToBatch(sequenceId, …)` adds a sequence's tokens to it).
// Used to check that serving and scoring decode one sequence a batch (llama/batching.ts oneSequencePerBatch).
import type { LlamaContext, LlamaModel } from 'node-llama-cpp';

interface Binding {
  initBatch: (size: number) => void;
  addToBatch: (sequenceId: number, firstTokenIndex: number, tokens: Uint32Array, logitIndexes: Uint32Array) => unknown;
}

/** What one addToBatch call put in a batch: a sequence's tokens from cell `first` on. */
export interface BatchRun {
  sequence: number;
  first: number;
  tokens: number;
}

/** Starts recording a context's batches into `batches`: each entry is the set of sequence ids of one batch
 * (and, into `runs` when given, each batch's runs of tokens). */
export function watchBatches(context: LlamaContext, batches: Set<number>[] = [], runs?: BatchRun[][]): Set<number>[] {
  const binding = (context as unknown as { _ctx: Binding })._ctx;
  const initBatch = binding.initBatch.bind(binding);
  const addToBatch = binding.addToBatch.bind(binding);
  // The binding's methods are read-only properties of its prototype: shadow them on the instance.
  const watch = <K extends keyof Binding>(name: K, value: Binding[K]) => Object.defineProperty(binding, name, { value, configurable: true });
  watch('initBatch', (size) => {
    batches.push(new Set());
    runs?.push([]);
    initBatch(size);
  });
  watch('addToBatch', (sequenceId, firstTokenIndex, tokens, logitIndexes) => {
    batches.at(-1)!.add(sequenceId);
    runs?.at(-1)!.push({ sequence: sequenceId, first: firstTokenIndex, tokens: tokens.length });
    return addToBatch(sequenceId, firstTokenIndex, tokens, logitIndexes);
  });
  return batches;
}

/** Records the batches of every context the model creates from now on (all of them in one list). */
export function watchModelBatches(model: LlamaModel): { batches: Set<number>[]; runs: BatchRun[][]; restore(): void } {
  const all: Set<number>[] = [];
  const runs: BatchRun[][] = [];
  const createContext = model.createContext.bind(model);
  Object.defineProperty(model, 'createContext', {
    configurable: true,
    value: async (...args: Parameters<LlamaModel['createContext']>) => {
      const context = await createContext(...args);
      watchBatches(context, all, runs);
      return context;
    },
  });
  return { batches: all, runs, restore: () => void Reflect.deleteProperty(model, 'createContext') };
}

/** Where each request began in its sequence: the first cell of a sequence's first run, and of every run
 * written below the end of what the sequence held (a new request reusing, or dropping, the cells before). */
export function requestStarts(runs: BatchRun[][]): number[] {
  const end = new Map<number, number>();
  const starts: number[] = [];
  for (const r of runs.flat()) {
    const held = end.get(r.sequence);
    if (held === undefined || r.first < held) starts.push(r.first);
    end.set(r.sequence, r.first + r.tokens);
  }
  return starts;
}
