// Tool2Vec (paper B.1, after Moon et al. 2024): the serving model writes queries a user might send for each
// tool from its name and description (the paper: 20 per tool); the queries are embedded and averaged into
// the tool's vector; tools are ranked by similarity to the task's fitting requests and the top K kept.
// The tool vectors depend only on the registry, so a run computes them once (`SelectionContext.memo`).
import { meanUnit, toolText, topBySimilarity } from '../embedding';
import type { BudgetedMethod, SelectionContext } from '../method';

export const TOOL2VEC_QUERIES = 20;
/** Twenty short requests of about a dozen tokens each. */
export const TOOL2VEC_MAX_TOKENS = 320;

export function queriesPrompt(tool: { name: string; description?: string | undefined }, n = TOOL2VEC_QUERIES): string {
  return [
    `Here is a tool. ${toolText(tool)}`,
    '',
    `Write ${n} different short requests a user might send that this tool would help answer. One request per line, no numbering, nothing else.`,
  ].join('\n');
}

/** The query lines of a reply: non-empty lines, list markers and numbering removed, duplicates dropped. */
export function parseQueries(reply: string, n = TOOL2VEC_QUERIES): string[] {
  const out: string[] = [];
  for (const line of reply.split('\n')) {
    const q = line
      .trim()
      .replace(/^(?:[-*•]|\d+[.)])\s*/, '')
      .replace(/^["']|["']$/g, '')
      .trim();
    if (q !== '' && !out.includes(q)) out.push(q);
    if (out.length === n) break;
  }
  return out;
}

interface ToolVectors {
  vectors: Map<string, Float64Array>;
  promptTokens: number;
  calls: number;
  /** Tools whose reply held no query: their vector is their description's, and they are listed. */
  fallbacks: string[];
  queries: number;
  /** Seconds spent writing and embedding the queries. */
  seconds: number;
}

/** The registry's tool vectors, computed once per run (`ctx.memo`), and whether this method (`ctx.payer`)
 * pays for them here: the first time it meets them in the run, whether it computed them or not. The method
 * is marked as having paid only once the vectors exist, so a computation cut off halfway (cancelled, or
 * the model failing) leaves the next attempt to pay. */
async function toolVectors(ctx: SelectionContext): Promise<{ value: ToolVectors; reused: boolean; charged: boolean }> {
  const key = `tool2vec\u0000${ctx.embedder ?? ''}\u0000${ctx.registry.map(toolText).join('\u0001')}`;
  const paidKey = `${key}\u0000paid by\u0000${ctx.payer ?? 'tool2vec'}`;
  const charged = !ctx.memo?.has(paidKey);
  const hit = ctx.memo?.get(key) as ToolVectors | undefined;
  if (hit) {
    ctx.memo?.set(paidKey, true);
    return { value: hit, reused: true, charged };
  }
  const started = performance.now();
  const value: ToolVectors = { vectors: new Map(), promptTokens: 0, calls: 0, fallbacks: [], queries: 0, seconds: 0 };
  for (const tool of ctx.registry) {
    ctx.signal?.throwIfAborted();
    const reply = await ctx.generate!(queriesPrompt(tool), { maxTokens: TOOL2VEC_MAX_TOKENS, signal: ctx.signal });
    value.promptTokens += reply.promptTokens;
    value.calls++;
    let queries = parseQueries(reply.text);
    if (queries.length === 0) {
      value.fallbacks.push(tool.name);
      queries = [toolText(tool)];
    }
    value.queries += queries.length;
    const embedded = await ctx.embed!(queries, ctx.signal);
    value.promptTokens += embedded.tokens;
    value.calls += queries.length;
    value.vectors.set(tool.name, meanUnit(embedded.vectors));
  }
  value.seconds = (performance.now() - started) / 1000;
  ctx.memo?.set(key, value);
  ctx.memo?.set(paidKey, true);
  return { value, reused: false, charged };
}

export const tool2vec: BudgetedMethod<'tool2vec'> = {
  id: 'tool2vec',
  label: 'Tool2Vec',
  follows: 'budget',
  definition: `the top-K tools by similarity to the fitting requests of the mean embedding of ${TOOL2VEC_QUERIES} queries the serving model writes per tool`,
  definitionAt: (k) =>
    `the top ${k} tools by similarity to the fitting requests of the mean embedding of ${TOOL2VEC_QUERIES} queries the serving model writes per tool`,
  needsModel: true,
  uses: ['generate', 'embed'],
  needsLabels: false,
  perRequest: false,
  baseline: true,
  async select(ctx) {
    const started = performance.now();
    const k = Math.min(ctx.k, ctx.registry.length);
    const { value, reused, charged } = await toolVectors(ctx);
    const requests = await ctx.embed!(ctx.requests.fit, ctx.signal);
    const { space } = topBySimilarity(value.vectors, requests.vectors, k);
    // The tool vectors are paid once per registry and method: the first task pays for them (with the time
    // they took, where another method computed them), a later task pays only for its requests.
    const vectorsTime = charged && reused ? value.seconds : 0;
    return {
      k,
      menus: [space],
      cost: {
        per: 'fit',
        promptTokens: (charged ? value.promptTokens : 0) + requests.tokens,
        calls: (charged ? value.calls : 0) + ctx.requests.fit.length,
        seconds: (performance.now() - started) / 1000 + vectorsTime,
      },
      note:
        `embedder: ${ctx.embedder ?? 'a local model'}; ${value.queries} queries for ${value.vectors.size} tools` +
        (reused ? (charged ? ' (tool vectors computed once in this run, their cost counted here)' : ' (tool vectors reused from an earlier task)') : '') +
        (value.fallbacks.length ? `; no query written for ${listSome(value.fallbacks)} (their description embedded instead)` : ''),
    };
  },
};

function listSome(names: readonly string[], shown = 3): string {
  return names.length <= shown ? names.join(', ') : `${names.slice(0, shown).join(', ')} and ${names.length - shown} more`;
}
