// BM25: the top-K tools by lexical match of the fitting requests against tool names, descriptions and
// schemas (paper B.1).
import { bm25TaskRanking, type Bm25Ranked } from '../bm25';
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
  follows: 'budget',
  definition: "the top-K tools by BM25 match of the fitting requests against the tools' names, descriptions and schemas (ties by name)",
  ...PER_TASK_BASELINE,
  async select(ctx) {
    const k = Math.min(ctx.k, ctx.registry.length);
    const ranked = bm25TaskRanking(ctx.registry, ctx.requests.fit);
    const note = tieNote(ranked, k);
    return { k, menus: [ranked.slice(0, k).map((r) => r.tool)], ...(note ? { note } : {}) };
  },
};

/** Says so when the K-th place is shared: the tools tied with it are then kept or left by name alone. */
export function tieNote(ranked: readonly Bm25Ranked[], k: number): string | undefined {
  if (k <= 0 || k >= ranked.length) return undefined;
  const edge = ranked[k - 1]!.mean;
  const tied = ranked.filter((r) => r.mean === edge);
  if (tied.length < 2 || ranked[k]!.mean !== edge) return undefined;
  const kept = tied.filter((r) => ranked.indexOf(r) < k).length;
  return `${tied.length} tools tie at BM25 ${edge.toFixed(2)} for the last ${kept === 1 ? 'place' : `${kept} places`}: kept by name (alphabetical), not by match`;
}
