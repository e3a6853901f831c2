// @vitest-environment happy-dom
// The Space view against a fake engine: every candidate with its state (pinned, deferred, hidden), the
// proposal approved as v0 through the engine, an edit (pin, defer) that needs a note, and a refused
// approval shown as a notice.
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { ApiError } from '../../../shared/api';
import { fakeApi, renderStudio, TASK, TOOLS } from '../fake-api';

afterEach(cleanup);

describe('Space view', () => {
  it('lists every tool of the menus with its state (top K pinned, other scored tools deferred, the rest hidden), and approves the proposal as v0', async () => {
    const { api } = await renderStudio({ view: 'space', task: TASK });
    const list = await screen.findByTestId('space-list');
    const rows = within(list).getAllByRole('option');
    expect(rows.map((r) => r.getAttribute('data-tool'))).toEqual([...TOOLS]);
    const states = () =>
      within(list)
        .getAllByRole('option')
        .map((r) => r.querySelector('[data-state]')?.getAttribute('data-state'));
    expect(states()).toEqual(['pinned', 'pinned', 'pinned', 'deferred', 'hidden']);
    expect(within(rows[4]!).getByText('unscored')).toBeTruthy();
    const approve = screen.getByTestId<HTMLButtonElement>('approve-space');
    expect(approve.textContent).toContain('Approve v0');
    fireEvent.click(approve);
    await waitFor(() => expect(api.acceptSpace).toHaveBeenCalledTimes(1));
    expect(api.acceptSpace.mock.calls[0]![0]).toMatchObject({
      task: TASK,
      tools: ['CurrencyConvert', 'ExchangeRate', 'LedgerPost'],
      deferred: [TOOLS[3]],
      deferEdits: [],
    });
  });

  it('defers a tool: its state changes, a note is required, and the approval carries the defer edit', async () => {
    const { api } = await renderStudio({ view: 'space', task: TASK });
    const list = await screen.findByTestId('space-list');
    const stateOf = (tool: string) => list.querySelector(`[data-tool="${tool}"] [data-state]`)?.getAttribute('data-state');
    fireEvent.click(screen.getByRole('button', { name: 'Defer CurrencyConvert' }));
    expect(stateOf('CurrencyConvert')).toBe('deferred');
    expect(screen.getByRole('button', { name: 'Defer CurrencyConvert' }).getAttribute('aria-pressed')).toBe('true');
    // A second press takes the edit back: WeatherNow (never scored) is hidden again.
    fireEvent.click(screen.getByRole('button', { name: 'Defer WeatherNow' }));
    expect(stateOf('WeatherNow')).toBe('deferred');
    fireEvent.click(screen.getByRole('button', { name: 'Defer WeatherNow' }));
    expect(stateOf('WeatherNow')).toBe('hidden');
    const approve = screen.getByTestId<HTMLButtonElement>('approve-space');
    expect(approve.disabled).toBe(true);
    fireEvent.change(screen.getByTestId('space-note'), { target: { value: 'CurrencyConvert only when asked' } });
    await waitFor(() => expect(approve.disabled).toBe(false));
    fireEvent.click(approve);
    await waitFor(() => expect(api.acceptSpace).toHaveBeenCalledTimes(1));
    expect(api.acceptSpace.mock.calls[0]![0]).toMatchObject({
      tools: ['ExchangeRate', 'LedgerPost'],
      deferred: ['CurrencyConvert', TOOLS[3]],
      deferEdits: ['CurrencyConvert'],
      rule: { kind: 'manual' },
    });
  });

  it('an edit needs a note before it can be approved', async () => {
    const { api } = await renderStudio({ view: 'space', task: TASK });
    fireEvent.click(await screen.findByRole('button', { name: 'Pin TaxLookup' }));
    expect(within(screen.getByTestId('space-diff')).getByText('+ TaxLookup')).toBeTruthy();
    expect(screen.getByTestId('space-list').querySelector('[data-tool="TaxLookup"] [data-state]')?.getAttribute('data-state')).toBe('pinned');
    const approve = screen.getByTestId<HTMLButtonElement>('approve-space');
    expect(approve.disabled).toBe(true);
    fireEvent.change(screen.getByTestId('space-note'), { target: { value: 'keep TaxLookup: every invoice needs it' } });
    await waitFor(() => expect(approve.disabled).toBe(false));
    fireEvent.click(approve);
    await waitFor(() => expect(api.acceptSpace).toHaveBeenCalledTimes(1));
    expect(api.acceptSpace.mock.calls[0]![0]).toMatchObject({
      tools: expect.arrayContaining(['TaxLookup']),
      pinned: ['TaxLookup'],
      note: 'keep TaxLookup: every invoice needs it',
    });
  });

  it('shows a refused approval as an error notice', async () => {
    await renderStudio(
      { view: 'space', task: TASK },
      fakeApi({
        acceptSpace: async () => {
          throw new ApiError('PROJECT_LOCKED', 'another process holds the project lock');
        },
      }),
    );
    fireEvent.click(await screen.findByTestId('approve-space'));
    const notice = within(await screen.findByRole('alert'));
    expect(notice.getByText('another process holds the project lock')).toBeTruthy();
    expect(screen.getByText('No version approved yet. The first approval becomes v0.')).toBeTruthy();
  });
});
