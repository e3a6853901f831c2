// @vitest-environment happy-dom
// The Ranking view against a fake engine: the ranked tools with their intervals, the never-scored
// tools, the faithfulness check button starting the check, and a refused check shown as a notice.
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { ApiError } from '../../../shared/api';
import { fakeApi, renderStudio, TASK } from '../fake-api';

afterEach(cleanup);

describe('Ranking view', () => {
  it('lists the ranked tools in order with their scores and the tools never scored', async () => {
    await renderStudio({ view: 'ranking', task: TASK });
    const table = await screen.findByTestId('ranking-table');
    const rows = within(table).getAllByRole('row').slice(1);
    expect(rows.map((r) => within(r).getAllByRole('cell')[1]!.textContent)).toEqual(['CurrencyConvert', 'ExchangeRate', 'LedgerPost', 'TaxLookup']);
    expect(within(rows[0]!).getByText('0.362 … 0.462')).toBeTruthy();
    expect(screen.getByRole('heading', { name: 'Exposed, never scored' })).toBeTruthy();
    expect(within(screen.getByRole('heading', { name: 'Exposed, never scored' }).closest('.card') as HTMLElement).getByText('WeatherNow')).toBeTruthy();
  });

  it("runs the faithfulness check at the draft's K with the run's model", async () => {
    const { api } = await renderStudio({ view: 'ranking', task: TASK });
    const button = await screen.findByTestId('run-faithfulness');
    fireEvent.click(button);
    await waitFor(() => expect(api.startFaithfulness).toHaveBeenCalledTimes(1));
    expect(api.startFaithfulness.mock.calls[0]![0]).toMatchObject({ task: TASK, run: '3f9a1c2e7b6d5a40|evidence|answer|ChatML' });
  });

  it('shows a refused check as an error notice', async () => {
    await renderStudio(
      { view: 'ranking', task: TASK },
      fakeApi({
        startFaithfulness: async () => {
          throw new ApiError('MODEL_NOT_FOUND', 'no model file at /models/qwen2.5-0.5b-instruct-q4_k_m.gguf');
        },
      }),
    );
    fireEvent.click(await screen.findByTestId('run-faithfulness'));
    const notice = within(await screen.findByRole('alert'));
    expect(notice.getByText('no model file at /models/qwen2.5-0.5b-instruct-q4_k_m.gguf')).toBeTruthy();
    expect(notice.getByText(/MODEL_NOT_FOUND/)).toBeTruthy();
  });

  it('says so when nothing is scored yet', async () => {
    await renderStudio(
      { view: 'ranking', task: TASK },
      fakeApi({
        getRanking: async () => ({
          task: TASK,
          run: null,
          requests: 24,
          scoredRequests: 0,
          k: 0,
          resamples: 0,
          level: 0.95,
          rows: [],
          unscored: [],
          faithfulness: [],
          checkModel: null,
        }),
      }),
    );
    expect(await screen.findByText('Nothing ranked yet')).toBeTruthy();
  });
});
