import '../page'; // first: the DOM the view is drawn in (tests/renderer/page.ts says why not @vitest-environment)
// The Space view as a stakeholder meets it (issue 40): the approval is confirmed beside the Approve
// button, not in a floating notice over the version history; one K slider on the screen; and under
// the audience's view-only link every write action is disabled and says why. Against the real service.
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { renderStudio, TASK, TOOLS } from '../studio';

afterEach(cleanup);

describe('Space view (issue 40)', () => {
  it('confirms an approval in the view, with no notice floating over the version history', async () => {
    const { project } = await renderStudio({ view: 'space', task: TASK });
    fireEvent.click(await screen.findByTestId('approve-space'));
    const confirmation = await screen.findByTestId('space-approved');
    expect(confirmation.textContent).toContain('Approved as v0');
    expect(confirmation.textContent).toContain(`3 pinned: ${TOOLS[0]}, ${TOOLS[1]}, ${TOOLS[2]}`);
    await waitFor(() => expect(within(screen.getByTestId('space-history')).getByText('v0')).toBeTruthy());
    expect(
      project()
        .readSpaces(TASK)
        .versions.map((v) => v.version),
    ).toEqual([0]);
    // Nothing floats over the view: no success notice was raised.
    expect(screen.queryByTestId('notice-success')).toBeNull();
  });

  it('has one K slider on the screen', async () => {
    await renderStudio({ view: 'space', task: TASK });
    await screen.findByTestId('space-list');
    expect(screen.getAllByRole('slider', { name: 'Budget K' })).toHaveLength(1);
  });

  it('under the view-only link: edits, the note and Approve are disabled and say why; keys change nothing', async () => {
    const { calls, project } = await renderStudio({ view: 'space', task: TASK }, { viewOnly: true });
    const list = await screen.findByTestId('space-list');
    expect(screen.getByTestId('view-only-note').textContent).toContain('View-only link.');
    const approve = screen.getByTestId<HTMLButtonElement>('approve-space');
    expect(approve.disabled).toBe(true);
    expect(approve.title).toContain('view-only link');
    expect(screen.getByTestId('approve-why').textContent).toContain('view-only link');
    for (const name of [`Drop ${TOOLS[0]}`, `Pin ${TOOLS[3]}`, `Defer ${TOOLS[0]}`, `Ban ${TOOLS[2]}`]) {
      const b = screen.getByRole<HTMLButtonElement>('button', { name });
      expect(b.disabled, name).toBe(true);
      expect(b.title, name).toContain('view-only link');
    }
    expect(screen.getByTestId<HTMLTextAreaElement>('space-note').disabled).toBe(true);
    // The review keys do nothing: x on the first row would drop the first tool.
    fireEvent.keyDown(list, { key: 'x' });
    fireEvent.keyDown(list, { key: 'Enter', ctrlKey: true });
    expect(list.querySelector(`[data-tool="${TOOLS[0]}"] [data-state]`)?.getAttribute('data-state')).toBe('pinned');
    expect(calls.get('acceptSpace')).toBeUndefined();
    expect(project().readSpaces(TASK).versions).toEqual([]);
    // The page did not ask for the user's other projects (a write method for this link).
    await waitFor(() => expect(calls.get('getProject')).toBeGreaterThan(0));
    expect(calls.get('listRecentProjects')).toBeUndefined();
  });
});
