import '../page'; // first: the DOM the view is drawn in (tests/renderer/page.ts says why not @vitest-environment)
// The Budget view against the real engine service: K starts at the proposal's budget, the kept set follows
// the slider, the sweep button starts the engine's sweep job for the task with the chosen model (which
// fails here, naming the task: the project is no benchmark), a model path that is not there is refused
// and shown as a notice, and a stored sweep draws its accuracy chart.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { financeProject, renderStudio, RUN, TASK, TOOLS } from '../studio';
import type { BaselineResult } from '../../../shared/project/sweeps';

afterEach(cleanup);

const kept = () =>
  within(screen.getByTestId('kept-set'))
    .queryAllByText(/^[A-Z]\w+$/)
    .map((c) => c.textContent);

/** The finance project with a stored sweep of TASK: accuracy at each K of `ks`, its best K, its baselines. */
function projectWithSweep(accuracy: (k: number) => number, bestK: number, ks: number[], n = 2, baselines: BaselineResult[] = []): string {
  const { dir, project } = financeProject();
  project.writeSweep({
    task: TASK,
    model: 'qwen.gguf',
    run: RUN,
    points: ks.map((k) => ({ k, tools: TOOLS.slice(0, k), accuracy: accuracy(k), n, promptTokens: 180 })),
    bestK,
    baselines,
    createdAt: '2026-11-30T09:12:00.000Z',
  });
  return dir;
}

