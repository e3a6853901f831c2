// @vitest-environment happy-dom
// The Budget view against a fake engine: K starts at the proposal's budget, the kept set follows the
// slider, the sweep button calls the engine with the task and the model, a refused sweep is a notice.
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { ApiError } from '../../../shared/api';
import { fakeApi, renderStudio, TASK } from '../fake-api';

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
    expect(screen.getByRole('heading', { name: 'Fit against K' })).toBeTruthy();
    fireEvent.change(screen.getByTestId('k-slider'), { target: { value: '1' } });
    await waitFor(() => expect(screen.getByTestId('k-value').textContent).toBe('K = 1'));
    expect(kept()).toEqual(['CurrencyConvert']);
    fireEvent.change(screen.getByTestId('k-slider'), { target: { value: '0' } });
    expect(await screen.findByText('No tools kept at K = 0.')).toBeTruthy();
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
});
