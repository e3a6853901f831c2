// Benchmark requests as native traces: the task is the family, the split is set, the gold answer sits on
// the turn, and meta.bench holds what rebuilds the request (seed, family, index), so the re-execute
// intervention needs nothing but the trace.
import { z } from 'zod';
import type { ReexecuteExecutor } from '../trace/interventions';
import type { Step, ToolDef, Trace } from '../trace/schema';

import { executeMenu } from './executor';
import { FAMILY_NAMES } from './family';
import { benchTraceId, instantiate, type BenchInstance } from './instance';
import { benchToolDef, presentationOrder, type LineOrder } from './registry';
import { ExpectedError } from '../base/errors';
import { BENCH_VARIANTS, COMPOSITION_SYSTEM, COMPOSITION_SYSTEM_COMPACT, type BenchVariant } from './variant';
import { DEFERRED_HEADER } from './deferred';

export const BENCH_META_VERSION = 1;

export const BENCH_SYSTEM =
  'You answer a request using the outputs of the tools that were run for it, given one line per tool as "<Tool>: <output>". ' +
  'Reply with the final answer only: a single number, without units.';

/** The compact prompt's system text (TGB-style, shorter). */
export const BENCH_SYSTEM_COMPACT = 'Answer the request from the tool outputs below ("<Tool>: <output>" lines). Reply with the final number only, no units.';

export const BenchMetaSchema = z.object({
  v: z.literal(BENCH_META_VERSION),
  seed: z.string(),
  family: z.enum(FAMILY_NAMES),
  index: z.number().int().nonnegative(),
  /** Size of the registry the request was generated with (its menu may be any subset). */
  registry: z.number().int().positive(),
  /** How the menu is shown to the model: `compact` (TGB's style: one line per tool, inline in the
   * system message) or `verbose` (every description and JSON schema through the chat template's
   * function block). Absent: verbose, as projects made before the compact prompt were served. */
  prompt: z.enum(['compact', 'verbose']).optional(),
  /** The order menus and tool lines are listed in (registry.ts). Absent: code-unit order, as projects
   * made before the dependency order were served. */
  order: z.enum(['dependency', 'code-unit']).optional(),
  /** The benchmark variant (variant.ts). Absent: faithful, as every project made before variants. */
  variant: z.enum(BENCH_VARIANTS).optional(),
});
export type BenchMeta = z.infer<typeof BenchMetaSchema>;

export type BenchPrompt = 'compact' | 'verbose';

export interface BenchTraceOptions {
  /** Menu rendering (default compact). */
  prompt?: BenchPrompt;
  /** Listing order of the menu and lines (default dependency). */
  order?: LineOrder;
  /** The served tools (any order; written in canonical order). */
  menu: readonly string[];
  /** Deferred tools (deferred.ts): listed after the menu, not run. */
  deferred?: readonly string[];
  registry: number;
  split: 'fit' | 'eval';
  answer?: string;
  correct?: boolean;
  id?: string;
  model?: string;
  /** Extra meta (e.g. what served it); meta.bench is always set from the instance. */
  meta?: Record<string, unknown>;
}

/** The system text a request is served with: the composition variant asks for the calculation and its result. */
export function systemText(prompt: BenchPrompt, variant: BenchVariant): string {
  if (variant === 'composition') return prompt === 'compact' ? COMPOSITION_SYSTEM_COMPACT : COMPOSITION_SYSTEM;
  return prompt === 'compact' ? BENCH_SYSTEM_COMPACT : BENCH_SYSTEM;
}

export function buildBenchTrace(instance: BenchInstance, options: BenchTraceOptions): Trace {
  const order = options.order ?? 'dependency';
  const menu = presentationOrder(options.menu, order);
  const lines = executeMenu(instance, menu, order);
  const prompt = options.prompt ?? 'compact';
  const served = new Set(menu);
  const deferred = presentationOrder(
    (options.deferred ?? []).filter((t) => !served.has(t)),
    order,
  );
  const render = {
    ...(prompt === 'compact' ? { menu: 'inline' } : {}),
    ...(deferred.length > 0 ? { deferred: { header: DEFERRED_HEADER, tools: deferred.map(compactToolDef) } } : {}),
  };
  const bench: BenchMeta = {
    v: BENCH_META_VERSION,
    seed: instance.seed,
    family: instance.family,
    index: instance.index,
    registry: options.registry,
    prompt,
    ...(order === 'dependency' ? { order } : {}),
    ...(instance.variant !== 'faithful' ? { variant: instance.variant } : {}),
  };
  const trace: Trace = {
    v: 1,
    id: options.id ?? benchTraceId(instance.family, instance.index),
    task: instance.family,
    system: systemText(prompt, instance.variant),
    tools: prompt === 'compact' ? menu.map(compactToolDef) : menu.map(benchToolDef),
    turns: [
      {
        request: instance.request,
        steps: lines.length > 0 ? [{ kind: 'lines', lines }] : [],
        answer: options.answer ?? '',
        gold: instance.gold,
        ...(options.correct === undefined ? {} : { correct: options.correct }),
      },
    ],
    split: options.split,
    meta: { ...options.meta, bench, ...(Object.keys(render).length > 0 ? { render } : {}) },
  };
  if (options.model !== undefined) trace.model = options.model;
  return trace;
}

