import '../page'; // first: the DOM the view is drawn in (tests/renderer/page.ts says why not @vitest-environment)
// The Space view against the real engine service: every candidate with its state (pinned, deferred,
// hidden), the proposal approved as v0 (read back from the project folder), an edit (pin, defer) that
// needs a note, and an approval refused because another writer holds the project lock, shown as a notice.
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { financeProject, renderStudio, TASK, TOOLS } from '../studio';

afterEach(cleanup);

describe('Space view', () => {
  it('lists every tool of the menus with its state (top K pinned, other scored tools deferred, the rest hidden), and approves the proposal as v0', async () => {
    const { project } = await renderStudio({ view: 'space', task: TASK });
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
    await waitFor(() => expect(project().readSpaces(TASK).versions).toHaveLength(1));
    expect(project().readSpaces(TASK).versions[0]).toMatchObject({
      version: 0,
      task: TASK,
      tools: [TOOLS[0], TOOLS[1], TOOLS[2]],
      deferred: [TOOLS[3]],
      deferEdits: [],
      rule: { kind: 'topk', k: 3 },
    });
    await waitFor(() => expect(screen.queryByText('No version approved yet. The first approval becomes v0.')).toBeNull());
  });

  it('defers a tool: its state changes, a note is required, and the approved version carries the defer edit', async () => {
    const { project } = await renderStudio({ view: 'space', task: TASK });
    const list = await screen.findByTestId('space-list');
    const stateOf = (tool: string) => list.querySelector(`[data-tool="${tool}"] [data-state]`)?.getAttribute('data-state');
    fireEvent.click(screen.getByRole('button', { name: `Defer ${TOOLS[0]}` }));
    expect(stateOf(TOOLS[0])).toBe('deferred');
    expect(screen.getByRole('button', { name: `Defer ${TOOLS[0]}` }).getAttribute('aria-pressed')).toBe('true');
    // A second press takes the edit back: the never-scored tool is hidden again.
    fireEvent.click(screen.getByRole('button', { name: `Defer ${TOOLS[4]}` }));
    expect(stateOf(TOOLS[4])).toBe('deferred');
    fireEvent.click(screen.getByRole('button', { name: `Defer ${TOOLS[4]}` }));
    expect(stateOf(TOOLS[4])).toBe('hidden');
    const approve = screen.getByTestId<HTMLButtonElement>('approve-space');
    expect(approve.disabled).toBe(true);
    fireEvent.change(screen.getByTestId('space-note'), { target: { value: `${TOOLS[0]} only when asked` } });
    await waitFor(() => expect(approve.disabled).toBe(false));
    fireEvent.click(approve);
    await waitFor(() => expect(project().readSpaces(TASK).versions).toHaveLength(1));
    expect(project().readSpaces(TASK).versions[0]).toMatchObject({
      tools: [TOOLS[1], TOOLS[2]],
      deferred: [TOOLS[0], TOOLS[3]],
      deferEdits: [TOOLS[0]],
      rule: { kind: 'manual' },
      note: `${TOOLS[0]} only when asked`,
    });
  });

  it('an edit needs a note before it can be approved', async () => {
    const { project } = await renderStudio({ view: 'space', task: TASK });
    fireEvent.click(await screen.findByRole('button', { name: `Pin ${TOOLS[3]}` }));
    expect(within(screen.getByTestId('space-diff')).getByText(`+ ${TOOLS[3]}`)).toBeTruthy();
    expect(screen.getByTestId('space-list').querySelector(`[data-tool="${TOOLS[3]}"] [data-state]`)?.getAttribute('data-state')).toBe('pinned');
    const approve = screen.getByTestId<HTMLButtonElement>('approve-space');
    expect(approve.disabled).toBe(true);
    fireEvent.change(screen.getByTestId('space-note'), { target: { value: `keep ${TOOLS[3]}: every invoice needs it` } });
    await waitFor(() => expect(approve.disabled).toBe(false));
    fireEvent.click(approve);
    await waitFor(() => expect(project().readSpaces(TASK).versions).toHaveLength(1));
    expect(project().readSpaces(TASK).versions[0]).toMatchObject({
      tools: expect.arrayContaining([TOOLS[3]]) as unknown,
      pinned: [TOOLS[3]],
      note: `keep ${TOOLS[3]}: every invoice needs it`,
    });
  });

  it('shows an approval refused for the project lock as an error notice, and stores nothing', async () => {
    // Another writer holds the project's lock and this process will not wait for it (LOTS_LOCK_WAIT_S=0):
    // the real service refuses with PROJECT_LOCKED.
    const { dir } = financeProject();
    const { project } = await renderStudio({ view: 'space', task: TASK }, { dir });
    let release = () => {};
    const held = project().lock.runAsync('a test holds the lock', () => new Promise<void>((r) => (release = r)));
    const saved = process.env.LOTS_LOCK_WAIT_S;
    process.env.LOTS_LOCK_WAIT_S = '0';
    try {
      fireEvent.click(await screen.findByTestId('approve-space'));
      const notice = within(await screen.findByRole('alert'));
      expect(notice.getByText(/lock/)).toBeTruthy();
    } finally {
      if (saved === undefined) delete process.env.LOTS_LOCK_WAIT_S;
      else process.env.LOTS_LOCK_WAIT_S = saved;
      release();
      await held;
    }
    expect(screen.getByText('No version approved yet. The first approval becomes v0.')).toBeTruthy();
    expect(project().readSpaces(TASK).versions).toEqual([]);
  });
});
