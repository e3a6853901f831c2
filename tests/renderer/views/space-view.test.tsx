// @vitest-environment happy-dom
// The Space view against a fake engine: every candidate with its status, the proposal approved as v0
// through the engine, an edit that needs a note, and a refused approval shown as a notice.
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { ApiError } from '../../../shared/api';
import { fakeApi, renderStudio, TASK, TOOLS } from '../fake-api';

afterEach(cleanup);

describe('Space view', () => {
  it('lists every tool of the menus, the top K kept, and approves the proposal as v0', async () => {
    const { api } = await renderStudio({ view: 'space', task: TASK });
    const list = await screen.findByTestId('space-list');
    const rows = within(list).getAllByRole('option');
    expect(rows.map((r) => r.getAttribute('data-tool'))).toEqual([...TOOLS]);
    expect(rows.map((r) => (within(r).queryByText('kept') ? 'kept' : 'out'))).toEqual(['kept', 'kept', 'kept', 'out', 'out']);
    expect(within(rows[4]!).getByText('unscored')).toBeTruthy();
    const approve = screen.getByTestId<HTMLButtonElement>('approve-space');
    expect(approve.textContent).toContain('Approve v0');
    fireEvent.click(approve);
    await waitFor(() => expect(api.acceptSpace).toHaveBeenCalledTimes(1));
    expect(api.acceptSpace.mock.calls[0]![0]).toMatchObject({ task: TASK, tools: ['CurrencyConvert', 'ExchangeRate', 'LedgerPost'] });
  });

  it('an edit needs a note before it can be approved', async () => {
    const { api } = await renderStudio({ view: 'space', task: TASK });
    fireEvent.click(await screen.findByRole('button', { name: 'Pin TaxLookup' }));
    expect(within(screen.getByTestId('space-diff')).getByText('+ TaxLookup')).toBeTruthy();
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
