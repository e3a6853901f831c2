import '../page'; // first: the DOM the view is drawn in (tests/renderer/page.ts says why not @vitest-environment)
// The Heatmap view against the real engine service: the task's requests and tools reach the canvas frame
// (its accessible label counts them), the legend is drawn with each tool's state in the proposal or the
// approved version, and an engine error while loading is a notice.
import { cleanup, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { ApiError } from '../../../shared/api';
import { financeProject, renderStudio, serviceFor, TASK, TOOLS } from '../studio';
import { inMemoryApi } from '../harness';

afterEach(cleanup);

describe('Heatmap view', () => {
  it("draws the task's scored requests and tools, with the legend", async () => {
    const { store } = await renderStudio({ view: 'heatmap', task: TASK });
    const scroller = await screen.findByTestId('heatmap-scroller');
    await waitFor(() => expect(scroller.getAttribute('data-visible-rows')).toBe('24'));
    expect(store.getState().heatmaps[TASK]?.value?.tools).toEqual([...TOOLS]);
    expect(scroller.getAttribute('aria-label')).toContain('24 requests');
    expect(screen.getByTestId('heatmap-legend')).toBeTruthy();
  });

  it("marks each column's state in the approved space (the proposal's before any approval), in the legend and for a screen reader (issue 44)", async () => {
    const { dir } = financeProject();
    await renderStudio({ view: 'heatmap', task: TASK }, { dir });
    const legend = await screen.findByTestId('legend-states');
    expect(legend.textContent).toBe('state in the proposal (none approved yet):● pinned (3)○ deferred (1)× hidden (1)');
    cleanup();
    // Two approvals: the proposal (v0), then an edit keeping only the first tool pinned (v1).
    const api = inMemoryApi(serviceFor(dir));
    const { proposal } = await api.getSpaces({ task: TASK });
    await api.acceptSpace({ task: TASK, tools: proposal.tools, deferred: proposal.deferred, rule: proposal.rule });
    await api.acceptSpace({
      task: TASK,
      tools: [TOOLS[0]],
      deferred: [TOOLS[1], TOOLS[3]],
      deferEdits: [TOOLS[3]],
      rule: { kind: 'topk', k: 1 },
      note: 'approved',
    });
    await renderStudio({ view: 'heatmap', task: TASK }, { dir });
    await waitFor(() => expect(screen.getByTestId('legend-states').textContent).toBe('state in approved v1:● pinned (1)○ deferred (2)× hidden (2)'));
    // The keyboard cursor's cell names its tool's state (the canvas has no cells to read).
    const scroller = screen.getByTestId('heatmap-scroller');
    await waitFor(() => expect(scroller.getAttribute('data-visible-rows')).toBe('24'));
    scroller.focus();
    const key = (k: string) => scroller.dispatchEvent(new KeyboardEvent('keydown', { key: k, bubbles: true }));
    key('ArrowRight');
    expect(screen.getByTestId('heatmap-live').textContent).toMatch(new RegExp(`^${TOOLS[1]}, deferred in approved v1: `));
    key('ArrowRight');
    key('ArrowRight');
    expect(screen.getByTestId('heatmap-live').textContent).toMatch(new RegExp(`^${TOOLS[3]}, deferred in approved v1: `));
    key('ArrowLeft');
    expect(screen.getByTestId('heatmap-live').textContent).toMatch(new RegExp(`^${TOOLS[2]}, hidden in approved v1: `));
  });

  it('shows a heatmap the engine cannot read as an error notice', async () => {
    // A fault: the real service answered a heatmap without an error over a project whose scores.jsonl
    // had a damaged middle line (tried), so this one method refuses with PROJECT_FILE_DAMAGED.
    await renderStudio(
      { view: 'heatmap', task: TASK },
      {
        faults: {
          getHeatmap: async () => {
            throw new ApiError('PROJECT_FILE_DAMAGED', 'scores.jsonl line 12 is not JSON');
          },
        },
      },
    );
    const notice = within(await screen.findByRole('alert'));
    expect(notice.getByText('scores.jsonl line 12 is not JSON')).toBeTruthy();
    expect(notice.getByText(/restore it from a backup/)).toBeTruthy();
  });
});
