import '../page'; // first: the DOM the view is drawn in (tests/renderer/page.ts says why not @vitest-environment)
// A newcomer's first minutes: after "Open the sample project" the task views are open to them (the
// first task is picked), a disabled task view says why, and counts read "1 tool", not "1 tools".
// Against the real service: the sample project is the one the engine ships (assets/sample-project).
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { act, cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { ProjectStore } from '../../../electron/engine/store';
import { financeProject, renderStudio, serviceFor, TASK, TOOLS } from '../studio';
import { inMemoryApi } from '../harness';

afterEach(cleanup);

const navButton = (view: string): HTMLButtonElement => {
  const button = document.querySelector<HTMLButtonElement>(`.nav-item[data-view="${view}"]`);
  if (!button) throw new Error(`no nav button for ${view}`);
  return button;
};

describe('first run', () => {
  it('opening the sample project picks its first task, so the task views are enabled', async () => {
    const { store } = await renderStudio({ view: 'home' }, { dir: null });
    fireEvent.click(screen.getByTestId('open-sample'));
    await waitFor(() => expect(store.getState().route.view).toBe('demo'));
    const first = store.getState().project?.tasks[0]?.task;
    expect(first).toBeTruthy();
    expect(store.getState().route.task).toBe(first);
    for (const view of ['heatmap', 'ranking', 'budget', 'space', 'export']) expect(navButton(view).disabled).toBe(false);
  });

  it('a task view that cannot open says what is missing', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'lots-views-empty-'));
    ProjectStore.create(dir, 'empty');
    await renderStudio({ view: 'home' }, { dir });
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
    const { dir } = financeProject();
    await inMemoryApi(serviceFor(dir)).acceptSpace({ task: TASK, tools: [TOOLS[0]], deferred: [], rule: { kind: 'topk', k: 1 }, note: 'one tool' });
    await renderStudio({ view: 'home' }, { dir });
    const table = within(screen.getByTestId('task-table'));
    expect(table.getByText('1 tool')).toBeTruthy();
    expect(table.queryByText('1 tools')).toBeNull();
  });
});
