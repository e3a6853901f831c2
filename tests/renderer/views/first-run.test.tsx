// @vitest-environment happy-dom
// A newcomer's first minutes: after "Open the sample project" the task views are open to them (the
// first task is picked), a disabled task view says why, and counts read "1 tool", not "1 tools".
import { act, cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import type { ProjectSummary } from '../../../shared/api';
import { fakeApi, project, renderStudio, TASK } from '../fake-api';

afterEach(cleanup);

const navButton = (view: string): HTMLButtonElement => {
  const button = document.querySelector<HTMLButtonElement>(`.nav-item[data-view="${view}"]`);
  if (!button) throw new Error(`no nav button for ${view}`);
  return button;
};

describe('first run', () => {
  it('opening the sample project picks its first task, so the task views are enabled', async () => {
    const { store } = await renderStudio({ view: 'home' }, fakeApi({ getProject: async () => null }));
    fireEvent.click(screen.getByTestId('open-sample'));
    await waitFor(() => expect(store.getState().route.view).toBe('demo'));
    expect(store.getState().route.task).toBe(TASK);
    for (const view of ['heatmap', 'ranking', 'budget', 'space', 'export']) expect(navButton(view).disabled).toBe(false);
  });

  it('a task view that cannot open says what is missing', async () => {
    const empty: ProjectSummary = { ...project, traces: 0, tasks: [] };
    await renderStudio({ view: 'home' }, fakeApi({ getProject: async () => empty }));
    expect(navButton('heatmap').disabled).toBe(true);
    expect(navButton('heatmap').title).toBe('Import traces first');
  });

  it('with tasks but none picked, it says to pick one', async () => {
    const { store } = await renderStudio({ view: 'home' });
    act(() => store.setState({ route: { view: 'home' } }));
    expect(navButton('heatmap').disabled).toBe(true);
    expect(navButton('heatmap').title).toBe('Pick a task first');
  });

  it('a one-tool space reads "1 tool" on the task table', async () => {
    const one: ProjectSummary = { ...project, tasks: [{ ...project.tasks[0]!, space: { status: 'approved', version: 1, size: 1 } }] };
    await renderStudio({ view: 'home' }, fakeApi({ getProject: async () => one }));
    const table = within(screen.getByTestId('task-table'));
    expect(table.getByText('1 tool')).toBeTruthy();
    expect(table.queryByText('1 tools')).toBeNull();
  });
});
