// BM25 tool ranking, the search-based baseline (paper B.1 "Baselines"): tools are documents built
// from their names, descriptions and parameter schemas; each fitting request of a task is a query; a
// tool's task score is its mean BM25 score over those requests. It never sees a tool output.
// Works on any ToolDef list, not only the benchmark's.
import type { ToolDef } from '../trace/schema';
import { BM25_EXTRA_STOPWORDS, FUNCTION_WORDS } from './stopwords';

export const BM25_K1 = 1.2;
export const BM25_B = 0.75;

// Function words and documentation filler (stopwords.ts says why BM25's list is longer than DocRetrieve's).
const STOPWORDS: ReadonlySet<string> = new Set([...FUNCTION_WORDS, ...BM25_EXTRA_STOPWORDS]);

/** Lower-case word stems: camelCase and snake_case split, stopwords dropped, plurals folded. */
export function bm25Tokens(text: string): string[] {
  const spaced = text.replace(/([a-z0-9])([A-Z])/g, '$1 $2').replace(/([A-Z]+)([A-Z][a-z])/g, '$1 $2');
  const out: string[] = [];
  for (const word of spaced.toLowerCase().match(/[a-z0-9]+/g) ?? []) {
    if (STOPWORDS.has(word)) continue;
    out.push(stem(word));
  }
  return out;
}

function stem(word: string): string {
  if (word.length > 4 && word.endsWith('ies')) return word.slice(0, -3) + 'y';
  if (word.length > 3 && word.endsWith('s') && !word.endsWith('ss') && !word.endsWith('us')) return word.slice(0, -1);
  return word;
}

/** The text BM25 indexes for a tool: name, description, and every parameter's name and description. */
export function toolDocument(tool: ToolDef): string {
  const parts = [tool.name, tool.description ?? ''];
  const props = (tool.parameters as { properties?: Record<string, { description?: unknown }> } | undefined)?.properties;
  if (props && typeof props === 'object') {
    for (const [name, schema] of Object.entries(props)) {
      parts.push(name);
      if (schema && typeof schema.description === 'string') parts.push(schema.description);
    }
  }
  return parts.join(' ');
}

export class Bm25Index {
  private readonly docs: Array<{ id: string; tf: Map<string, number>; length: number }>;
  private readonly df = new Map<string, number>();
  private readonly avgLength: number;

  constructor(
    documents: ReadonlyArray<{ id: string; text: string }>,
    private readonly k1 = BM25_K1,
    private readonly b = BM25_B,
  ) {
    this.docs = documents.map(({ id, text }) => {
      const tokens = bm25Tokens(text);
      const tf = new Map<string, number>();
      for (const t of tokens) tf.set(t, (tf.get(t) ?? 0) + 1);
      for (const t of tf.keys()) this.df.set(t, (this.df.get(t) ?? 0) + 1);
      return { id, tf, length: tokens.length };
    });
    this.avgLength = this.docs.reduce((a, d) => a + d.length, 0) / Math.max(1, this.docs.length);
  }

  /** BM25 score of every document for the query (Lucene's idf, always positive). */
  score(query: string): Map<string, number> {
    const n = this.docs.length;
    const terms = bm25Tokens(query);
    const out = new Map<string, number>();
    for (const doc of this.docs) {
      let s = 0;
      for (const term of terms) {
        const f = doc.tf.get(term);
        if (!f) continue;
        const df = this.df.get(term) ?? 0;
        const idf = Math.log(1 + (n - df + 0.5) / (df + 0.5));
        s += (idf * f * (this.k1 + 1)) / (f + this.k1 * (1 - this.b + (this.b * doc.length) / (this.avgLength || 1)));
      }
      out.set(doc.id, s);
    }
    return out;
  }
}

export interface Bm25Ranked {
  tool: string;
  /** Mean BM25 score over the task's requests. */
  mean: number;
}

/** Every tool ranked by its mean BM25 score over the requests (descending, ties by name). */
export function bm25TaskRanking(tools: readonly ToolDef[], requests: readonly string[]): Bm25Ranked[] {
  const index = new Bm25Index(tools.map((t) => ({ id: t.name, text: toolDocument(t) })));
  const sums = new Map<string, number>(tools.map((t) => [t.name, 0]));
  for (const request of requests) for (const [tool, s] of index.score(request)) sums.set(tool, sums.get(tool)! + s);
  const ranked = [...sums].map(([tool, sum]) => ({ tool, mean: requests.length ? sum / requests.length : 0 }));
  return ranked.sort((a, b) => b.mean - a.mean || (a.tool < b.tool ? -1 : a.tool > b.tool ? 1 : 0));
}
