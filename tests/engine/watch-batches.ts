// Which sequences each decode batch of a llama.cpp context holds, recorded at node-llama-cpp's binding
// (3.21.1: `initBatch(size)` starts a batch, `addToBatch(sequenceId, …)` adds a sequence's tokens to it).
// Used to check that serving and scoring decode one sequence a batch (llama/batching.ts oneSequencePerBatch).
import type { LlamaContext, LlamaModel } from 'node-llama-cpp';

interface Binding {
  initBatch: (size: number) => void;
  addToBatch: (sequenceId: number, firstTokenIndex: number, tokens: Uint32Array, logitIndexes: Uint32Array) => unknown;
}

/** Starts recording a context's batches into `batches`: each entry is the set of sequence ids of one batch. */
export function watchBatches(context: LlamaContext, batches: Set<number>[] = []): Set<number>[] {
  const binding = (context as unknown as { _ctx: Binding })._ctx;
  const initBatch = binding.initBatch.bind(binding);
  const addToBatch = binding.addToBatch.bind(binding);
  // The binding's methods are read-only properties of its prototype: shadow them on the instance.
  const watch = <K extends keyof Binding>(name: K, value: Binding[K]) => Object.defineProperty(binding, name, { value, configurable: true });
  watch('initBatch', (size) => {
    batches.push(new Set());
    initBatch(size);
  });
  watch('addToBatch', (sequenceId, ...rest) => {
    batches.at(-1)!.add(sequenceId);
    return addToBatch(sequenceId, ...rest);
  });
  return batches;
}

/** Records the batches of every context the model creates from now on (all of them in one list). */
export function watchModelBatches(model: LlamaModel): { batches: Set<number>[]; restore(): void } {
  const all: Set<number>[] = [];
  const createContext = model.createContext.bind(model);
  Object.defineProperty(model, 'createContext', {
    configurable: true,
    value: async (...args: Parameters<LlamaModel['createContext']>) => {
      const context = await createContext(...args);
      watchBatches(context, all);
      return context;
    },
  });
  return { batches: all, restore: () => void Reflect.deleteProperty(model, 'createContext') };
}
