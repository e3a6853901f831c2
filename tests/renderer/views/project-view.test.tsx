// @vitest-environment happy-dom
// The Project view against a fake engine: the project's figures and tasks, a task row opening its
// heatmap, Close calling the engine, and the empty state when no project is open.
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { ApiError } from '../../../shared/api';
import { fakeApi, PROJECT_DIR, renderStudio, TASK } from '../fake-api';

afterEach(cleanup);

describe('Project view', () => {
  it('shows the project, its figures and one row per task', async () => {
    await renderStudio({ view: 'home' });
    const view = within(screen.getByTestId('view-home'));
    expect(view.getByRole('heading', { level: 1, name: 'finance' })).toBeTruthy();
    expect(view.getByText(PROJECT_DIR)).toBeTruthy();
    const rows = within(view.getByTestId('task-table')).getAllByRole('row').slice(1);
    expect(rows).toHaveLength(1);
    const cells = within(rows[0]!)
      .getAllByRole('cell')
      .map((c) => c.textContent);
    // Scored tools of the menu's tools, and the answers in words (issue 40: no '· 1?' and no two columns with one value).
    expect(cells.slice(0, 5)).toEqual([TASK, '24', '24', '4 of 5', '20 right · 3 wrong · 1 unlabelled']);
    expect(view.getByText('imported 24 traces from fx_settle.jsonl')).toBeTruthy();
  });

  it("opens a task's heatmap from its row", async () => {
    const { api, store } = await renderStudio({ view: 'home' });
    fireEvent.click(screen.getByText(TASK, { selector: 'strong' }));
    await waitFor(() => expect(store.getState().route).toMatchObject({ view: 'heatmap', task: TASK }));
    await waitFor(() => expect(api.getHeatmap).toHaveBeenCalledWith(expect.objectContaining({ task: TASK })));
  });

  it('closes the project through the engine', async () => {
    const { api } = await renderStudio({ view: 'home' });
    fireEvent.click(within(screen.getByTestId('view-home')).getByRole('button', { name: 'Close' }));
    await waitFor(() => expect(api.closeProject).toHaveBeenCalledTimes(1));
    expect(await screen.findByText("Start with your agent's traces")).toBeTruthy();
  });

  it('without a project: says what to do and lists the recent projects', async () => {
    await renderStudio({ view: 'home' }, fakeApi({ getProject: async () => null }));
    expect(screen.getByText("Start with your agent's traces")).toBeTruthy();
    expect(screen.getByTestId('open-sample')).toBeTruthy();
    expect(screen.getByText(PROJECT_DIR)).toBeTruthy();
  });

  it('shows an engine that cannot be reached as an error notice', async () => {
    await renderStudio(
      { view: 'home' },
      fakeApi({
        getAppInfo: async () => {
          throw new ApiError('FORBIDDEN', 'refused: wrong access token');
        },
      }),
    );
    const notice = within(await screen.findByRole('alert'));
    expect(notice.getByText('Cannot reach the engine')).toBeTruthy();
    expect(notice.getByText('refused: wrong access token')).toBeTruthy();
    expect(notice.getByText(/carries the access token/)).toBeTruthy();
  });
});
