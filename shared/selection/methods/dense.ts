// Dense (paper B.1): each tool's name and description and each fitting request embedded by a local
// embedding model; tools ranked by mean cosine similarity to the task's fitting requests; the top K
// (LOTS's budget) kept. It sees no trace and no tool output. The paper embeds with BGE; here the
// embedder is the one `SelectionContext.embed` names (the serving GGUF's own embeddings by default).
import { toolText, topBySimilarity } from '../embedding';
import type { BudgetedMethod } from '../method';

export const dense: BudgetedMethod<'dense'> = {
  id: 'dense',
  label: 'Dense',
  follows: 'budget',
  definition: 'the top-K tools by embedding similarity of their descriptions to the fitting requests',
  definitionAt: (k) => `the top ${k} tools by embedding similarity of their descriptions to the fitting requests`,
  needsModel: true,
  uses: ['embed'],
  needsLabels: false,
  perRequest: false,
  baseline: true,
  async select(ctx) {
    const started = performance.now();
    const k = Math.min(ctx.k, ctx.registry.length);
    const texts = [...ctx.registry.map(toolText), ...ctx.requests.fit];
    const { vectors, tokens } = await ctx.embed!(texts, ctx.signal);
    const tools = new Map(ctx.registry.map((t, i) => [t.name, vectors[i]!]));
    const { space, ranked } = topBySimilarity(tools, vectors.slice(ctx.registry.length), k);
    return {
      k,
      menus: [space],
      cost: { per: 'fit', promptTokens: tokens, calls: texts.length, seconds: (performance.now() - started) / 1000 },
      note: `embedder: ${ctx.embedder ?? 'a local model'}; top similarities: ${ranked
        .slice(0, Math.max(k, 3))
        .map(([t, s]) => `${t} ${s.toFixed(3)}`)
        .join(', ')}`,
    };
  },
};
