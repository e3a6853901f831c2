import '../page'; // first: the DOM the view is drawn in (tests/renderer/page.ts says why not @vitest-environment)
// The Jobs view against the real service: the jobs a user sees (as the job center announces them), the
// Score button starting a scoring job on the project, the Pause button, and an engine refusal shown as a
// notice. A job held mid-run (a scoring job 9 traces in, a sweep that failed) is not something a test can
// hold the real job center at, so those jobs (tests/renderer/jobs.ts) reach the page as the center's
// `jobUpdate` events.
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { announce, failedJob, scoreJob } from '../jobs';
import { modelFile, renderStudio, type Studio } from '../studio';

let studio: Studio | undefined;
afterEach(async () => {
  // A job this test started: cancelled, so its worker does not outlive the test.
  for (const job of (await studio?.service.listJobs()) ?? []) if (job.canCancel) await studio!.service.cancelJob({ id: job.id });
  studio = undefined;
  cleanup();
});

describe('JobsView', () => {
  it('lists the jobs, newest first, with progress, and the error and hint of a failed one', async () => {
    studio = await renderStudio({ view: 'jobs' });
    announce(studio.service, failedJob, scoreJob);
    const view = within(screen.getByTestId('view-jobs'));
    expect(view.getByRole('heading', { name: 'Jobs' })).toBeTruthy();
    expect(view.getByRole('heading', { name: 'Score the project' })).toBeTruthy();
    const rows = (await screen.findByTestId('jobs-list')).querySelectorAll('[data-job]');
    expect([...rows].map((r) => r.getAttribute('data-job'))).toEqual([scoreJob.id, failedJob.id]);
    const running = within(rows[0] as HTMLElement);
    expect(running.getByText('9 / 24 traces')).toBeTruthy();
    expect(running.getByText('running')).toBeTruthy();
    const failed = within(rows[1] as HTMLElement);
    expect(failed.getByText('MODEL_NOT_FOUND')).toBeTruthy();
    expect(failed.getByText(/Pick a GGUF on the Models view/)).toBeTruthy();
  });

  it("a job's message, cut to the row's width, reads whole on hover", async () => {
    studio = await renderStudio({ view: 'jobs' });
    const message =
      'best K = 2 over 4 budgets; the stored rows of lots, bm25 were measured against the previous ranking or K and are dropped; lots evaluate --baselines bm25 measures them again';
    announce(studio.service, { ...scoreJob, message });
    const row = within((await screen.findByTestId('jobs-list')).querySelector('[data-job]') as HTMLElement);
    expect(row.getByText(message).getAttribute('title')).toBe(message);
  });

  it('shows progress inside the trace being scored, and fills the bar with it', async () => {
    studio = await renderStudio({ view: 'jobs' });
    announce(studio.service, { ...scoreJob, done: 0, total: 1, inFlight: { traces: 1, sequencesDone: 6, sequences: 12 } });
    const row = within((await screen.findByTestId('jobs-list')).querySelector('[data-job]') as HTMLElement);
    expect(row.getByText('0 / 1 traces')).toBeTruthy();
    expect(row.getByTestId('job-in-flight').textContent).toBe('6 / 12 sequences in the trace being scored');
    const bar = row.getByRole('progressbar').firstElementChild as HTMLElement;
    expect(bar.style.width).toBe('50%');
  });

  it('scores the project with the model typed in the field, and not without one', async () => {
    studio = await renderStudio({ view: 'jobs' });
    expect(screen.getByTestId<HTMLButtonElement>('start-scoring').disabled).toBe(true);
    const model = modelFile();
    fireEvent.change(screen.getByTestId('score-model'), { target: { value: model } });
    fireEvent.click(screen.getByTestId('start-scoring'));
    // The job center holds a scoring job of the project with that model, and the model is now a recent one.
    await waitFor(async () => expect((await studio!.service.listJobs()).map((j) => j.kind)).toEqual(['score']));
    const [job] = await studio.service.listJobs();
    expect(job!.title).toContain('qwen2.5-0.5b-instruct-q4_k_m.gguf');
    expect((await studio.service.getModels()).recent.map((m) => m.path)).toEqual([model]);
    // It was started with the form's defaults: the evidence intervention on the answer span, the GPU picked automatically.
    expect(screen.getByTestId<HTMLSelectElement>('score-intervention').value).toBe('evidence');
    expect(studio.calls.get('startScoring')).toBe(1);
    await waitFor(() => expect(screen.getByTestId('jobs-list').querySelector(`[data-job="${job!.id}"]`)).toBeTruthy());
  });

  it('pauses a running job', async () => {
    // The job held mid-run is an announced one, so the real center does not know its id: pauseJob is
    // answered here as the center answers a pause of a running job, and records what the page asked.
    const paused: string[] = [];
    studio = await renderStudio(
      { view: 'jobs' },
      {
        faults: {
          pauseJob: async ({ id }) => {
            paused.push(id);
            return { ...scoreJob, status: 'paused', canPause: false, canResume: true };
          },
        },
      },
    );
    announce(studio.service, scoreJob);
    fireEvent.click(await screen.findByRole('button', { name: 'Pause' }));
    await waitFor(() => expect(paused).toEqual([scoreJob.id]));
  });

  it('shows the engine refusing to score as an error notice with its hint', async () => {
    studio = await renderStudio({ view: 'jobs' });
    fireEvent.change(screen.getByTestId('score-model'), { target: { value: '/models/m.gguf' } });
    fireEvent.click(screen.getByTestId('start-scoring'));
    const notice = within(await screen.findByRole('alert'));
    // The service's own refusal: no model file at that path (checked before a job is queued).
    expect(notice.getByText('Scoring did not start')).toBeTruthy();
    expect(notice.getByText('model file not found: /models/m.gguf. Check the path, or pick a .gguf file that exists.')).toBeTruthy();
    expect(notice.getByText(/Check the path on the Models view/)).toBeTruthy();
    expect(await studio.service.listJobs()).toEqual([]);
    expect(screen.queryAllByTestId('jobs-list')).toEqual([]); // no job appeared
  });
});
