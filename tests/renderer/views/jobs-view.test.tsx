// @vitest-environment happy-dom
// The Jobs view against a fake engine: the jobs a user sees, the Score button and the Pause button
// calling the engine, and an engine error shown as a notice.
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { ApiError } from '../../../shared/api';
import { failedJob, fakeApi, renderStudio, scoreJob } from '../fake-api';

afterEach(cleanup);

describe('JobsView', () => {
  it('lists the jobs, newest first, with progress, and the error and hint of a failed one', async () => {
    await renderStudio({ view: 'jobs' }, fakeApi({ listJobs: async () => [failedJob, scoreJob] }));
    const view = within(screen.getByTestId('view-jobs'));
    expect(view.getByRole('heading', { name: 'Jobs' })).toBeTruthy();
    expect(view.getByRole('heading', { name: 'Score the project' })).toBeTruthy();
    const rows = screen.getByTestId('jobs-list').querySelectorAll('[data-job]');
    expect([...rows].map((r) => r.getAttribute('data-job'))).toEqual([scoreJob.id, failedJob.id]);
    const running = within(rows[0] as HTMLElement);
    expect(running.getByText('9 / 24 traces')).toBeTruthy();
    expect(running.getByText('running')).toBeTruthy();
    const failed = within(rows[1] as HTMLElement);
    expect(failed.getByText('MODEL_NOT_FOUND')).toBeTruthy();
    expect(failed.getByText(/Pick a GGUF on the Models view/)).toBeTruthy();
  });

  it('shows progress inside the trace being scored, and fills the bar with it', async () => {
    const job = { ...scoreJob, done: 0, total: 1, inFlight: { traces: 1, sequencesDone: 6, sequences: 12 } };
    await renderStudio({ view: 'jobs' }, fakeApi({ listJobs: async () => [job] }));
    const row = within(screen.getByTestId('jobs-list').querySelector('[data-job]') as HTMLElement);
    expect(row.getByText('0 / 1 traces')).toBeTruthy();
    expect(row.getByTestId('job-in-flight').textContent).toBe('6 / 12 sequences in the trace being scored');
    const bar = row.getByRole('progressbar').firstElementChild as HTMLElement;
    expect(bar.style.width).toBe('50%');
  });

  it('scores the project with the model typed in the field, and not without one', async () => {
    const { api } = await renderStudio({ view: 'jobs' });
    expect(screen.getByTestId<HTMLButtonElement>('start-scoring').disabled).toBe(true);
    fireEvent.change(screen.getByTestId('score-model'), { target: { value: '/models/qwen2.5-0.5b-instruct-q4_k_m.gguf' } });
    fireEvent.click(screen.getByTestId('start-scoring'));
    await waitFor(() => expect(api.startScoring).toHaveBeenCalledTimes(1));
    expect(api.startScoring.mock.calls[0]![0]).toMatchObject({
      model: '/models/qwen2.5-0.5b-instruct-q4_k_m.gguf',
      intervention: 'evidence',
      span: 'answer',
      gpu: 'auto',
    });
  });

  it('pauses a running job', async () => {
    const { api } = await renderStudio({ view: 'jobs' }, fakeApi({ listJobs: async () => [scoreJob] }));
    fireEvent.click(screen.getByRole('button', { name: 'Pause' }));
    await waitFor(() => expect(api.pauseJob).toHaveBeenCalledWith({ id: scoreJob.id }));
  });

  it('shows the engine refusing to score as an error notice with its hint', async () => {
    await renderStudio(
      { view: 'jobs' },
      fakeApi({
        startScoring: async () => {
          throw new ApiError('PROJECT_LOCKED', 'another process holds the project lock (lots import, pid 4242)');
        },
      }),
    );
    fireEvent.change(screen.getByTestId('score-model'), { target: { value: '/models/m.gguf' } });
    fireEvent.click(screen.getByTestId('start-scoring'));
    const notice = within(await screen.findByRole('alert'));
    expect(notice.getByText('Scoring did not start')).toBeTruthy();
    expect(notice.getByText('another process holds the project lock (lots import, pid 4242)')).toBeTruthy();
    expect(notice.getByText(/wait for it to finish/)).toBeTruthy();
    expect(screen.queryAllByTestId('jobs-list')).toEqual([]); // no job appeared
  });
});
