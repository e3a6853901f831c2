import '../page'; // first: the DOM the view is drawn in (tests/renderer/page.ts says why not @vitest-environment)
// The Ranking view against the real engine service: the ranked tools with their intervals, the
// never-scored tools, the faithfulness check button asking the engine for the check, and a refused check
// shown as a notice.
import { rmSync } from 'node:fs';
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { financeProject, modelFile, renderStudio, TASK, TOOLS } from '../studio';

afterEach(cleanup);

describe('Ranking view', () => {
  it('lists the ranked tools in order with their scores and the tools never scored', async () => {
    const { api } = await renderStudio({ view: 'ranking', task: TASK });
    const table = await screen.findByTestId('ranking-table');
    const rows = within(table).getAllByRole('row').slice(1);
    expect(rows.map((r) => within(r).getAllByRole('cell')[1]!.textContent)).toEqual([TOOLS[0], TOOLS[1], TOOLS[2], TOOLS[3]]);
    // The first tool's bootstrap interval, as the engine computed it, around its mean.
    const first = (await api.getRanking({ task: TASK })).rows[0]!;
    expect(first.lo).toBeLessThanOrEqual(first.mean);
    expect(first.hi).toBeGreaterThanOrEqual(first.mean);
    expect(within(rows[0]!).getByText(`${first.lo.toFixed(3)} … ${first.hi.toFixed(3)}`)).toBeTruthy();
    expect(screen.getByRole('heading', { name: 'Exposed, never scored' })).toBeTruthy();
    expect(within(screen.getByRole('heading', { name: 'Exposed, never scored' }).closest('.card') as HTMLElement).getByText(TOOLS[4])).toBeTruthy();
  });

  it("runs the faithfulness check of the task's run with the run's model: the engine starts its job", async () => {
    const { dir } = financeProject({ model: modelFile() });
    const { api } = await renderStudio({ view: 'ranking', task: TASK }, { dir });
    fireEvent.click(await screen.findByTestId('run-faithfulness'));
    await waitFor(async () => expect((await api.listJobs()).filter((j) => j.kind === 'faithfulness' && j.task === TASK)).toHaveLength(1));
    expect(await screen.findByTestId('faithfulness-job')).toBeTruthy();
  });

  it('shows a refused check as an error notice', async () => {
    const model = modelFile();
    const { dir } = financeProject({ model });
    const { api } = await renderStudio({ view: 'ranking', task: TASK }, { dir });
    const button = await screen.findByTestId('run-faithfulness');
    rmSync(model); // the run's model file is gone by the time the check is asked for
    fireEvent.click(button);
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain('The faithfulness check did not start · INVALID_INPUT');
    const notice = within(alert);
    expect(notice.getByText(`the model file this run was scored with (${model}) is not on this machine; pick that file on the Models view`)).toBeTruthy();
    expect(await api.listJobs()).toEqual([]);
  });

  it('says so when nothing is scored yet', async () => {
    const { dir } = financeProject({ scored: false });
    await renderStudio({ view: 'ranking', task: TASK }, { dir });
    expect(await screen.findByText('Nothing ranked yet')).toBeTruthy();
  });
});
