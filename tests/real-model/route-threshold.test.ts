// The router's threshold (issue 44, item 6; shared/routing/nearest-task.ts) with the sentence encoder the
// project routes with (all-MiniLM-L6-v2 as GGUF, `lots route --embed minilm`): chosen from the built-in
// benchmark's fitting requests alone, it keeps the held-out requests of the ten families routed (to their
// own family) and leaves requests unrelated to every family unrouted. The figures are in docs/gateways.md.
import { expect, it } from 'vitest';
import { describeRequiring } from '../describe-requiring';
import { pulledSentenceEncoder } from '../../electron/engine/models/embedder-arg';
import { embedWithModel } from '../../electron/engine/routing/model-embeddings';
import { generateBenchmark } from '../../shared/benchmark/generate';
import { fitNearestTask } from '../../shared/routing/nearest-task';
import { requestText } from '../../shared/routing/route';
import { fitTaskRouter } from '../../shared/gateway/task-router';

/** Requests no family of the benchmark serves (chat, trivia, creative writing, code). */
const UNRELATED = [
  'Write a haiku about the sea.',
  'Tell me a joke about penguins.',
  'What is the capital of France?',
  'Summarize the plot of Hamlet in two sentences.',
  'Who won the football world cup in 1998?',
  'Write a Python function that reverses a linked list.',
  'Give me three ideas for a birthday party.',
  'Explain how photosynthesis works to a child.',
];

describeRequiring('sentence-encoder', 'the router threshold with the sentence encoder', () => {
  it('routes the held-out requests of the benchmark families and leaves unrelated requests unrouted', async () => {
    const traces = generateBenchmark({ fit: 10, eval: 20 });
    const fit = traces.filter((t) => t.split === 'fit');
    const held = traces.filter((t) => t.split === 'eval');
    const texts = [...fit, ...held].map(requestText).concat(UNRELATED);
    const { vectors } = await embedWithModel(pulledSentenceEncoder()!, texts, { gpu: 'cpu', threads: 1 });
    const router = fitNearestTask(fit.map((t, i) => ({ task: t.task!, vector: vectors[i]! })))!;
    expect(router.threshold).toMatchObject({ from: 'data', samples: 100 });
    const threshold = router.threshold.value!;
    const heldDecisions = held.map((_, i) => router.route(vectors[fit.length + i]!));
    const unrelated = UNRELATED.map((_, i) => router.route(vectors[fit.length + held.length + i]!));
    const heldSims = heldDecisions.map((d) => d.similarity);
    const unrelatedSims = unrelated.map((d) => d.similarity);
    // The same with the gateway's default embedding (hashed TF-IDF), for the docs' comparison.
    const tfidf = fitTaskRouter(fit.map((t) => ({ task: t.task!, text: requestText(t) })))!;
    const tfHeld = held.map((t) => tfidf(requestText(t)));
    const tfUnrelated = UNRELATED.map((t) => tfidf(t));
    console.log(
      `route threshold, 10 families × 10 fitting requests: all-MiniLM-L6-v2 ${threshold.toFixed(3)} (held-out min ${Math.min(...heldSims).toFixed(3)}, ` +
        `unrelated max ${Math.max(...unrelatedSims).toFixed(3)}); TF-IDF ${tfidf.threshold.value!.toFixed(3)} (held-out min ${Math.min(...tfHeld.map((d) => d.similarity)).toFixed(3)}, ` +
        `unrelated max ${Math.max(...tfUnrelated.map((d) => d.similarity)).toFixed(3)})`,
    );
    // Every held-out request is routed, to its own family; every unrelated one is unrouted.
    heldDecisions.forEach((d, i) => expect(d.task).toBe(held[i]!.task));
    for (const d of unrelated) expect(d.task).toBeUndefined();
    tfHeld.forEach((d, i) => expect(d.task).toBe(held[i]!.task));
    for (const d of tfUnrelated) expect(d.task).toBeUndefined();
  }, 600_000);
});
