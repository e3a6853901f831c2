import '../page'; // first: the DOM the view is drawn in (tests/renderer/page.ts says why not @vitest-environment)
// Keys act on what has the focus (issue 40): in the Space view a key pressed on a row's button acts on
// that row, not on the row cursor, and Enter on a button presses the button; Enter on a task's "Review
// space" button opens the Space view, not the row's heatmap; after Ctrl+Enter approves, the focus is
// back on the list; after a view change the focus is on the new view, never on <body>. Against the real service.
import { act, cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { renderStudio, TASK, TOOLS } from '../studio';

afterEach(cleanup);

describe('keys act on the focused row', () => {
  it('x on "Drop <second tool>" drops that tool, not the tool under the row cursor', async () => {
    const { store } = await renderStudio({ view: 'space', task: TASK });
    const list = await screen.findByTestId('space-list');
    expect(store.getState().reviewCursor).toBe(0);
    const drop = within(list).getByRole('button', { name: `Drop ${TOOLS[1]}` });
    drop.focus();
    fireEvent.focus(drop);
    fireEvent.keyDown(drop, { key: 'x' });
    const diff = screen.getByTestId('space-diff');
    await waitFor(() => expect(within(diff).queryByText(`+ ${TOOLS[1]}`)).toBeNull());
    expect(within(diff).getByText(`+ ${TOOLS[0]}`)).toBeTruthy();
    expect(store.getState().drafts[TASK]!.removed).toEqual([TOOLS[1]]);
    // The row cursor followed the focus.
    expect(store.getState().reviewCursor).toBe(1);
  });

  it('Enter on a row button is left to the button (no edit of the cursor row)', async () => {
    const { store } = await renderStudio({ view: 'space', task: TASK });
    const list = await screen.findByTestId('space-list');
    const pin = within(list).getByRole('button', { name: `Pin ${TOOLS[2]}` });
    pin.focus();
    const notHandled = fireEvent.keyDown(pin, { key: 'Enter' });
    expect(notHandled).toBe(true); // not default-prevented: the browser clicks the button
    expect(store.getState().drafts[TASK]!.added).toEqual([]);
    expect(store.getState().drafts[TASK]!.removed).toEqual([]);
  });

  it('Enter on "Review space" opens the Space view, not the heatmap', async () => {
    const { store } = await renderStudio({ view: 'home' });
    const row = (await screen.findByTestId('task-table')).querySelector(`tr[data-task="${TASK}"]`)!;
    const review = within(row as HTMLElement).getByRole('button', { name: 'Review space' });
    fireEvent.keyDown(review, { key: 'Enter' });
    expect(store.getState().route.view).toBe('home');
    fireEvent.click(review);
    expect(store.getState().route.view).toBe('space');
  });

  it('after Ctrl+Enter approves, the focus is back on the tool list', async () => {
    const { project } = await renderStudio({ view: 'space', task: TASK });
    const list = await screen.findByTestId('space-list');
    list.focus();
    fireEvent.keyDown(list, { key: 'Enter', ctrlKey: true });
    await waitFor(() => expect(project().readSpaces(TASK).versions).toHaveLength(1));
    await waitFor(() => expect(document.activeElement).toBe(screen.getByTestId('space-list')));
  });

  it('after Alt+N the focus is on the new view, not on <body>', async () => {
    const { store } = await renderStudio({ view: 'space', task: TASK });
    const list = await screen.findByTestId('space-list');
    list.focus();
    fireEvent.keyDown(list, { key: '1', code: 'Digit1', altKey: true });
    await waitFor(() => expect(store.getState().route.view).toBe('home'));
    await act(async () => {});
    expect(document.activeElement).toBe(screen.getByTestId('view-home'));
  });
});

describe('the Demo walk-through says why a step is disabled (issue 40)', () => {
  it('without a project: every step after the first names what it needs', async () => {
    await renderStudio({ view: 'demo' }, { dir: null });
    const score = screen.getByTestId<HTMLButtonElement>('demo-score');
    expect(score.disabled).toBe(true);
    expect(screen.getByTestId('demo-why-score').textContent).toBe('Build the benchmark project first (step 1).');
    expect(score.getAttribute('aria-describedby')).toBe('demo-why-score');
    expect(screen.queryByTestId('demo-why-build')).toBeNull();
  });
});
