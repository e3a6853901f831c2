// How the server treats a composition request: it asks for the calculation and its result, so the reply may
// run to 48 tokens (16 elsewhere, or whatever the server was told), and the number after the first "=" is graded.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { main } from '../../../electron/cli/main';
import { ProjectStore } from '../../../electron/engine/store';
import { captureIO as capture } from '../../cli/io';
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

describe('the bench commands leave the answer length to the variant', () => {
  const dir = mkdtempSync(join(tmpdir(), 'lots-composition-serve-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  /** Make a one-family project of `variant`, serve it with the random-weight fixture and give each answer's length.
   * That model's greedy reply is one space per token and never ends on its own, so the length counts the tokens
   * it was allowed. */
  async function servedLengths(variant: 'faithful' | 'composition', extra: string[] = []): Promise<number[]> {
    const out = join(dir, `${variant}${extra.join('')}`);
    expect(await main(['bench', 'make', '--out', out, '--variant', variant, '--families', 'fx_settle', '--fit', '2', '--eval', '0'], capture())).toBe(0);
    expect(await main(['serve', '--project', out, '--model', 'fixture:random', '--gpu', 'cpu', '--threads', '1', ...extra], capture())).toBe(0);
    const served = ProjectStore.open(out).listTraces((t) => t.id.includes('@'));
    expect(served).toHaveLength(2);
    return served.map((t) => t.turns.at(-1)!.answer.length);
  }

  it('lots serve without --max-tokens gives a composition reply 48 tokens (it was cut at the faithful 16 by the flag default)', async () => {
    expect(await servedLengths('composition')).toEqual([COMPOSITION_MAX_TOKENS, COMPOSITION_MAX_TOKENS]);
    expect(await servedLengths('faithful')).toEqual([DEFAULT_MAX_TOKENS, DEFAULT_MAX_TOKENS]);
    expect(await servedLengths('composition', ['--max-tokens', '5'])).toEqual([5, 5]);
  });
});
