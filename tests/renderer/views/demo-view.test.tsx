// @vitest-environment happy-dom
// The Demo view against a fake engine: without a demo project it offers the walk-through, Build calls
// the engine with the quick preset's family, and a failed build is a notice.
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { ApiError } from '../../../shared/api';
import { fakeApi, renderStudio } from '../fake-api';

afterEach(cleanup);

describe('Demo view', () => {
  it('offers the walk-through, step by step, only the first step enabled', async () => {
    await renderStudio({ view: 'demo' }, fakeApi({ getProject: async () => null }));
    expect(screen.getByRole('heading', { name: 'See LOTS work end to end' })).toBeTruthy();
    const steps = within(screen.getByTestId('demo-steps')).getAllByRole('button');
    expect(steps.map((b) => b.getAttribute('data-testid'))).toEqual(['demo-build', 'demo-score', 'demo-rank', 'demo-sweep', 'demo-approve', 'demo-export']);
    expect(steps.map((b) => (b as HTMLButtonElement).disabled)).toEqual([false, true, true, true, true, true]);
    expect(screen.queryByTestId('demo-story')).toBeNull();
  });

  it('with a project that is no demo: asks the engine for its story and shows none', async () => {
    const { api } = await renderStudio({ view: 'demo' });
    await waitFor(() => expect(api.getDemo).toHaveBeenCalled());
    expect(screen.queryByTestId('demo-story')).toBeNull();
    expect(screen.getByTestId('demo-steps')).toBeTruthy();
  });

  it('builds the demo project through the engine', async () => {
    const { api } = await renderStudio({ view: 'demo' }, fakeApi({ getProject: async () => null }));
    fireEvent.click(screen.getByTestId('demo-build'));
    await waitFor(() => expect(api.buildDemo).toHaveBeenCalledTimes(1));
    expect(api.buildDemo.mock.calls[0]![0]).toEqual({ families: ['fx_settle'] });
  });

  it('shows a failed build as an error notice', async () => {
    await renderStudio({ view: 'demo' }, fakeApi({ getProject: async () => null, buildDemo: async () => { throw new ApiError('ENOSPC', 'no space left on the device writing demo-projects/'); } }));
    fireEvent.click(screen.getByTestId('demo-build'));
    const notice = within(await screen.findByRole('alert'));
    expect(notice.getByText('no space left on the device writing demo-projects/')).toBeTruthy();
  });
});
