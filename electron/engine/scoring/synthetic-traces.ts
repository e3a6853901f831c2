// Generated traces for the scorer's tests and `lots bench scoring`: deterministic per seed, with a
// known ground truth. In every trace one tool's evidence holds the answer's digits and every other
// tool's evidence is built from the remaining digits and words only, so on the evidence-copy model
// removing the answer tool must cost the most likelihood.
import type { Trace } from '../../../shared/trace/schema';
import { mulberry32, shuffle } from '../../../shared/lots/prng';

const TOOL_POOL = [
  'TableQuery',
  'Calculator',
  'SensorAPI',
  'CalendarAPI',
  'DocRetrieve',
  'Translate',
  'ExchangeRate',
  'UnitConvert',
  'TempConvert',
  'CurrencyConvert',
  'DurationCalc',
  'Solver',
  'GoogleSearch',
  'Summarize',
  'Barcode',
];
const WORDS = ['alpha', 'ledger', 'north', 'sensor', 'quiet', 'report', 'delta', 'window', 'harbor', 'copper', 'mint', 'orbit'];

export function toolName(i: number): string {
  return i < TOOL_POOL.length ? TOOL_POOL[i]! : `Tool${String(i + 1).padStart(3, '0')}`;
}

export interface SyntheticOptions {
  count: number;
  tools: number;
  seed?: number;
  task?: string;
}

/** Single-step traces (paper B.2, TGB-style): one `<Tool>: <output>` line per served tool. */
export function singleStepTraces(options: SyntheticOptions): Trace[] {
  const out: Trace[] = [];
  for (let i = 0; i < options.count; i++) {
    const rng = seeded(options.seed ?? 1, i);
    const names = Array.from({ length: options.tools }, (_, k) => toolName(k));
    const answerTool = names[Math.floor(rng() * names.length)]!;
    const { answer, other } = answerDigits(rng);
    const lines = names.map((tool) => ({
      tool,
      output: tool === answerTool ? `total = ${answer}` : distractorOutput(rng, other),
    }));
    out.push({
      v: 1,
      id: `single-${options.seed ?? 1}-${i}`,
      task: options.task ?? 'synthetic-single',
      system: 'Answer the request using the tool outputs, one line per tool. Reply with the number only.',
      tools: names.map(toolDef),
      turns: [{ request: `What is the total for request ${words(rng, 2)}?`, steps: [{ kind: 'lines', lines }], answer }],
      meta: { synthetic: { answerTool } },
    });
  }
  return out;
}

/** Multi-step traces with a parallel call (two tools in one assistant message) and a later call. */
export function multiStepTraces(options: SyntheticOptions): Trace[] {
  const out: Trace[] = [];
  for (let i = 0; i < options.count; i++) {
    const rng = seeded((options.seed ?? 1) + 1000, i);
    const names = Array.from({ length: Math.max(3, options.tools) }, (_, k) => toolName(k));
    const [a, b, c] = pickDistinct(rng, names, 3);
    const { answer, other } = answerDigits(rng);
    out.push({
      v: 1,
      id: `multi-${options.seed ?? 1}-${i}`,
      task: options.task ?? 'synthetic-multi',
      tools: names.map(toolDef),
      turns: [
        {
          request: `Find the ${words(rng, 1)} figure.`,
          steps: [
            {
              kind: 'call',
              text: 'Checking two sources.',
              calls: [
                { id: `c${i}a`, name: a!, arguments: { q: words(rng, 1) } },
                { id: `c${i}b`, name: b!, arguments: { q: words(rng, 1) } },
              ],
            },
            { kind: 'observation', callId: `c${i}a`, name: a!, content: distractorOutput(rng, other), pairing: 'id' },
            { kind: 'observation', callId: `c${i}b`, name: b!, content: distractorOutput(rng, other), pairing: 'id' },
            { kind: 'call', calls: [{ id: `c${i}c`, name: c!, arguments: { q: words(rng, 1) } }] },
            { kind: 'observation', callId: `c${i}c`, name: c!, content: `{"value": ${answer}}`, pairing: 'id' },
          ],
          answer: `The figure is ${answer}.`,
        },
      ],
      meta: { synthetic: { answerTool: c } },
    });
  }
  return out;
}

/** Two-turn traces: the second turn's answer relies on a tool called in the first turn. */
export function multiTurnTraces(options: SyntheticOptions): Trace[] {
  const out: Trace[] = [];
  for (let i = 0; i < options.count; i++) {
    const rng = seeded((options.seed ?? 1) + 2000, i);
    const names = Array.from({ length: Math.max(3, options.tools) }, (_, k) => toolName(k));
    const [a, b, c] = pickDistinct(rng, names, 3);
    const { answer, other } = answerDigits(rng);
    out.push({
      v: 1,
      id: `turns-${options.seed ?? 1}-${i}`,
      task: options.task ?? 'synthetic-turns',
      system: 'You are a careful assistant.',
      tools: names.map(toolDef),
      turns: [
        {
          request: `Look up the ${words(rng, 1)} record.`,
          steps: [
            { kind: 'call', calls: [{ id: `t${i}a`, name: a!, arguments: {} }] },
            { kind: 'observation', callId: `t${i}a`, name: a!, content: `record ${answer}`, pairing: 'id' },
          ],
          answer: `Found record ${answer}.`,
        },
        {
          request: 'And the other one?',
          steps: [
            {
              kind: 'call',
              calls: [
                { id: `t${i}b`, name: b!, arguments: { x: 1 } },
                { id: `t${i}c`, name: c!, arguments: { y: 'z' } },
              ],
            },
            { kind: 'observation', callId: `t${i}b`, name: b!, content: distractorOutput(rng, other), pairing: 'id' },
            { kind: 'observation', callId: `t${i}c`, name: c!, content: distractorOutput(rng, other), pairing: 'id' },
          ],
          answer: `It matches ${answer}.`,
        },
      ],
      meta: { synthetic: { answerTool: a } },
    });
  }
  return out;
}

function toolDef(name: string): Trace['tools'][number] {
  return { name, description: `The ${name} tool.`, parameters: { type: 'object', properties: { q: { type: 'string' } } } };
}

/** A 5-digit answer with distinct digits, and the digits it does not use (for distractors). */
function answerDigits(rng: () => number): { answer: string; other: string[] } {
  const digits = shuffle(['0', '1', '2', '3', '4', '5', '6', '7', '8', '9'], rng);
  if (digits[0] === '0') digits.push(digits.shift()!);
  return { answer: digits.slice(0, 5).join(''), other: digits.slice(5) };
}

function distractorOutput(rng: () => number, digits: readonly string[]): string {
  if (rng() < 0.3) return `no ${words(rng, 2)} found`;
  const n = Array.from({ length: 3 + Math.floor(rng() * 3) }, () => digits[Math.floor(rng() * digits.length)]!).join('');
  return `${words(rng, 1)} ${n}`;
}

function words(rng: () => number, n: number): string {
  return Array.from({ length: n }, () => WORDS[Math.floor(rng() * WORDS.length)]!).join(' ');
}

function pickDistinct<T>(rng: () => number, items: readonly T[], n: number): T[] {
  return shuffle(items, rng).slice(0, n);
}

function seeded(seed: number, index: number): () => number {
  return mulberry32((Math.imul(seed, 0x9e3779b1) ^ Math.imul(index + 1, 0x85ebca6b)) >>> 0);
}
