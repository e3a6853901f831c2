// @vitest-environment happy-dom
// The Space view as a stakeholder meets it (issue 40): the approval is confirmed beside the Approve
// button, not in a floating notice over the version history; one K slider on the screen; and under
// the audience's view-only link every write action is disabled and says why.
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import type { SpaceVersion } from '../../../shared/project/spaces';
import { appInfo, fakeApi, renderStudio, spaces, TASK } from '../fake-api';

afterEach(cleanup);

describe('Space view (issue 40)', () => {
  it('confirms an approval in the view, with no notice floating over the version history', async () => {
    let approved: SpaceVersion | null = null;
    const api = fakeApi();
    const accept = api.acceptSpace.getMockImplementation()!;
    api.acceptSpace.mockImplementation(async (input) => {
      approved = await accept(input);
      return approved;
    });
    api.getSpaces.mockImplementation(async () => structuredClone(approved ? { ...spaces, versions: [approved], approved } : spaces));
    await renderStudio({ view: 'space', task: TASK }, api);
    fireEvent.click(await screen.findByTestId('approve-space'));
    const confirmation = await screen.findByTestId('space-approved');
    expect(confirmation.textContent).toContain('Approved as v0');
    expect(confirmation.textContent).toContain('3 pinned: CurrencyConvert, ExchangeRate, LedgerPost');
    expect(within(screen.getByTestId('space-history')).getByText('v0')).toBeTruthy();
    // Nothing floats over the view: no success notice was raised.
    expect(screen.queryByTestId('notice-success')).toBeNull();
  });

  it('has one K slider on the screen', async () => {
    await renderStudio({ view: 'space', task: TASK });
    await screen.findByTestId('space-list');
    expect(screen.getAllByRole('slider', { name: 'Budget K' })).toHaveLength(1);
  });

  it('under the view-only link: edits, the note and Approve are disabled and say why; keys change nothing', async () => {
    const { api } = await renderStudio({ view: 'space', task: TASK }, fakeApi({ getAppInfo: async () => ({ ...appInfo, viewOnly: true }) }));
    const list = await screen.findByTestId('space-list');
    expect(screen.getByTestId('view-only-note').textContent).toContain('View-only link.');
    const approve = screen.getByTestId<HTMLButtonElement>('approve-space');
    expect(approve.disabled).toBe(true);
    expect(approve.title).toContain('view-only link');
    expect(screen.getByTestId('approve-why').textContent).toContain('view-only link');
    for (const name of ['Drop CurrencyConvert', 'Pin TaxLookup', 'Defer CurrencyConvert', 'Ban LedgerPost']) {
      const b = screen.getByRole<HTMLButtonElement>('button', { name });
      expect(b.disabled, name).toBe(true);
      expect(b.title, name).toContain('view-only link');
    }
    expect(screen.getByTestId<HTMLTextAreaElement>('space-note').disabled).toBe(true);
    // The review keys do nothing: x on the first row would drop CurrencyConvert.
    fireEvent.keyDown(list, { key: 'x' });
    fireEvent.keyDown(list, { key: 'Enter', ctrlKey: true });
    expect(list.querySelector('[data-tool="CurrencyConvert"] [data-state]')?.getAttribute('data-state')).toBe('pinned');
    expect(api.acceptSpace).not.toHaveBeenCalled();
    // The page did not ask for the user's other projects (a write method for this link).
    await waitFor(() => expect(api.getProject).toHaveBeenCalled());
    expect(api.listRecentProjects).not.toHaveBeenCalled();
  });
});
