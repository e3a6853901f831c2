// The benchmark variants (variant.ts): the composition variant never prints its answer, and the
// two controls of the faithful variant change only what they claim to change.
import { describe, expect, it } from 'vitest';
import { executeMenu } from '../../../shared/benchmark/executor';
import { FAMILY_NAMES } from '../../../shared/benchmark/family';
import { FAMILIES } from '../../../shared/benchmark/families/index';
import { formatNumber } from '../../../shared/benchmark/format';
import { generateBenchmark } from '../../../shared/benchmark/generate';
import { gradeAnswer, numberSpans } from '../../../shared/benchmark/grade';
import { instantiate, lineStating } from '../../../shared/benchmark/instance';
import { MAX_REGISTRY, registryNames } from '../../../shared/benchmark/registry';
import { instanceOfTrace, readBenchMeta, reexecuteWithout } from '../../../shared/benchmark/trace';
import { gradedPart } from '../../../shared/benchmark/variant';
import { linesOf } from './helpers';

const SEEDS = ['0', '1', '2', '7', 'audit'];
const INDICES = Array.from({ length: 12 }, (_, i) => i);
const cases = FAMILY_NAMES.flatMap((family) => SEEDS.flatMap((seed) => INDICES.map((index) => ({ family, seed, index }))));
const digits = /\d/;

describe('composition variant', () => {
  it('no tool line of any menu states a number the grader accepts as the answer (every family, 60 requests each, largest registry)', () => {
    for (const { family, seed, index } of cases) {
      const inst = instantiate(seed, family, index, 'composition');
      const lines = executeMenu(inst, registryNames(seed, MAX_REGISTRY));
      expect(lines).toHaveLength(MAX_REGISTRY);
      for (const line of lines) {
        for (const span of numberSpans(line.output)) {
          expect(gradeAnswer(span, inst.gold).correct, `${family} ${seed}#${index}: ${line.tool} says ${span}, gold ${inst.gold}`).toBe(false);
        }
      }
    }
  });

  it('the gold chain determines the answer: its last line prints the intermediate, the request states the constant', () => {
    for (const { family, seed, index } of cases) {
      const inst = instantiate(seed, family, index, 'composition');
      const faithful = instantiate(seed, family, index);
      const step = inst.lastStep!;
      expect(step, `${family} has a last step`).toBeDefined();
      // Same scene and chain as the faithful request; the faithful answer is now the intermediate.
      expect(inst.scene).toEqual(faithful.scene);
      expect(inst.chain).toEqual(faithful.chain);
      expect(formatNumber(step.intermediate)).toBe(faithful.gold);
      expect(inst.request.startsWith(faithful.request)).toBe(true);
      expect(numberSpans(step.text)).toContain(formatNumber(step.constant));
      expect(inst.gold).toBe(formatNumber(step.op === '+' ? step.intermediate + step.constant : step.intermediate - step.constant));
      expect(inst.gold).not.toBe(faithful.gold);
      const chain = FAMILIES[family].chainTools;
      if (chain.length === 0) continue;
      const lines = executeMenu(inst, chain);
      const last = lines.find((l) => l.tool === inst.chain.at(-1)!.tool)!;
      expect(numberSpans(last.output).map(Number)).toContain(step.intermediate);
      // Without the chain's first tool the intermediate is gone from the chain's last line (a NameError), or the line is gone.
      if (chain.length > 1) {
        const without = executeMenu(inst, chain.slice(1));
        expect(without.find((l) => l.tool === last.tool)?.output ?? '').toMatch(/^NameError/);
      }
    }
  });

  it('distractor outputs carry numbers: under the 15-tool registry several lines outside the chain hold digits', () => {
    for (const { family, seed, index } of cases) {
      const inst = instantiate(seed, family, index, 'composition');
      const chain = new Set<string>(FAMILIES[family].chainTools);
      const numeric = executeMenu(inst, registryNames(seed, 15)).filter((l) => !chain.has(l.tool) && digits.test(l.output));
      expect(numeric.length, `${family} ${seed}#${index}`).toBeGreaterThanOrEqual(4);
    }
  });

  it('the faithful variant does print its answer (what the composition variant removes)', () => {
    const stated = cases.filter(({ family, seed, index }) => {
      const inst = instantiate(seed, family, index);
      return lineStating(executeMenu(inst, registryNames(seed, 15)), inst.gold) !== undefined;
    });
    // Every tool-using family's chain prints it (compute_only's optional Calculator included).
    expect(stated.length).toBeGreaterThanOrEqual(cases.filter((c) => c.family !== 'no_tool').length);
  });

  it('the variant travels in meta.bench: re-execution rebuilds the same request and lines', () => {
    const traces = generateBenchmark({ seed: '3', fit: 1, eval: 1, variant: 'composition', answers: 'gold' });
    for (const t of traces) {
      expect(readBenchMeta(t).variant).toBe('composition');
      const inst = instanceOfTrace(t);
      expect(inst.request).toBe(t.turns[0]!.request);
      expect(inst.gold).toBe(t.turns[0]!.gold);
      const tool = t.tools[0]!.name;
      expect(linesOf(reexecuteWithout(t, 0, tool)).has(tool)).toBe(false);
    }
    // A faithful project writes no variant, so its bytes are those of projects made before variants.
    expect(generateBenchmark({ seed: '3', fit: 1, eval: 0 }).every((t) => !('variant' in (t.meta!.bench as object)))).toBe(true);
  });

  it('asks for the calculation, then = and its result, and grades the number after the first =', () => {
    const inst = instantiate('0', 'table_total', 0, 'composition');
    const trace = generateBenchmark({ seed: '0', families: ['table_total'], fit: 1, eval: 0, registry: 15, variant: 'composition' })[0]!;
    expect(trace.system).toContain('then = and its result');
    expect(generateBenchmark({ seed: '0', families: ['table_total'], fit: 1, eval: 0, registry: 15 })[0]!.system).toContain('final number only');
    const { intermediate, constant } = inst.lastStep!;
    const right = `${formatNumber(intermediate)} + ${formatNumber(constant)} = ${inst.gold}`;
    expect(gradeAnswer(gradedPart(right, 'composition'), inst.gold).correct).toBe(true);
    // Repeating the result after it does not change the grade; copying the intermediate does not pass.
    expect(gradeAnswer(gradedPart(`${right} = ${inst.gold}`, 'composition'), inst.gold).correct).toBe(true);
    expect(gradeAnswer(gradedPart(`${formatNumber(intermediate)} = ${formatNumber(intermediate)}`, 'composition'), inst.gold).correct).toBe(false);
    // A bare number is graded as it is; the faithful variant grades the first number of the whole reply.
    expect(gradeAnswer(gradedPart(inst.gold, 'composition'), inst.gold).correct).toBe(true);
    expect(gradedPart(right, 'faithful')).toBe(right);
  });

  it('an unknown variant is refused with the choices', () => {
    expect(() => generateBenchmark({ variant: 'copy' as never })).toThrow(/unknown benchmark variant "copy"; choose from faithful, composition/);
  });
});

