import '../page'; // first: the DOM the view is drawn in (tests/renderer/page.ts says why not @vitest-environment)
// The Demo view's reviewer rows and its differences (issues 39 and 40), against the real engine service on
// a demo project built with the engine's own writers (tests/renderer/demo-project.ts): the gold-chain
// oracle and LOTS at K = 2 and 4 beside LOTS and keep-all with LOTS's paired difference; a sentence on how
// to add them when a run has none; the spread over seeds (mean ± sd, range) for a `--seeds N` run; one
// click on a request where the menus differ shows it under both menus side by side (a real evaluation
// request of the bundled sample project, read back from the project and executed again under LOTS's space
// by the benchmark's executor); the view-only link replaces the run card and disables the walk-through,
// saying why.
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import type { DemoRecord } from '../../../shared/project/demo';
import { demoProject, evalResult, REQUESTS, sampleDemoRecord } from '../demo-project';
import { renderStudio } from '../studio';

afterEach(cleanup);

/** The fifth evaluation request: LOTS answered it right, keep-all wrong (in every run below). */
const REQUEST = REQUESTS[4]!; // table_total-0008

/** A demo project whose table_total sweep holds `methods` (method → outcome per request), LOTS at 150 prompt tokens, keep-all at 590. */
function story(methods: Record<string, number[]>, record?: DemoRecord): string {
  const results = Object.entries(methods).map(([m, c], i) => evalResult(m, c, m === 'keep-all' ? 590 : 150 + 10 * i));
  return demoProject(results, record);
}

const twelve = (right: number) => Array.from({ length: 12 }, (_, i) => (i < right ? 1 : 0));

