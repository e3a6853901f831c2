// Frozen answers as a real agent's would be: the model's own greedy continuation of the full context
// (paper: greedy decoding, answers never regenerated while scoring). Used by `lots bench scoring` and
// the tests, so the cheap `confidence` path is exercised as it is on real traces.
import type { LlamaContextSequence, LlamaModel, Token } from 'node-llama-cpp';
import type { Trace } from '../../../shared/trace/schema';
import { createScoringContext } from '../llama/load';
import type { TraceRenderer } from './chat-template';

export async function withGreedyAnswers(model: LlamaModel, renderer: TraceRenderer, traces: readonly Trace[], maxTokens = 8): Promise<Trace[]> {
  const longest = Math.max(0, ...traces.map((t) => renderer.render(t, t.turns.length - 1, '').length));
  const context = await createScoringContext(model, { contextSize: Math.ceil((longest + maxTokens + 64) / 256) * 256, sequences: 1 });
  const sequence = context.getSequence();
  try {
    const out: Trace[] = [];
    for (const trace of traces) {
      const last = trace.turns.length - 1;
      await sequence.clearHistory();
      const prompt = renderer.render(trace, last, '');
      const generated: Token[] = [];
      let next = await step(sequence, prompt);
      while (next !== undefined && !model.isEogToken(next) && generated.length < maxTokens) {
        generated.push(next);
        if (generated.length < maxTokens) next = await step(sequence, [next]);
      }
      // Kept verbatim (not trimmed): the frozen answer is exactly what the model produced. An empty one
      // (the model ended at once) stays empty: the turn is then not scored, with its reason recorded,
      // rather than scored on an answer the model never gave.
      const answer = model.detokenize(generated, false);
      out.push({ ...trace, turns: trace.turns.map((turn, i) => (i === last ? { ...turn, answer } : turn)) });
    }
    return out;
  } finally {
    await context.dispose();
  }
}

async function step(sequence: LlamaContextSequence, tokens: Token[]): Promise<Token | undefined> {
  const items = tokens.map((t, i) => (i === tokens.length - 1 ? ([t, { generateNext: { token: true } }] as [Token, { generateNext: { token: true } }]) : t));
  const out = await sequence.controlledEvaluate(items);
  return out[tokens.length - 1]?.next.token ?? undefined;
}
