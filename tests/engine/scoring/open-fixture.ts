// Fixture models loaded on the CPU for a scoring test file, with their renderer; every model the
// file opened is disposed after its tests.
import { afterAll } from 'vitest';
import { getLlama, type LlamaModel } from 'node-llama-cpp';
import { createRenderer, type TraceRenderer } from '../../../electron/engine/scoring/chat-template';
import { fixtureModel } from '../fixtures';

export type OpenFixture = (spec: Parameters<typeof fixtureModel>[0]) => Promise<{ model: LlamaModel; renderer: TraceRenderer }>;

/** Call at a file's top level: registers the disposal and returns the opener. */
export function fixtureOpener(): OpenFixture {
  const models: LlamaModel[] = [];
  afterAll(async () => {
    for (const m of models) await m.dispose();
  });
  return async (spec) => {
    const llama = await getLlama({ gpu: false, build: 'never' });
    const model = await llama.loadModel({ modelPath: fixtureModel(spec) });
    models.push(model);
    return { model, renderer: createRenderer(model) };
  };
}