describe('Demo view: reference rows, seeds, differences side by side (issues 39 and 40)', () => {
  it('shows the oracle and LOTS at K = 2 and 4 beside LOTS and keep-all, with LOTS minus each', async () => {
    const data = story({ lots: twelve(9), 'keep-all': twelve(4), oracle: twelve(11), 'lots-k2': twelve(7), 'lots-k4': twelve(8) });
    await renderStudio({ view: 'demo' }, { dir: data });
    const table = await screen.findByTestId('demo-reference-table');
    const rows = [...table.querySelectorAll('tbody tr')];
    expect(rows.map((r) => r.getAttribute('data-method'))).toEqual(['lots', 'oracle', 'lots-k2', 'lots-k4', 'keep-all']);
    const oracle = within(rows[1] as HTMLElement);
    expect(oracle.getByText('Oracle (gold chain)')).toBeTruthy();
    expect(rows[1]!.textContent).toContain('92%');
    expect(rows[1]!.textContent).toMatch(/−17 pts/);
    expect(rows[2]!.textContent).toContain('LOTS K=2');
    expect(rows[2]!.textContent).toMatch(/\+17 pts/);
  });

  it("shows the paper's Table 9 under them: every ranking at the same K, LOTS's top-K minus each", async () => {
    const results = Object.entries({
      lots: twelve(9),
      'keep-all': twelve(4),
      'lots-k2': twelve(7),
      'lots-k4': twelve(8),
      'dense-k2': twelve(3),
      'random-k4': twelve(2),
    }).map(([m, c], i) => evalResult(m, c, m === 'keep-all' ? 590 : 150 + 10 * i));
    const data = demoProject(results.map((r) => (r.name === 'random-k4' ? { ...r, draws: 1 } : r)));
    await renderStudio({ view: 'demo' }, { dir: data });
    const table = await screen.findByTestId('demo-fixed-k-table');
    const rows = [...table.querySelectorAll('tbody tr')];
    expect(rows.map((r) => r.getAttribute('data-method'))).toEqual(['lots', 'dense', 'random']);
    const cells = (r: Element) => [...r.querySelectorAll('td')].map((td) => td.textContent);
    expect(cells(rows[0]!)).toEqual(['LOTS', '58%', '67%', '—', '—']);
    // Dense at K = 2: 3 of 12 against LOTS's 7 of 12 at K = 2 → +33 points; not measured at K = 4.
    expect(cells(rows[1]!).slice(1, 3)).toEqual(['25%', '—']);
    expect(cells(rows[1]!)[3]).toMatch(/^\+33 pts \[/);
    expect(cells(rows[2]!)[4]).toMatch(/^\+50 pts \[/);
    // Random says how many draws it rests on.
    expect(cells(rows[2]!)[0]).toBe('Random (1 draw)');
    // The fixed-K rankings have this table: the charts above compare the methods at LOTS's own K.
    const charts = document.querySelectorAll('svg[aria-label^="Accuracy per method"], svg[aria-label^="Prompt tokens per request"]');
    expect(charts).toHaveLength(2);
    for (const chart of charts) {
      expect(chart.getAttribute('aria-label')).toContain('LOTS K=2');
      expect(chart.getAttribute('aria-label')).not.toMatch(/Dense K=2|Random K=4/);
    }
    // The fixed-K baselines are not reference rows of the table above.
    const reference = [...(await screen.findByTestId('demo-reference-table')).querySelectorAll('tbody tr')].map((r) => r.getAttribute('data-method'));
    expect(reference).toEqual(['lots', 'lots-k2', 'lots-k4', 'keep-all']);
  });

  it('shows LOTS pinned + deferred with how many requests asked for a deferred tool and how many were then right', async () => {
    const called = (i: number) => (i === 9 || i === 10 ? { called: ['Barcode'] } : {});
    const deferred = evalResult('lots-deferred', twelve(10), 170);
    deferred.outcomes = deferred.outcomes!.map((o, i) => ({ ...o, ...called(i) }));
    const data = demoProject([
      evalResult('lots', twelve(9), 150),
      evalResult('keep-all', twelve(4), 590),
      { ...deferred, deferred: ['Barcode'], deferredCalls: 2 },
    ]);
    await renderStudio({ view: 'demo' }, { dir: data });
    const table = await screen.findByTestId('demo-reference-table');
    const rows = [...table.querySelectorAll('tbody tr')];
    expect(rows.map((r) => r.getAttribute('data-method'))).toEqual(['lots', 'lots-deferred', 'keep-all']);
    expect(rows[1]!.textContent).toContain('LOTS pinned + deferred');
    expect(rows[1]!.textContent).toMatch(/−8 pts/);
    expect(within(rows[1] as HTMLElement).getByTestId('demo-deferred-calls').textContent).toBe('Asked for a deferred tool on 2 of 12 requests, 1 then right.');
  });

  it('shows the deletion ablation: LOTS less its top tool and less a random one, with LOTS minus each', async () => {
    await renderStudio({ view: 'demo' }, { dir: story({ lots: twelve(9), 'keep-all': twelve(4), 'lots-drop-top': twelve(3), 'lots-drop-random': twelve(7) }) });
    const table = await screen.findByTestId('demo-reference-table');
    expect([...table.querySelectorAll('tbody tr')].map((r) => r.getAttribute('data-method'))).toEqual([
      'lots',
      'lots-drop-top',
      'lots-drop-random',
      'keep-all',
    ]);
    const top = table.querySelector('tr[data-method="lots-drop-top"]')!.textContent;
    expect(top).toContain('LOTS − top tool');
    expect(top).toContain('25%');
    expect(top).toMatch(/\+50 pts/);
    expect(table.querySelector('tr[data-method="lots-drop-random"]')!.textContent).toMatch(/LOTS − a random tool.*58%.*\+17 pts/);
    expect(screen.getByTestId('demo-reference').textContent).toContain(
      '(the deletion ablation) shows whether the ranking put first what the answers depend on',
    );
  });

  it('says how to add the reference rows when the run has none, and shows no seed table for one seed', async () => {
    await renderStudio({ view: 'demo' }, { dir: story({ lots: twelve(9), 'keep-all': twelve(4) }) });
    expect((await screen.findByTestId('demo-reference-missing')).textContent).toContain('lots demo --baselines all');
    expect(screen.queryByTestId('demo-seeds')).toBeNull();
  });

  it('says, under the provenance, which seeds were served before the one-sequence decode, and nothing once all were', async () => {
    const base = sampleDemoRecord();
    const seed = (s: string, decode?: 'one-sequence') => ({
      seed: s,
      project: s === '0' ? '.' : `seeds/seed-${s}`,
      accuracy: { lots: 0.5, 'keep-all': 0.3 } as Record<string, number>,
      lotsMinus: { 'keep-all': { difference: 0.2, lo: 0.1, hi: 0.3, n: 400 } },
      ...(decode ? { decode } : {}),
    });
    const record: DemoRecord = { ...base, decode: 'one-sequence', seeds: [seed('0', 'one-sequence'), seed('1'), seed('2', 'one-sequence')] };
    await renderStudio({ view: 'demo' }, { dir: story({ lots: twelve(9), 'keep-all': twelve(4) }, record) });
    const caveat = await screen.findByTestId('demo-decode-caveat');
    expect(caveat.textContent).toMatch(
      /^Seed 1 of this run was served before 2026-12-07, when the requests sharing a decode batch could change one another's replies/,
    );
    expect(caveat.getAttribute('role')).toBe('note');
    cleanup();
    const fixed: DemoRecord = { ...record, seeds: record.seeds!.map((p) => ({ ...p, decode: 'one-sequence' as const })) };
    await renderStudio({ view: 'demo' }, { dir: story({ lots: twelve(9), 'keep-all': twelve(4) }, fixed) });
    await screen.findByTestId('demo-provenance');
    expect(screen.queryByTestId('demo-decode-caveat')).toBeNull();
  });

  it('shows the spread over seeds: mean ± sd and range, and each seed’s paired interval', async () => {
    const base = sampleDemoRecord();
    const seed = (s: string, lots: number, all: number, lo: number, hi: number) => ({
      seed: s,
      project: s === '0' ? '.' : `seeds/seed-${s}`,
      accuracy: { lots, 'keep-all': all } as Record<string, number>,
      lotsMinus: { 'keep-all': { difference: lots - all, lo, hi, n: 400 } },
    });
    const seeds = [seed('0', 0.5, 0.3, 0.15, 0.25), seed('1', 0.6, 0.3, 0.25, 0.35), seed('2', 0.55, 0.25, 0.25, 0.35)];
    // The oracle was evaluated in seed 0 only: its mean says it rests on one seed.
    seeds[0]!.accuracy = { ...seeds[0]!.accuracy, oracle: 0.7 };
    const record: DemoRecord = { ...base, seeds, resumedWith: ['lots demo --out d --seeds 3'] };
    await renderStudio({ view: 'demo' }, { dir: story({ lots: twelve(9), 'keep-all': twelve(4) }, record) });
    const table = await screen.findByTestId('demo-seeds-table');
    // The provenance says which variant was measured and what it measures.
    expect(screen.getByTestId('demo-variant').textContent).toBe(
      "The faithful variant of the benchmark (the paper's protocol: the chain's last tool prints the final answer).",
    );
    const lots = table.querySelector('tr[data-method="lots"]')!.textContent;
    expect(lots).toContain('55.0% ± 5.0% (50.0% … 60.0%)');
    const all = table.querySelector('tr[data-method="keep-all"]')!.textContent;
    expect(all).toContain('+26.7 ± 5.8 (+20.0 … +30.0)');
    expect(all).toContain('0: [+15.0, +25.0] · 1: [+25.0, +35.0] · 2: [+25.0, +35.0]');
    expect(all).not.toContain('of 3 seeds');
    // The headline's figures are seed 0's, and it says so with the mean over the seeds.
    expect(screen.getByTestId('demo-headline-seeds').textContent).toBe(
      ' That is seed 0; over the 3 seeds LOTS answers 55% ± 5% and keep-all 28% ± 3% (LOTS − keep-all +27 ± 6 points).',
    );
    // The command that added the seeds is shown after the first one.
    expect(screen.getByTestId('demo-command-resumed').textContent).toBe('lots demo --out d --seeds 3');
    // One seed's value is shown alone: a "± 0.0%" would read as three seeds that agree.
    const oracle = table.querySelector('tr[data-method="oracle"]')!.textContent;
    expect(oracle).toContain('70.0% (1 of 3 seeds)');
    expect(oracle).not.toContain('±');
    // No fixed-K rows in these seeds: no Table 9 across seeds.
    expect(screen.queryByTestId('demo-seeds-fixed-k')).toBeNull();
  });

  it("shows the paper's Table 9 across seeds where the seeds have the fixed-K rows, Random with its draws", async () => {
    const base = sampleDemoRecord();
    const seed = (s: string, lotsK2: number, denseK2: number, lo: number, hi: number) => ({
      seed: s,
      project: s === '0' ? '.' : `seeds/seed-${s}`,
      accuracy: { lots: 0.5, 'keep-all': 0.3, 'lots-k2': lotsK2, 'dense-k2': denseK2, 'random-k2': 0.02 } as Record<string, number>,
      lotsMinus: { 'keep-all': { difference: 0.2, lo: 0.1, hi: 0.3, n: 400 } },
      fixedK: {
        'dense-k2': { difference: lotsK2 - denseK2, lo, hi, n: 400 },
        'random-k2': { difference: lotsK2 - 0.02, lo: 0.2, hi: 0.4, n: 400, draws: 5 },
      },
    });
    const seeds = [seed('0', 0.35, 0.1, 0.2, 0.3), seed('1', 0.3, 0.1, 0.15, 0.25), seed('2', 0.4, 0.1, 0.25, 0.35)];
    await renderStudio({ view: 'demo' }, { dir: story({ lots: twelve(9), 'keep-all': twelve(4) }, { ...base, seeds }) });
    const table = await screen.findByTestId('demo-seeds-fixed-k');
    expect([...table.querySelectorAll('tbody tr')].map((r) => r.getAttribute('data-method'))).toEqual(['lots-k2', 'dense-k2', 'random-k2']);
    const dense = table.querySelector('tr[data-method="dense-k2"]')!.textContent;
    expect(dense).toContain('10.0% ± 0.0% (10.0% … 10.0%)');
    expect(dense).toContain('+25.0 ± 5.0 (+20.0 … +30.0)');
    expect(dense).toContain('0: [+20.0, +30.0] · 1: [+15.0, +25.0] · 2: [+25.0, +35.0]');
    expect(table.querySelector('tr[data-method="random-k2"]')!.textContent).toContain('(5 draws)');
    // LOTS's own top K has no difference with itself.
    expect(table.querySelector('tr[data-method="lots-k2"]')!.textContent).toContain('35.0% ± 5.0% (30.0% … 40.0%)—');
    // The main seed table keeps its methods: no fixed-K ranking there.
    expect(screen.getByTestId('demo-seeds-table').querySelector('tr[data-method="dense-k2"]')).toBeNull();
  });

  it('one click on a differing request shows it under both menus side by side', async () => {
    const { calls } = await renderStudio({ view: 'demo' }, { dir: story({ lots: twelve(9), 'keep-all': twelve(4) }) });
    // The requests LOTS answered right and keep-all wrong (the fifth to the ninth), each with its text read from the project.
    const differences = within(await screen.findByTestId('demo-differences'));
    expect(differences.getAllByRole('button', { name: /^Compare .* under both menus$/ }).map((b) => b.getAttribute('aria-label'))).toEqual(
      REQUESTS.slice(4, 9).map((id) => `Compare ${id} under both menus`),
    );
    fireEvent.click(await screen.findByRole('button', { name: `Compare ${REQUEST} under both menus` }));
    const compare = await screen.findByTestId('demo-diff-compare');
    await waitFor(() => expect(within(compare).getByTestId('demo-diff-lots')).toBeTruthy());
    // The request was read from the project (the page asked the engine for it).
    expect(calls.get('getTrace')).toBe(1);
    const lots = within(compare).getByTestId('demo-diff-lots');
    const all = within(compare).getByTestId('demo-diff-all');
    // LOTS's side: only its two tools, executed again; keep-all's: all 15, the 13 LOTS dropped greyed.
    expect([...lots.querySelectorAll('li[data-tool]')].map((l) => l.getAttribute('data-tool'))).toEqual(['TableQuery', 'Calculator']);
    expect(lots.textContent).toContain('Calculator: 9900.36');
    expect(lots.textContent).toContain('answered right');
    expect(all.querySelectorAll('li[data-tool]')).toHaveLength(15);
    expect(all.querySelectorAll('li.not-in-space')).toHaveLength(13);
    expect(all.textContent).toContain('answered wrong');
    expect(compare.textContent).toContain('Gold answer: 9900.36');
    expect(compare.textContent).toContain('executed again with only its tools');
    // The trace itself is one more click away.
    fireEvent.click(within(compare).getByTestId('demo-diff-open-trace'));
    await waitFor(() => expect(screen.getByTestId('view-trace')).toBeTruthy());
  });

  it('under the view-only link: no run card, the walk-through disabled with the reason', async () => {
    const { calls } = await renderStudio({ view: 'demo' }, { dir: story({ lots: twelve(9), 'keep-all': twelve(4) }), viewOnly: true });
    await screen.findByTestId('demo-story');
    expect(screen.queryByTestId('demo-run')).toBeNull();
    expect(screen.getByTestId('view-only-note')).toBeTruthy();
    const build = screen.getByTestId<HTMLButtonElement>('demo-build');
    expect(build.disabled).toBe(true);
    expect(screen.getByTestId('demo-why-build').textContent).toContain('view-only link');
    expect(calls.get('getDemoSetup')).toBeUndefined();
  });
});
