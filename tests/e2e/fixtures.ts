// Generated native traces for the e2e tests and the heatmap benchmark (no files from elsewhere).
import type { StoredScore } from '../../shared/project/scores';
import type { Trace } from '../../shared/trace/schema';
import { mulberry32 as rng } from '../../shared/lots/prng';

export interface TraceSetOptions {
  task: string;
  requests: number;
  tools: number;
  /** Tools exposed per request (a random subset of the registry). */
  exposed?: number;
  seed?: number;
}

export const TOOL_NAMES = [
  'CurrencyConvert',
  'RateLookup',
  'Calculator',
  'TableRead',
  'DocSearch',
  'UnitConvert',
  'Summarize',
  'GoogleSearch',
  'Barcode',
  'DurationCalc',
  'TempConvert',
  'Solver',
];

export function toolName(i: number): string {
  return i < TOOL_NAMES.length ? TOOL_NAMES[i]! : `Tool${String(i).padStart(3, '0')}`;
}

/**
 * Single-step traces in the paper's protocol: each served tool writes one output line; the first two
 * tools hold the answer's evidence. Labels alternate so the correct/wrong filter has something to do.
 */
export function makeLineTraces(o: TraceSetOptions): Trace[] {
  const r = rng(o.seed ?? 7);
  const out: Trace[] = [];
  for (let i = 0; i < o.requests; i++) {
    const k = Math.min(o.tools, o.exposed ?? o.tools);
    const picked = new Set<number>([0, 1]);
    while (picked.size < k) picked.add(Math.floor(r() * o.tools));
    const tools = [...picked]
      .sort((a, b) => a - b)
      .map((t) => ({
        name: toolName(t),
        description: `${toolName(t)}: returns a value for the request`,
        parameters: { type: 'object', properties: { q: { type: 'string' } } },
      }));
    const amount = 100 + Math.floor(r() * 900);
    const rate = (1 + r()).toFixed(3);
    const answer = (amount * Number(rate)).toFixed(2);
    out.push({
      v: 1,
      id: `${o.task}-${String(i).padStart(5, '0')}`,
      task: o.task,
      tools,
      turns: [
        {
          request: `Settle an invoice of ${amount} EUR in USD at today's rate (request ${i}).`,
          steps: [
            {
              kind: 'lines',
              lines: tools.map((t) => ({
                tool: t.name,
                output:
                  t.name === 'RateLookup'
                    ? `EURUSD ${rate}`
                    : t.name === 'CurrencyConvert'
                      ? `${amount} EUR = ${answer} USD`
                      : `${t.name} has nothing relevant`,
              })),
            },
          ],
          answer: `${answer} USD`,
          gold: `${answer} USD`,
          correct: i % 5 !== 3,
        },
      ],
    });
  }
  return out;
}

/** Synthetic score rows with a clear ranking (for views that need scores without running a model). */
export function makeScoreRows(traces: Trace[], run = 'import:synthetic', seed = 11): StoredScore[] {
  const r = rng(seed);
  return traces.map((t) => {
    const scores: Record<string, number> = {};
    t.tools.forEach((tool) => {
      const idx = Number(/\d+$/.exec(tool.name)?.[0] ?? TOOL_NAMES.indexOf(tool.name));
      const base = 1.2 / (1 + Math.max(0, idx));
      scores[tool.name] = Number((base + (r() - 0.5) * 0.3 * base - (r() < 0.05 ? 0.2 : 0)).toFixed(5));
    });
    return {
      key: `${run}|${t.id}`,
      run,
      trace: t.id,
      task: t.task,
      exposed: t.tools.map((x) => x.name),
      scores,
      createdAt: new Date(2025, 0, 1).toISOString(),
    };
  });
}

export function toJsonl(traces: Trace[]): string {
  return traces.map((t) => JSON.stringify(t)).join('\n') + '\n';
}
