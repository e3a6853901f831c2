// @vitest-environment happy-dom
// The Heatmap view against a fake engine: the task's requests and tools reach the canvas frame (its
// accessible label counts them), the legend is drawn, and an engine error while loading is a notice.
import { cleanup, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { ApiError } from '../../../shared/api';
import { fakeApi, renderStudio, TASK } from '../fake-api';

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
