// `lots bench model`: what a model costs and how well it answers on this machine, the numbers the
// default model was chosen by — architecture, parameters, size, prompt-evaluation and generation
// tokens/s, and keep-all accuracy on benchmark requests of a few families (full registry menu).
import type { Token } from 'node-llama-cpp';
import { generateBenchmark } from '../../../shared/benchmark/generate';
import type { FamilyName } from '../../../shared/benchmark/family';
import { describeModel } from '../llama/model-file';
import { createScoringContext } from '../llama/load';
import type { GpuChoice } from '../llama/runtime';
import { BenchServer } from './server';

export interface ModelBenchOptions {
  model: string;
  gpu: GpuChoice;
  families: FamilyName[];
  requests: number;
  maxTokens?: number;
  prompt?: 'compact' | 'verbose';
  onProgress?: (message: string) => void;
}

export interface ModelBenchReport {
  model: string;
  name: string;
  architecture: string | null;
  parameters: string | null;
  sizeBytes: number;
  quantization: string | null;
  vocabulary: number | null;
  renderFormat: string;
  promptTokensPerRequest: { min: number; max: number; mean: number };
  promptEvalTokensPerSecond: number;
  generationTokensPerSecond: number;
  accuracy: { family: string; correct: number; n: number; answers: string[] }[];
  accuracyMean: number;
  seconds: number;
}

export async function runModelBench(options: ModelBenchOptions): Promise<ModelBenchReport> {
  const say = options.onProgress ?? (() => undefined);
  const started = performance.now();
  say(`loading ${options.model}`);
  const server = await BenchServer.open(options.model, { gpu: options.gpu, maxTokens: options.maxTokens, parallel: 1 });
  try {
    const info = await describeModel(options.model, server.loaded.llama);
    const traces = generateBenchmark({ families: options.families, fit: options.requests, eval: 0, prompt: options.prompt });
    const menu = (t: (typeof traces)[number]) => t.tools.map((x) => x.name);
    const prompts = traces.map((t) => server.renderer.render(server.servedTrace({ base: t, menu: menu(t) }), 0, ''));
    const lengths = prompts.map((p) => p.length);

    say('measuring prompt evaluation and generation speed');
    const speed = await measureSpeed(server, prompts[0]!);

    say(`serving ${traces.length} requests with the full menu (keep-all)`);
    const served = await server.serve(
      traces.map((t) => ({ base: t, menu: menu(t) })),
      { onProgress: (d, n) => say(`served ${d}/${n}`) },
    );
    const accuracy = options.families.map((family) => {
      const mine = served.filter((s) => s.trace.task === family);
      return { family, correct: mine.filter((s) => s.correct).length, n: mine.length, answers: mine.map((s) => s.trace.turns[0]!.answer) };
    });
    return {
      model: options.model,
      name: info.name ?? options.model,
      architecture: info.architecture,
      parameters: info.parameters,
      sizeBytes: info.sizeBytes,
      quantization: info.quantization,
      vocabulary: info.vocabularySize,
      renderFormat: server.renderer.format,
      promptTokensPerRequest: { min: Math.min(...lengths), max: Math.max(...lengths), mean: lengths.reduce((a, b) => a + b, 0) / lengths.length },
      ...speed,
      accuracy,
      accuracyMean:
        accuracy.reduce((s, a) => s + a.correct, 0) /
        Math.max(
          1,
          accuracy.reduce((s, a) => s + a.n, 0),
        ),
      seconds: (performance.now() - started) / 1000,
    };
  } finally {
    await server.close();
  }
}

/** Prompt evaluation: one fresh decode of the prompt (batched); generation: 32 greedy tokens after it. */
async function measureSpeed(server: BenchServer, prompt: Token[]): Promise<{ promptEvalTokensPerSecond: number; generationTokensPerSecond: number }> {
  const context = await createScoringContext(server.model, { contextSize: Math.max(1024, prompt.length + 64), sequences: 1, batchSize: 512 });
  try {
    const sequence = context.getSequence();
    // warm-up: a first decode pays for allocations
    await sequence.evaluateWithoutGeneratingNewTokens(prompt.slice(0, 32));
    await sequence.eraseContextTokenRanges([{ start: 0, end: sequence.nextTokenIndex }]);
    let t = performance.now();
    await sequence.evaluateWithoutGeneratingNewTokens(prompt);
    const promptSeconds = (performance.now() - t) / 1000;
    await sequence.eraseContextTokenRanges([{ start: 0, end: sequence.nextTokenIndex }]);
    await sequence.evaluateWithoutGeneratingNewTokens(prompt.slice(0, -1));
    t = performance.now();
    let n = 0;
    for await (const token of sequence.evaluate(prompt.slice(-1), { temperature: 0 })) {
      void token;
      if (++n >= 32) break;
    }
    const genSeconds = (performance.now() - t) / 1000;
    return { promptEvalTokensPerSecond: prompt.length / promptSeconds, generationTokensPerSecond: n / genSeconds };
  } finally {
    await context.dispose();
  }
}
