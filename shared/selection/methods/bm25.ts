// BM25: the top-K tools by lexical match of the fitting requests against tool names, descriptions and
// schemas (paper B.1).
import { bm25TaskRanking } from '../../benchmark/bm25';
import type { ToolDef } from '../../trace/schema';
import { PER_TASK_BASELINE, type SelectionMethod } from '../method';

export function bm25Space(registry: readonly ToolDef[], requests: readonly string[], k: number): string[] {
  return bm25TaskRanking(registry, requests)
    .slice(0, k)
    .map((r) => r.tool);
}

export const bm25: SelectionMethod<'bm25'> = {
  id: 'bm25',
  label: 'BM25',
  definition: "the top-K tools by BM25 match of the fitting requests against the tools' names, descriptions and schemas",
  ...PER_TASK_BASELINE,
  async select(ctx) {
    const k = Math.min(ctx.k, ctx.registry.length);
    return { k, menus: [bm25Space(ctx.registry, ctx.requests.fit, k)] };
  },
};
