// @vitest-environment happy-dom
// The Heatmap view against a fake engine: the task's requests and tools reach the canvas frame (its
// accessible label counts them), the legend is drawn, and an engine error while loading is a notice.
import { cleanup, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { ApiError, type SpaceState } from '../../../shared/api';
import { fakeApi, renderStudio, spaces, TASK } from '../fake-api';

afterEach(cleanup);

describe('Heatmap view', () => {
  it("draws the task's scored requests and tools, with the legend", async () => {
    const { api } = await renderStudio({ view: 'heatmap', task: TASK });
    const scroller = await screen.findByTestId('heatmap-scroller');
    expect(api.getHeatmap).toHaveBeenCalledWith(expect.objectContaining({ task: TASK }));
    await waitFor(() => expect(scroller.getAttribute('data-visible-rows')).toBe('24'));
    expect(scroller.getAttribute('aria-label')).toContain('24 requests');
    expect(screen.getByTestId('heatmap-legend')).toBeTruthy();
  });

  it("marks each column's state in the approved space (the proposal's before any approval), in the legend and for a screen reader (issue 44)", async () => {
    await renderStudio({ view: 'heatmap', task: TASK });
    const legend = await screen.findByTestId('legend-states');
    expect(legend.textContent).toBe('state in the proposal (none approved yet):● pinned (3)○ deferred (1)× hidden (1)');
    const approved: SpaceState = {
      ...spaces,
      approved: {
        version: 2,
        task: TASK,
        tools: ['CurrencyConvert'],
        deferred: ['ExchangeRate', 'TaxLookup'],
        pinned: [],
        banned: [],
        deferEdits: ['TaxLookup'],
        rule: { kind: 'topk', k: 1 },
        note: 'approved',
        createdAt: '2026-11-30T10:00:00.000Z',
      },
    };
    cleanup();
    await renderStudio({ view: 'heatmap', task: TASK }, fakeApi({ getSpaces: async () => structuredClone(approved) }));
    await waitFor(() => expect(screen.getByTestId('legend-states').textContent).toBe('state in approved v2:● pinned (1)○ deferred (2)× hidden (2)'));
    // The keyboard cursor's cell names its tool's state (the canvas has no cells to read).
    const scroller = screen.getByTestId('heatmap-scroller');
    await waitFor(() => expect(scroller.getAttribute('data-visible-rows')).toBe('24'));
    scroller.focus();
    const key = (k: string) => scroller.dispatchEvent(new KeyboardEvent('keydown', { key: k, bubbles: true }));
    key('ArrowRight');
    expect(screen.getByTestId('heatmap-live').textContent).toMatch(/^ExchangeRate, deferred in approved v2: /);
    key('ArrowRight');
    key('ArrowRight');
    expect(screen.getByTestId('heatmap-live').textContent).toMatch(/^TaxLookup, deferred in approved v2: /);
    key('ArrowLeft');
    expect(screen.getByTestId('heatmap-live').textContent).toMatch(/^LedgerPost, hidden in approved v2: /);
  });

  it('shows a heatmap the engine cannot read as an error notice', async () => {
    await renderStudio(
      { view: 'heatmap', task: TASK },
      fakeApi({
        getHeatmap: async () => {
          throw new ApiError('PROJECT_FILE_DAMAGED', 'scores.jsonl line 12 is not JSON');
        },
      }),
    );
    const notice = within(await screen.findByRole('alert'));
    expect(notice.getByText('scores.jsonl line 12 is not JSON')).toBeTruthy();
    expect(notice.getByText(/restore it from a backup/)).toBeTruthy();
  });
});
