// Benchmark variants. `faithful` (the default) is the paper's single-step protocol: the chain's last
// tool prints the final answer, and the task is to find that line among the distractors. The other
// variants answer what the faithful one cannot:
// - `composition`: no tool line states the final answer. Every request gains a last step the model
//   must do itself on what the chain returned (add a delivery charge, subtract a walk, correct a
//   reading by an offset stated in the request); distractor outputs keep their numbers. The model is asked
//   to write the calculation on one line, then = and its result ("4515.46 + 1700 = 6215.46"), and the
//   number after the first = is graded: asked for the number alone, the 0.5B and 1.5B models copied the
//   intermediate instead of adding (0 and 1 of 40 right when handed exactly the gold chain; writing the
//   calculation, the 1.5B model got 24 of 40: docs/results.md).
// - `number-free`: the faithful requests with every line outside the gold chain made number-free, so
//   keep-all measures the chain without numeric distraction (a control of the faithful gain).
// - `answer-last`: the faithful requests with the line that states the answer placed last, after
//   every distractor line (a control for where the answer sits in a long prompt).
import type { FamilyInstance, FamilyName } from './family';
import { formatNumber } from './format';
import type { Rng } from '../lots/rng';
import { SENSOR_UNITS, type Scene } from './scene';
import { SENSOR_CONVERSIONS } from './families/sensor';

export const BENCH_VARIANTS = ['faithful', 'composition', 'number-free', 'answer-last'] as const;
export type BenchVariant = (typeof BENCH_VARIANTS)[number];
export const DEFAULT_VARIANT: BenchVariant = 'faithful';

export function isBenchVariant(name: string): name is BenchVariant {
  return (BENCH_VARIANTS as readonly string[]).includes(name);
}

/** One line per variant, for --help texts and reports. */
export const VARIANT_SUMMARIES: Readonly<Record<BenchVariant, string>> = {
  faithful: "the paper's protocol: the chain's last tool prints the final answer",
  composition: 'no tool line states the answer; the model writes the last step on what the chain returned, then = and its result',
  'number-free': 'faithful requests, every line outside the gold chain without numbers (control)',
  'answer-last': 'faithful requests, the line that states the answer placed after every other line (control)',
};

/** The composition variant's system texts: write the calculation, then = and the result. */
export const COMPOSITION_SYSTEM_COMPACT =
  'Answer the request from the tool outputs below ("<Tool>: <output>" lines). Reply on one line: the calculation the request asks for, written with the numbers, then = and its result, e.g. "12.5 + 30 = 42.5". No units.';
export const COMPOSITION_SYSTEM =
  'You answer a request using the outputs of the tools that were run for it, given one line per tool as "<Tool>: <output>". ' +
  'Reply on one line: the calculation the request asks for, written with the numbers, then = and its result, e.g. "12.5 + 30 = 42.5". No units.';
/** Answer tokens a composition reply may take (the calculation and its result); the others take 16. */
export const COMPOSITION_MAX_TOKENS = 48;

/**
 * The part of an answer that is graded. Composition replies write the calculation first: the number right
 * after the first "=" is the result ("4515.46 + 1700 = 6215.46 = 6215.46" → "6215.46"); a reply with no
 * "=" is graded as it is. Every other variant grades the whole answer (its first number).
 */
export function gradedPart(answer: string, variant: BenchVariant): string {
  if (variant !== 'composition') return answer;
  const eq = answer.indexOf('=');
  return eq < 0 ? answer : answer.slice(eq + 1);
}

/**
 * The last step of a composition request: the gold answer is `intermediate op constant`, where the
 * intermediate is what the gold chain prints (for no_tool: the count the request asks for) and the
 * constant is stated in the request.
 */
export interface LastStep {
  intermediate: number;
  op: '+' | '-';
  constant: number;
  /** The sentence appended to the faithful request. */
  text: string;
}

/** A constant of the intermediate's order of magnitude: 2…19 units of a tenth of it (at least 1). */
function sizedConstant(x: number, rng: Rng): number {
  const unit = 10 ** Math.max(0, Math.floor(Math.log10(Math.max(1, Math.abs(x)))) - 1);
  return rng.int(2, 19) * unit;
}

interface StepSpec {
  op: '+' | '-';
  constant: (x: number, rng: Rng) => number;
  text: (constant: string, scene: Scene) => string;
}

const ADD_CHARGE = (what: string): StepSpec => ({
  op: '+',
  constant: sizedConstant,
  text: (c) => `Add a ${what} of ${c} EUR: what is the amount then?`,
});

const STEPS: Readonly<Record<FamilyName, StepSpec>> = {
  table_total: ADD_CHARGE('delivery charge'),
  table_filter: ADD_CHARGE('handling fee'),
  doc_two_facts: ADD_CHARGE('delivery charge'),
  sensor_mean: {
    op: '+',
    constant: sizedConstant,
    text: (c, scene) => `The sensor reads ${c} ${SENSOR_UNITS[scene.sensor.quantity]} too low: what is the corrected value?`,
  },
  sensor_convert: {
    op: '+',
    constant: sizedConstant,
    text: (c, scene) => `The sensor reads ${c} ${SENSOR_CONVERSIONS[scene.sensor.quantity].target} too low in that unit: what is the corrected value?`,
  },
  schedule_gap: {
    op: '-',
    // A multiple of five minutes that leaves at least five minutes of the break.
    constant: (x, rng) => 5 * rng.int(1, Math.max(1, Math.floor((x - 5) / 5))),
    text: (c) => `I need ${c} minutes to walk from one to the other: how many minutes of the break are left?`,
  },
  translate_fact: {
    op: '+',
    constant: sizedConstant,
    text: (c) => `It is to be extended by ${c} metres: how many metres will it be then?`,
  },
  fx_settle: {
    op: '+',
    constant: sizedConstant,
    text: (c) => `The bank adds a fee of ${c} in that currency: what is the amount to pay?`,
  },
  compute_only: { op: '+', constant: sizedConstant, text: (c) => `Then add ${c} to the result.` },
  no_tool: { op: '+', constant: sizedConstant, text: (c) => `Add ${c} to that count and reply with the sum.` },
};

/**
 * The composition request built on a faithful one: the same scene, chain and chain outputs (the
 * chain's last line prints the faithful answer, now an intermediate), the request extended by its last
 * step, and the gold answer computed from the intermediate as printed.
 */
export function composeInstance(family: FamilyName, base: FamilyInstance, scene: Scene, rng: Rng): FamilyInstance & { lastStep: LastStep } {
  const spec = STEPS[family];
  const intermediate = Number(formatNumber(base.goldValue));
  const constant = spec.constant(intermediate, rng);
  const goldValue = spec.op === '+' ? intermediate + constant : intermediate - constant;
  const text = spec.text(formatNumber(constant), scene);
  return { request: `${base.request} ${text}`, goldValue, chain: base.chain, lastStep: { intermediate, op: spec.op, constant, text } };
}