/** TGB's menu entry: the name and a few words, no parameter schema. */
const COMPACT_DESCRIPTIONS: Readonly<Record<string, string>> = {
  TableQuery: 'rows of a data table',
  Calculator: 'evaluates arithmetic on earlier outputs',
  SensorAPI: 'latest readings of a sensor',
  CalendarAPI: 'events of a calendar day',
  DocRetrieve: 'passages from the document store',
  Translate: 'translates text into English',
  ExchangeRate: 'settlement exchange rate',
  UnitConvert: 'converts length, mass, volume',
  TempConvert: 'converts temperatures',
  CurrencyConvert: 'indicative currency conversion',
  DurationCalc: 'duration between two times',
  Solver: 'solves an equation for x',
  GoogleSearch: 'web search snippets',
  Summarize: 'one-sentence summary',
  Barcode: 'decodes an EAN-13 barcode',
};

function compactToolDef(name: string): ToolDef {
  const def = benchToolDef(name);
  const short =
    COMPACT_DESCRIPTIONS[name] ??
    (def.description ?? '')
      .replace(/[.,;(].*$/s, '')
      .split(/\s+/)
      .slice(0, 6)
      .join(' ');
  return { name: def.name, ...(short ? { description: short } : {}) };
}

export function isBenchTrace(trace: Trace): boolean {
  return BenchMetaSchema.safeParse(trace.meta?.bench).success;
}

export function readBenchMeta(trace: Trace): BenchMeta {
  const parsed = BenchMetaSchema.safeParse(trace.meta?.bench);
  if (!parsed.success) {
    throw new ExpectedError(
      'NOT_A_BENCH_TRACE',
      `trace "${trace.id}" was not generated by the built-in benchmark (meta.bench is missing or invalid), so it cannot be re-executed; use the evidence or line intervention instead`,
    );
  }
  return parsed.data;
}

export function instanceOfTrace(trace: Trace): BenchInstance {
  const meta = readBenchMeta(trace);
  return instantiate(meta.seed, meta.family, meta.index, meta.variant ?? 'faithful');
}

/**
 * Re-execution for the `reexecute` intervention: turn `turnIndex`'s tool lines are rebuilt as if `tool`
 * had not been served. The menu (tool documentation) is left as recorded.
 */
export function reexecuteWithout(trace: Trace, turnIndex: number, tool: string): Trace {
  return reexecuteWithoutTools(trace, turnIndex, [tool]);
}

/** The same without several tools at once (the faithfulness check removes the top-K together): one
 * rebuild from the recorded menu, so a chain missing two links reports what it would really report. */
export function reexecuteWithoutTools(trace: Trace, turnIndex: number, tools: readonly string[]): Trace {
  if (turnIndex !== 0 || trace.turns.length !== 1) {
    throw new ExpectedError('INVALID_INPUT', `trace "${trace.id}": benchmark traces have exactly one turn (asked to re-execute turn ${turnIndex})`);
  }
  const instance = instanceOfTrace(trace);
  const menu = trace.tools.map((t) => t.name);
  const turn = trace.turns[0]!;
  const recorded = turn.steps.find((s) => s.kind === 'lines');
  const order = readBenchMeta(trace).order ?? 'code-unit';
  const expected = executeMenu(instance, menu, order);
  if (JSON.stringify(recorded?.lines ?? []) !== JSON.stringify(expected)) {
    throw new ExpectedError(
      'BENCH_MISMATCH',
      `trace "${trace.id}": its tool lines differ from what this version of the benchmark executes for the same request and menu; regenerate the project with \`lots bench make\``,
    );
  }
  const removed = new Set(tools);
  const lines = executeMenu(
    instance,
    menu.filter((name) => !removed.has(name)),
    order,
  );
  const steps: Step[] = [];
  for (const step of turn.steps) {
    if (step.kind !== 'lines') steps.push(step);
    else if (lines.length > 0) steps.push({ kind: 'lines', lines });
  }
  return { ...trace, turns: [{ ...turn, steps }] };
}

/** The hook the scorer takes for `--intervention reexecute` on benchmark traces. */
export const benchExecutor: ReexecuteExecutor = { reexecuteWithout, reexecuteWithoutTools };
