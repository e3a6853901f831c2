// The demo report names a non-default benchmark variant and, for a --seeds run, the spread across seeds.
import { describe, expect, it } from 'vitest';
import type { DemoData } from '../../../shared/api/types';
import { renderDemoReport } from '../../../shared/export/demo-report';
import type { DemoRecord } from '../../../shared/project/demo';

const record: DemoRecord = {
  v: 1,
  model: '/m/q.gguf',
  modelName: 'q.gguf',
  modelHash: 'h',
  command: 'lots demo --out d --variant composition --seeds 2',
  machine: '2 × cpu',
  startedAt: '2026-12-04T22:00:00.000Z',
  preset: { name: 'quick', families: ['table_total'], fit: 2, eval: 4, registry: 15, draws: 2, kMax: 4, seed: '0', seeds: 2, variant: 'composition' },
  growth: [],
  seeds: [
    { seed: '0', project: '.', accuracy: { lots: 0.5, 'keep-all': 0.25 }, lotsMinus: { 'keep-all': { difference: 0.25, lo: 0, hi: 0.5, n: 4 } } },
    { seed: '1', project: 'seeds/seed-1', accuracy: { lots: 0.75, 'keep-all': 0.25 }, lotsMinus: { 'keep-all': { difference: 0.5, n: 4 } } },
  ],
};
const data: DemoData = { record, methods: ['lots', 'keep-all'], tasks: [], mean: {} };

describe('demo report: variant and seeds', () => {
  it('says which variant ran and what it means, and prints mean ± sd across seeds beside each seed’s interval', () => {
    const html = renderDemoReport(data, { projectName: 'p' });
    expect(html).toContain('seed 0 and the next 1, composition variant (no tool line states the answer;');
    expect(html).toContain('<h2>Across seeds</h2>');
    expect(html).toMatch(/keep-all +0\.25 ± 0\.00 \[0\.25, 0\.25\] +\+0\.38 ± 0\.18 +\+0\.25 \[\+0\.00, \+0\.50\] +\+0\.50/);
    expect(html).not.toContain('Every ranking at the same K, across seeds');
  });

  it("with the fixed-K rows in the seeds, the paper's Table 9 across seeds follows", () => {
    const fixed = (p: NonNullable<DemoRecord['seeds']>[number], d: number): NonNullable<DemoRecord['seeds']>[number] => ({
      ...p,
      accuracy: { ...p.accuracy, 'lots-k2': 0.5, 'dense-k2': 0.5 - d },
      fixedK: { 'dense-k2': { difference: d, lo: d - 0.1, hi: d + 0.1, n: 4 } },
    });
    const seeds = [fixed(record.seeds![0]!, 0.25), fixed(record.seeds![1]!, 0.5)];
    const html = renderDemoReport({ ...data, record: { ...record, seeds } }, { projectName: 'p' });
    expect(html).toContain('<h3>Every ranking at the same K, across seeds</h3>');
    expect(html).toMatch(/dense-k2 +0\.13 ± 0\.18 \[0\.00, 0\.25\] +\+0\.38 ± 0\.18 +\+0\.25 \[\+0\.15, \+0\.35\] +\+0\.50 \[\+0\.40, \+0\.60\]/);
  });

  it('a faithful single-seed record shows neither', () => {
    const { seeds: _seeds, ...rest } = record;
    const html = renderDemoReport({ ...data, record: { ...rest, preset: { ...record.preset, seeds: undefined, variant: undefined } } }, { projectName: 'p' });
    expect(html).not.toContain(' variant (');
    expect(html).not.toContain('Across seeds');
  });
});
