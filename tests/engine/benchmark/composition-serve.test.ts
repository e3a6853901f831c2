// How the server treats a composition request: it asks for the calculation and its result, so the reply may
// run to 48 tokens (16 elsewhere, or whatever the server was told), and the number after the first "=" is graded.
import { describe, expect, it } from 'vitest';
import { answerTokens, DEFAULT_MAX_TOKENS, gradeServed, servedVariant } from '../../../electron/engine/benchmark/server';
import { generateBenchmark } from '../../../shared/benchmark/generate';
import { instantiate } from '../../../shared/benchmark/instance';
import { formatNumber } from '../../../shared/benchmark/format';
import { COMPOSITION_MAX_TOKENS } from '../../../shared/benchmark/variant';

const request = (variant: 'faithful' | 'composition') => generateBenchmark({ seed: '0', families: ['fx_settle'], fit: 1, eval: 0, variant })[0]!;

describe('serving a composition request', () => {
  it('gives the reply room for the calculation unless the server was told otherwise', () => {
    expect(answerTokens(servedVariant(request('composition')), undefined)).toBe(COMPOSITION_MAX_TOKENS);
    expect(answerTokens(servedVariant(request('faithful')), undefined)).toBe(DEFAULT_MAX_TOKENS);
    expect(answerTokens(servedVariant(request('composition')), 8)).toBe(8);
  });

  it('grades the result after the first =, not the first number of the calculation', () => {
    const trace = request('composition');
    const { intermediate, constant } = instantiate('0', 'fx_settle', 0, 'composition').lastStep!;
    const gold = trace.turns[0]!.gold!;
    expect(gradeServed(servedVariant(trace), `${formatNumber(intermediate)} + ${formatNumber(constant)} = ${gold}`, gold)).toBe(true);
    expect(gradeServed(servedVariant(trace), `${formatNumber(intermediate)} + ${formatNumber(constant)} = ${formatNumber(intermediate)}`, gold)).toBe(false);
    // The faithful variant grades the first number: a calculation written first is graded by its first operand.
    const faithful = request('faithful');
    expect(gradeServed(servedVariant(faithful), faithful.turns[0]!.gold!, faithful.turns[0]!.gold)).toBe(true);
    expect(gradeServed(servedVariant(faithful), `1 + 1 = ${faithful.turns[0]!.gold!}`, faithful.turns[0]!.gold)).toBe(false);
  });
});
