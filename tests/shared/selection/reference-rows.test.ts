// The reference rows a reviewer asks for beside the baselines: the gold-chain oracle and LOTS at a fixed
// K (paper Table 9's second regime). Run by `--baselines all` and the demo, not by evaluate's default.
import { describe, expect, it } from 'vitest';
import { baselineSpaces } from '../../../shared/benchmark/baselines';
import { registryDefs } from '../../../shared/benchmark/registry';
import type { SelectionContext } from '../../../shared/selection/method';
import { BASELINE_NAMES, DEFAULT_BASELINES, selectionMethod } from '../../../shared/selection/registry';

function ctx(task: string, extra: Partial<SelectionContext> = {}): SelectionContext {
  return {
    task,
    registry: registryDefs('s', 15),
    k: 3,
    space: ['TableQuery', 'Calculator', 'GoogleSearch'],
    requests: { fit: [], eval: [] },
    seed: 's',
    draws: 1,
    ...extra,
  };
}

describe('the oracle row', () => {
  const oracle = selectionMethod('oracle')!;
  // The benchmark hands its answer key over (baselineSpaces sets goldChain for a family); selection knows no family.
  async function oracleMenu(task: string) {
    const [space] = await baselineSpaces({ task, registry: registryDefs('s', 15), k: 3, fittingRequests: [], seed: 's', names: ['oracle'] });
    return space;
  }
  it("serves the family's gold chain, and no tools to no_tool", async () => {
    expect(await oracleMenu('fx_settle')).toMatchObject({ name: 'oracle', k: 3, menus: [['DocRetrieve', 'ExchangeRate', 'Calculator']] });
    expect(await oracleMenu('table_total')).toMatchObject({ k: 2, menus: [['TableQuery', 'Calculator']] });
    expect(await oracleMenu('no_tool')).toMatchObject({ k: 0, menus: [[]] });
  });
  it('keeps only the chain tools the registry has', async () => {
    expect(await oracle.select(ctx('x', { goldChain: ['Calculator', 'NotInRegistry'] }))).toEqual({ k: 1, menus: [['Calculator']] });
  });
  it('says so for a task that is not a benchmark family', async () => {
    const s = await oracleMenu('my-task');
    expect(s!.menus).toEqual([[]]);
    expect(s!.note).toContain('not a benchmark family');
  });
});

describe('LOTS at a fixed K', () => {
  const ranking = ['TableQuery', 'Calculator', 'GoogleSearch', 'UnitConvert'];
  it('keeps the top K of the ranking, whatever K the sweep chose', async () => {
    expect(await selectionMethod('lots-k2')!.select(ctx('table_total', { ranking }))).toEqual({ k: 2, menus: [['TableQuery', 'Calculator']] });
    expect(await selectionMethod('lots-k4')!.select(ctx('table_total', { ranking }))).toEqual({ k: 4, menus: [ranking] });
  });
  it('says so when the measured ranking is shorter than K', async () => {
    const s = await selectionMethod('lots-k4')!.select(ctx('table_total', { ranking: ranking.slice(0, 3) }));
    expect(s.menus).toEqual([ranking.slice(0, 3)]);
    expect(s.note).toBe('the ranking the sweep measured holds 3 tools: served 3, not 4');
  });
});

describe('where the reference rows run', () => {
  it('are baselines for --baselines all and the demo, but not in the default of lots evaluate', () => {
    for (const id of ['oracle', 'lots-k2', 'lots-k4']) {
      expect(BASELINE_NAMES).toContain(id);
      expect(DEFAULT_BASELINES).not.toContain(id);
    }
    expect(DEFAULT_BASELINES).toEqual(['keep-all', 'no-tools', 'random', 'bm25']);
  });
});