describe('number-free control', () => {
  it('keeps the gold chain and the request, and no line outside the chain holds a digit', () => {
    for (const { family, seed, index } of cases) {
      const inst = instantiate(seed, family, index, 'number-free');
      const faithful = instantiate(seed, family, index);
      expect(inst.request).toBe(faithful.request);
      expect(inst.gold).toBe(faithful.gold);
      const chain = new Set<string>(FAMILIES[family].chainTools);
      const menu = registryNames(seed, 60);
      const lines = executeMenu(inst, menu);
      const before = new Map(executeMenu(faithful, menu).map((l) => [l.tool, l.output]));
      for (const line of lines) {
        if (chain.has(line.tool)) expect(line.output).toBe(before.get(line.tool));
        else expect(line.output, `${family} ${seed}#${index} ${line.tool}`).not.toMatch(digits);
      }
    }
  });
});

describe('answer-last control', () => {
  it('the same lines as the faithful variant, the answer line moved after every other', () => {
    for (const { family, seed, index } of cases) {
      const inst = instantiate(seed, family, index, 'answer-last');
      const faithful = instantiate(seed, family, index);
      const menu = registryNames(seed, 15);
      const lines = executeMenu(inst, menu);
      const before = executeMenu(faithful, menu);
      expect([...lines].sort((a, b) => (a.tool < b.tool ? -1 : 1))).toEqual([...before].sort((a, b) => (a.tool < b.tool ? -1 : 1)));
      if (family === 'no_tool') {
        expect(lines).toEqual(before);
        continue;
      }
      const last = lines.at(-1)!;
      expect(last.tool).toBe(faithful.chain.at(-1)!.tool);
      expect(numberSpans(last.output).some((s) => gradeAnswer(s, inst.gold).correct)).toBe(true);
    }
  });
});
