// A trace whose menu is marked inline (meta.render.menu, the benchmark's compact prompt) renders the
// menu as text in the system message, not as the chat template's function block.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getLlama, type LlamaModel } from 'node-llama-cpp';
import { createRenderer } from '../../../electron/engine/scoring/chat-template';
import { generateBenchmark } from '../../../shared/benchmark/generate';
import { fixtureModel } from '../fixtures';

let model: LlamaModel;
beforeAll(async () => {
  const llama = await getLlama({ gpu: false, build: 'never' });
  model = await llama.loadModel({ modelPath: fixtureModel({ kind: 'random', chatml: true }) });
});
afterAll(async () => {
  await model.dispose();
});

describe('inline menu', () => {
  it('is one text list in the system message, without function definitions, and is shorter', () => {
    const renderer = createRenderer(model);
    const [compact] = generateBenchmark({ families: ['sensor_mean'], fit: 1, eval: 0 });
    const [verbose] = generateBenchmark({ families: ['sensor_mean'], fit: 1, eval: 0, prompt: 'verbose' });
    const text = model.detokenize(renderer.render(compact!, 0, ''), true);
    expect(text).toContain('<|im_start|>system\nAnswer the request from the tool outputs below');
    // Dependency order: the Calculator after every tool whose output it computes on.
    expect(text).toContain('\n\nTools:\n- Barcode: decodes an EAN-13 barcode\n- CalendarAPI: events of a calendar day\n');
    expect(text).toContain('\n- TableQuery: rows of a data table\n- Calculator: evaluates arithmetic on earlier outputs\n');
    expect(text).not.toContain('function Calculator(');
    const verboseText = model.detokenize(renderer.render(verbose!, 0, ''), true);
    expect(verboseText).toContain('function Calculator(');
    expect(text.length).toBeLessThan(verboseText.length * 0.75);
  });
});
