// LLM as router (paper §4 "Baselines", B.1): for every request, the serving model is shown the request and
// the name and description of every registry tool, asked for the tools the request needs, and exactly that
// list is served. One short generation per request, paid again for every request; a reply that is not a
// tool list (tool-list.ts) is a counted failure, served with an empty menu (the router chose nothing usable).
import type { SelectionMethod, SelectionSplit } from '../method';
import { parseToolList, toolListing } from '../tool-list';

export const ROUTER_MAX_TOKENS = 48;

export function routerPrompt(request: string, listing: string): string {
  return [
    'You choose the tools an assistant may use to answer a request.',
    '',
    'Tools:',
    listing,
    '',
    `Request: ${request}`,
    '',
    'Reply with the names of the tools this request needs, separated by commas, and nothing else. Reply "none" if it needs no tool.',
  ].join('\n');
}

export const router: SelectionMethod<'router'> = {
  id: 'router',
  label: 'LLM router',
  definition: 'per request, the tools the serving model names when shown the request and every tool’s name and description',
  needsModel: true,
  uses: ['generate'],
  needsLabels: false,
  perRequest: true,
  baseline: true,
  async select(ctx) {
    const started = performance.now();
    const names = ctx.registry.map((t) => t.name);
    const listing = toolListing(ctx.registry);
    const menus: string[][] = [];
    const keyOf = new Map<string, number>();
    const perRequest: Record<SelectionSplit, number[]> = { fit: [], eval: [] };
    let promptTokens = 0;
    let calls = 0;
    let failures = 0;
    let firstFailure = '';
    for (const split of ['fit', 'eval'] as const) {
      for (const request of ctx.requests[split]) {
        ctx.signal?.throwIfAborted();
        const reply = await ctx.generate!(routerPrompt(request, listing), { maxTokens: ROUTER_MAX_TOKENS, signal: ctx.signal });
        promptTokens += reply.promptTokens;
        calls++;
        const parsed = parseToolList(reply.text, names);
        if (!parsed.ok && failures++ === 0) firstFailure = parsed.reason;
        const menu = parsed.ok ? parsed.tools : [];
        const key = [...menu].sort().join(',');
        let index = keyOf.get(key);
        if (index === undefined) {
          index = menus.push(menu) - 1;
          keyOf.set(key, index);
        }
        perRequest[split].push(index);
      }
    }
    const served = [...perRequest.fit, ...perRequest.eval].map((i) => menus[i]!.length);
    const k = served.length ? Math.round(served.reduce((a, b) => a + b, 0) / served.length) : 0;
    return {
      k,
      menus,
      perRequest,
      cost: { per: 'request', promptTokens, calls, failures, seconds: (performance.now() - started) / 1000 },
      ...(failures ? { note: `${failures} of ${calls} replies were not a tool list (first: ${firstFailure}); those requests were served no tools` } : {}),
    };
  },
};
