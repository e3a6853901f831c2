// The trace judge (paper B.1, Table 17): the serving model answers each fitting request under the full
// menu; then, shown that executed trace (the request, every tool's output, the answer it gave — never the
// gold answer), it is asked which tools' outputs the answer depends on. Tools are ranked by how many
// fitting requests named them (ties by name) and the top K, LOTS's budget, are kept. It reads tool
// outputs like LOTS, but attributes them by an explicit judgment instead of a likelihood drop. A reply
// that is not a tool list is a counted failure and names nothing.
import { byName } from '../fit-search';
import type { SelectionMethod } from '../method';
import { parseToolList } from '../tool-list';

export const JUDGE_MAX_TOKENS = 48;

export function judgePrompt(request: string, lines: readonly { tool: string; output: string }[], answer: string): string {
  return [
    'An assistant answered a request after these tools ran. Each line is a tool and its output.',
    '',
    `Request: ${request}`,
    '',
    ...lines.map((l) => `${l.tool}: ${l.output}`),
    '',
    `Answer: ${answer}`,
    '',
    'Which tools’ outputs does this answer depend on? Reply with their names, separated by commas, and nothing else. Reply "none" if it depends on no tool output.',
  ].join('\n');
}

export const traceJudge: SelectionMethod<'trace-judge'> = {
  id: 'trace-judge',
  label: 'Trace judge',
  definition: 'the top-K tools by how often the serving model, shown each fitting trace and its answer, says the answer depends on their output',
  needsModel: true,
  uses: ['generate', 'serveFit'],
  needsLabels: false,
  perRequest: false,
  baseline: true,
  async select(ctx) {
    const started = performance.now();
    const names = ctx.registry.map((t) => t.name);
    const served = await ctx.serveFit!(names, ctx.signal);
    let promptTokens = served.requests.reduce((a, r) => a + r.promptTokens, 0);
    let calls = served.requests.length;
    let failures = 0;
    let firstFailure = '';
    const votes = new Map(names.map((n) => [n, 0]));
    for (const r of served.requests) {
      ctx.signal?.throwIfAborted();
      const reply = await ctx.generate!(judgePrompt(r.request, r.lines, r.answer), { maxTokens: JUDGE_MAX_TOKENS, signal: ctx.signal });
      promptTokens += reply.promptTokens;
      calls++;
      const parsed = parseToolList(reply.text, names);
      if (!parsed.ok) {
        if (failures++ === 0) firstFailure = parsed.reason;
        continue;
      }
      for (const t of parsed.tools) votes.set(t, votes.get(t)! + 1);
    }
    const k = Math.min(ctx.k, names.length);
    const ranked = [...votes.entries()].sort((a, b) => b[1] - a[1] || byName(a[0], b[0]));
    const space = ranked.slice(0, k).map(([t]) => t);
    const judged = served.requests.length - failures;
    return {
      k,
      menus: [space],
      cost: { per: 'fit', promptTokens, calls, failures, seconds: (performance.now() - started) / 1000 },
      note:
        `${judged} of ${served.requests.length} fitting traces judged` +
        (failures ? ` (${failures} replies not a tool list; first: ${firstFailure})` : '') +
        `; votes: ${
          ranked
            .filter(([, v]) => v > 0)
            .map(([t, v]) => `${t} ${v}`)
            .join(', ') || 'none'
        }`,
    };
  },
};