describe('Budget view', () => {
  it('shows K, the kept tools and what they cost; the slider moves them', async () => {
    await renderStudio({ view: 'budget', task: TASK });
    expect((await screen.findByTestId('k-value')).textContent).toBe('K = 3');
    expect(kept()).toEqual([TOOLS[0], TOOLS[1], TOOLS[2]]);
    expect(screen.getByText('3 of 5')).toBeTruthy();
    expect(screen.getByRole('heading', { name: 'Surrogate F̂ against K' })).toBeTruthy();
    expect(screen.queryByRole('heading', { name: 'Fitting accuracy against K' })).toBeNull();
    fireEvent.change(screen.getByTestId('k-slider'), { target: { value: '1' } });
    await waitFor(() => expect(screen.getByTestId('k-value').textContent).toBe('K = 1'));
    expect(kept()).toEqual([TOOLS[0]]);
    fireEvent.change(screen.getByTestId('k-slider'), { target: { value: '0' } });
    expect(await screen.findByText('No tools pinned at K = 0.')).toBeTruthy();
  });

  it('at K: the top K pinned, the other ranked tools deferred, the unscored one hidden, and the menu cost three ways (issue 44)', async () => {
    const { api } = await renderStudio({ view: 'budget', task: TASK });
    expect((await screen.findByTestId('k-value')).textContent).toBe('K = 3');
    const chips = (id: string) => [...screen.getByTestId(id).querySelectorAll('.chip')].map((c) => c.textContent);
    expect(chips('kept-set')).toEqual([TOOLS[0], TOOLS[1], TOOLS[2]]);
    expect(chips('deferred-set')).toEqual([TOOLS[3]]);
    expect(chips('hidden-set')).toEqual([TOOLS[4]]);
    expect(screen.getByTestId('readout-states').textContent).toBe('pinned tools3 of 5+ 1 deferred · 1 hidden');
    // The engine's estimate of each tool's definition, in full and demoted: the view adds them up.
    const { toolSchemaTokens: full, toolDemotedTokens: demoted, menuSchemaTokens: all } = await api.getBudget({ task: TASK });
    const sum = (tools: readonly string[], of: Record<string, number>) => tools.reduce((a, t) => a + of[t]!, 0);
    const pinned3 = sum(TOOLS.slice(0, 3), full);
    expect(pinned3).toBeGreaterThan(0);
    expect(all).toBe(sum(TOOLS, full));
    const cost = (key: string) => screen.getByTestId('budget-menu-cost').querySelector(`tr[data-cost="${key}"]`)!;
    const cells = (key: string) => [...cost(key).querySelectorAll('th, td')].map((c) => c.textContent);
    expect(cells('pinned').slice(0, 1).concat(cells('pinned').slice(2, 3))).toEqual(['pinned only', String(pinned3)]);
    expect(cells('pinned-deferred')[0]).toBe('pinned + 1 deferred');
    const withDeferred = pinned3 + demoted[TOOLS[3]]!;
    expect(cells('pinned-deferred')[2]).toBe(String(withDeferred));
    const fewer = `${((1 - withDeferred / all) * 100).toFixed(0)}%`;
    expect(cells('pinned-deferred')[3]).toBe(`${fewer} fewer than keep-all · deferred tools demoted: name and one line, no schema`);
    expect(cells('keep-all').slice(0, 1).concat(cells('keep-all').slice(2, 3))).toEqual(['keep all 5', String(all)]);
    // Demoting saves tokens here (a demoted tool costs less than its schema): no note that it would not.
    expect(demoted[TOOLS[3]]!).toBeLessThan(full[TOOLS[3]]!);
    expect(screen.queryByTestId('budget-demotion-saves-nothing')).toBeNull();
    // K = 1: two more deferred; the slider's value text names the three states for a screen reader.
    fireEvent.change(screen.getByTestId('k-slider'), { target: { value: '1' } });
    await waitFor(() => expect(chips('deferred-set')).toEqual([TOOLS[1], TOOLS[2], TOOLS[3]]));
    expect(screen.getByTestId('k-slider').getAttribute('aria-valuetext')).toBe('K = 1: 1 pinned, 3 deferred, 1 hidden');
    expect(cells('pinned-deferred')[2]).toBe(String(full[TOOLS[0]]! + sum(TOOLS.slice(1, 4), demoted)));
  });

  it('says when the approved version hides the other ranked tools instead of deferring them (a version from before the third state)', async () => {
    const { dir, project } = financeProject();
    project.acceptSpace({ task: TASK, tools: TOOLS.slice(0, 3), pinned: [], banned: [], rule: { kind: 'topk', k: 3 }, note: 'approved before deferral' });
    await renderStudio({ view: 'budget', task: TASK }, { dir });
    expect((await screen.findByTestId('k-value')).textContent).toBe('K = 3');
    const set = screen.getByTestId('deferred-set');
    expect(set.querySelectorAll('.chip')).toHaveLength(0);
    expect(set.textContent).toContain('None: approved version 0 hides the other ranked tools (defer them in the Space view).');
    expect([...screen.getByTestId('hidden-set').querySelectorAll('.chip')].map((c) => c.textContent)).toEqual([TOOLS[3], TOOLS[4]]);
    expect(screen.getByText(/The proposal’s rule at K = 3/).textContent).toContain('; with the edits of approved version 0 and the space editor.');
  });

  it('runs a sweep of the task with the chosen model: the engine starts its sweep job', async () => {
    const { api, store, dir } = await renderStudio({ view: 'budget', task: TASK });
    const run = await screen.findByRole('button', { name: 'Run sweep' });
    expect((run as HTMLButtonElement).disabled).toBe(true); // no model yet
    // A file at the path is all the service checks before starting the job (the refusal below shows the
    // path reaches it); the job's worker then finds no benchmark requests in this project and fails.
    const model = join(mkdtempSync(join(tmpdir(), 'lots-views-model-')), 'm.gguf');
    writeFileSync(model, 'GGUF');
    store.getState().setModelPath(model);
    await waitFor(() => expect((run as HTMLButtonElement).disabled).toBe(false));
    fireEvent.click(run);
    await waitFor(
      async () => {
        const sweep = (await api.listJobs()).find((j) => j.kind === 'sweep');
        expect(sweep).toMatchObject({ title: `Budget sweep of ${TASK}`, status: 'failed' });
        expect(sweep?.error?.message).toContain(`${dir} holds no benchmark requests`);
      },
      { timeout: 100_000 },
    );
  });

  it('shows a refused sweep as an error notice', async () => {
    const { api, store } = await renderStudio({ view: 'budget', task: TASK });
    const missing = join(tmpdir(), 'lots-views-no-such-dir', 'gone.gguf');
    store.getState().setModelPath(missing);
    fireEvent.click(await screen.findByRole('button', { name: 'Run sweep' }));
    const notice = within(await screen.findByRole('alert'));
    expect(notice.getByText(`model file not found: ${missing}. Check the path, or pick a .gguf file that exists.`)).toBeTruthy();
    expect(notice.getByText(/Check the path on the Models view/)).toBeTruthy(); // the code's hint
    expect(await api.listJobs()).toEqual([]);
  });

  it('a sweep: accuracy and F̂ in separate charts, the accuracy with its Wilson interval, a K outside the grid said in a sentence (issue 40)', async () => {
    const dir = projectWithSweep(() => 0.75, 2, [1, 2], 8, [
      { name: 'random', k: 2, tools: [], accuracy: 0.208, accuracyStd: 0.295, draws: 5, n: 8, promptTokens: 140, split: 'fit' },
    ]);
    await renderStudio({ view: 'budget', task: TASK }, { dir });
    // The sweep's best K is the proposal's budget now, so K starts there.
    expect((await screen.findByTestId('k-value')).textContent).toBe('K = 2');
    expect(screen.getByRole('heading', { name: 'Fitting accuracy against K' })).toBeTruthy();
    expect(screen.getByRole('heading', { name: 'Surrogate F̂ against K' })).toBeTruthy();
    expect(screen.getByTestId('readout-accuracy').textContent).toBe('fitting accuracy75.0%[41%, 93%] · n = 8');
    expect(screen.queryByTestId('k-outside-sweep')).toBeNull();
    expect(screen.getByText('20.8% [0.0%, 46.7%]')).toBeTruthy();
    fireEvent.change(screen.getByTestId('k-slider'), { target: { value: '3' } });
    await waitFor(() => expect(screen.getByTestId('k-outside-sweep').textContent).toMatch(/^The sweep measured K = 1, 2; K = 3 was not measured/));
    expect(screen.getByTestId('k-outside-sweep').textContent).toContain(`--task ${TASK} --k 3`);
  });

  it('says when the sweep chose K by default (no K answered a fitting request right) and offers the ranking’s own K', async () => {
    const dir = projectWithSweep(() => 0, 1, [1, 2, 3]);
    const { api } = await renderStudio({ view: 'budget', task: TASK }, { dir });
    expect((await screen.findByTestId('k-value')).textContent).toBe('K = 1');
    const { surrogateK } = await api.getBudget({ task: TASK });
    expect(surrogateK).toBe(3); // the finance project's three tools with a positive score
    const note = screen.getByTestId('sweep-without-evidence');
    expect(note.textContent).toMatch(
      /^The sweep cannot choose here: no K answered a fitting request right, so the rule .* keeps K = 1 by default, not on evidence\./,
    );
    fireEvent.click(within(note).getByRole('button', { name: 'use K = 3' }));
    await waitFor(() => expect(screen.getByTestId('k-value').textContent).toBe('K = 3'));
  });

  it('says nothing of the kind when some K answered right', async () => {
    const dir = projectWithSweep((k) => (k === 2 ? 0.5 : 0), 2, [1, 2]);
    await renderStudio({ view: 'budget', task: TASK }, { dir });
    expect((await screen.findByTestId('k-value')).textContent).toBe('K = 2');
    expect(screen.queryByTestId('sweep-without-evidence')).toBeNull();
  });
});
