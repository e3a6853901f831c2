// @vitest-environment happy-dom
// The Budget view against a fake engine: K starts at the proposal's budget, the kept set follows the
// slider, the sweep button calls the engine with the task and the model, a refused sweep is a notice.
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { ApiError } from '../../../shared/api';
import { budget, fakeApi, renderStudio, TASK } from '../fake-api';

afterEach(cleanup);

const kept = () =>
  within(screen.getByTestId('kept-set'))
    .queryAllByText(/^[A-Z]\w+$/)
    .map((c) => c.textContent);

describe('Budget view', () => {
  it('shows K, the kept tools and what they cost; the slider moves them', async () => {
    await renderStudio({ view: 'budget', task: TASK });
    expect((await screen.findByTestId('k-value')).textContent).toBe('K = 3');
    expect(kept()).toEqual(['CurrencyConvert', 'ExchangeRate', 'LedgerPost']);
    expect(screen.getByText('3 of 5')).toBeTruthy();
    expect(screen.getByRole('heading', { name: 'Surrogate F̂ against K' })).toBeTruthy();
    expect(screen.queryByRole('heading', { name: 'Fitting accuracy against K' })).toBeNull();
    fireEvent.change(screen.getByTestId('k-slider'), { target: { value: '1' } });
    await waitFor(() => expect(screen.getByTestId('k-value').textContent).toBe('K = 1'));
    expect(kept()).toEqual(['CurrencyConvert']);
    fireEvent.change(screen.getByTestId('k-slider'), { target: { value: '0' } });
    expect(await screen.findByText('No tools pinned at K = 0.')).toBeTruthy();
  });

  it('at K: the top K pinned, the other ranked tools deferred, the unscored one hidden, and the menu cost three ways (issue 44)', async () => {
    await renderStudio({ view: 'budget', task: TASK });
    expect((await screen.findByTestId('k-value')).textContent).toBe('K = 3');
    const chips = (id: string) => [...screen.getByTestId(id).querySelectorAll('.chip')].map((c) => c.textContent);
    expect(chips('kept-set')).toEqual(['CurrencyConvert', 'ExchangeRate', 'LedgerPost']);
    expect(chips('deferred-set')).toEqual(['TaxLookup']);
    expect(chips('hidden-set')).toEqual(['WeatherNow']);
    expect(screen.getByTestId('readout-states').textContent).toBe('pinned tools3 of 5+ 1 deferred · 1 hidden');
    // 88 tokens a tool in full, 20 demoted (fake-api): pinned 3 × 88, + 1 × 20, keep-all 5 × 88.
    const cost = (key: string) => screen.getByTestId('budget-menu-cost').querySelector(`tr[data-cost="${key}"]`)!;
    const cells = (key: string) => [...cost(key).querySelectorAll('th, td')].map((c) => c.textContent);
    expect(cells('pinned').slice(0, 1).concat(cells('pinned').slice(2, 3))).toEqual(['pinned only', '264']);
    expect(cells('pinned-deferred')[0]).toBe('pinned + 1 deferred');
    expect(cells('pinned-deferred')[2]).toBe('284');
    expect(cells('pinned-deferred')[3]).toMatch(/^35% fewer than keep-all · deferred tools demoted: name and one line, no schema$/);
    expect(cells('keep-all').slice(0, 1).concat(cells('keep-all').slice(2, 3))).toEqual(['keep all 5', '440']);
    // Demoting saves tokens here (20 < 88 a tool): no note that it would not.
    expect(screen.queryByTestId('budget-demotion-saves-nothing')).toBeNull();
    // K = 1: two more deferred; the slider's value text names the three states for a screen reader.
    fireEvent.change(screen.getByTestId('k-slider'), { target: { value: '1' } });
    await waitFor(() => expect(chips('deferred-set')).toEqual(['ExchangeRate', 'LedgerPost', 'TaxLookup']));
    expect(screen.getByTestId('k-slider').getAttribute('aria-valuetext')).toBe('K = 1: 1 pinned, 3 deferred, 1 hidden');
    expect(cells('pinned-deferred')[2]).toBe('148');
  });

  it('runs a sweep of the task with the chosen model', async () => {
    const { api, store } = await renderStudio({ view: 'budget', task: TASK });
    const run = await screen.findByRole('button', { name: 'Run sweep' });
    expect((run as HTMLButtonElement).disabled).toBe(true); // no model yet
    store.getState().setModelPath('/models/qwen2.5-0.5b-instruct-q4_k_m.gguf');
    await waitFor(() => expect((run as HTMLButtonElement).disabled).toBe(false));
    fireEvent.click(run);
    await waitFor(() => expect(api.startSweep).toHaveBeenCalledWith({ task: TASK, model: '/models/qwen2.5-0.5b-instruct-q4_k_m.gguf' }));
  });

  it('shows a refused sweep as an error notice', async () => {
    const { store } = await renderStudio(
      { view: 'budget', task: TASK },
      fakeApi({
        startSweep: async () => {
          throw new ApiError('UNAVAILABLE', 'fx_settle has no executor: a sweep needs one');
        },
      }),
    );
    store.getState().setModelPath('/models/m.gguf');
    fireEvent.click(await screen.findByRole('button', { name: 'Run sweep' }));
    const notice = within(await screen.findByRole('alert'));
    expect(notice.getByText('fx_settle has no executor: a sweep needs one')).toBeTruthy();
    expect(notice.getByText(/cannot do that yet/)).toBeTruthy();
  });

  it('a sweep: accuracy and F̂ in separate charts, the accuracy with its Wilson interval, a K outside the grid said in a sentence (issue 40)', async () => {
    const swept = {
      ...budget,
      points: budget.points.map((p) => (p.k >= 1 && p.k <= 2 ? { ...p, accuracy: 0.75, n: 8, promptTokens: 180 } : p)),
      sweep: { model: 'qwen.gguf', createdAt: '2026-11-30T09:12:00.000Z', bestK: 2 },
      baselines: [{ name: 'random', k: 2, tools: [], accuracy: 0.208, accuracyStd: 0.295, draws: 5, n: 8, promptTokens: 140, split: 'fit' as const }],
      recommendedK: 2,
      recommendedBy: 'sweep' as const,
    };
    await renderStudio({ view: 'budget', task: TASK }, fakeApi({ getBudget: async () => swept }));
    expect((await screen.findByTestId('k-value')).textContent).toBe('K = 3');
    expect(screen.getByRole('heading', { name: 'Fitting accuracy against K' })).toBeTruthy();
    expect(screen.getByRole('heading', { name: 'Surrogate F̂ against K' })).toBeTruthy();
    expect(screen.getByTestId('k-outside-sweep').textContent).toMatch(/^The sweep measured K = 1, 2; K = 3 was not measured/);
    expect(screen.getByTestId('k-outside-sweep').textContent).toContain(`--task ${TASK} --k 3`);
    fireEvent.change(screen.getByTestId('k-slider'), { target: { value: '2' } });
    await waitFor(() => expect(screen.getByTestId('readout-accuracy').textContent).toBe('fitting accuracy75.0%[41%, 93%] · n = 8'));
    expect(screen.queryByTestId('k-outside-sweep')).toBeNull();
    expect(screen.getByText('20.8% [0.0%, 46.7%]')).toBeTruthy();
  });
});
