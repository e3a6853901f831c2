import '../page'; // first: the DOM the view is drawn in (tests/renderer/page.ts says why not @vitest-environment)
// The Project view against the real engine service: the project's figures and tasks, a task row opening
// its heatmap, Close closing the engine's project, and the empty state with the recent projects when
// none is open.
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { ApiError } from '../../../shared/api';
import { financeProject, renderStudio, TASK } from '../studio';

afterEach(cleanup);

describe('Project view', () => {
  it('shows the project, its figures and one row per task', async () => {
    const { dir } = await renderStudio({ view: 'home' });
    const view = within(screen.getByTestId('view-home'));
    expect(view.getByRole('heading', { level: 1, name: 'finance' })).toBeTruthy();
    expect(view.getByText(dir!)).toBeTruthy();
    const rows = within(view.getByTestId('task-table')).getAllByRole('row').slice(1);
    expect(rows).toHaveLength(1);
    const cells = within(rows[0]!)
      .getAllByRole('cell')
      .map((c) => c.textContent);
    // Scored tools of the menu's tools, and the answers in words (issue 40: no '· 1?' and no two columns with one value).
    expect(cells.slice(0, 5)).toEqual([TASK, '24', '24', '4 of 5', '18 right · 5 wrong · 1 unlabelled']);
    expect(view.getByText(/imported 24 traces/)).toBeTruthy();
  });

  it("opens a task's heatmap from its row", async () => {
    const { store } = await renderStudio({ view: 'home' });
    fireEvent.click(screen.getByText(TASK, { selector: 'strong' }));
    await waitFor(() => expect(store.getState().route).toMatchObject({ view: 'heatmap', task: TASK }));
    await waitFor(() => expect(store.getState().heatmaps[TASK]?.value?.rows).toBe(24));
  });

  it('closes the project through the engine', async () => {
    const { api } = await renderStudio({ view: 'home' });
    fireEvent.click(within(screen.getByTestId('view-home')).getByRole('button', { name: 'Close' }));
    expect(await screen.findByText("Start with your agent's traces")).toBeTruthy();
    expect(await api.getProject()).toBeNull();
  });

  it('without a project: says what to do and lists the recent projects', async () => {
    const { dir } = financeProject();
    // Opened once and closed: the engine lists it among the recent projects.
    await renderStudio(
      { view: 'home' },
      {
        dir: null,
        before: async (api) => {
          await api.openProject({ dir });
          await api.closeProject();
        },
      },
    );
    expect(screen.getByText("Start with your agent's traces")).toBeTruthy();
    expect(screen.getByTestId('open-sample')).toBeTruthy();
    expect(screen.getByText(dir)).toBeTruthy();
  });

  it('shows an engine that cannot be reached as an error notice', async () => {
    // A transport fault: the web host refuses a request without its access token; the in-memory
    // transport has no token, so this one method answers as the host would.
    await renderStudio(
      { view: 'home' },
      {
        faults: {
          getAppInfo: async () => {
            throw new ApiError('FORBIDDEN', 'refused: wrong access token');
          },
        },
      },
    );
    const notice = within(await screen.findByRole('alert'));
    expect(notice.getByText('Cannot reach the engine')).toBeTruthy();
    expect(notice.getByText('refused: wrong access token')).toBeTruthy();
    expect(notice.getByText(/carries the access token/)).toBeTruthy();
  });
});
