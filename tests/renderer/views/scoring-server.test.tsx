import '../page'; // first: the DOM the view is drawn in (tests/renderer/page.ts says why not @vitest-environment)
// The Models view's Scoring server card and the Jobs view's "Score on" choice against the real service:
// endpoints typed one per line are checked by the engine one at a time (Ctrl+Enter in the list, or the
// Check button) against a llama-server stand-in on 127.0.0.1 (tests/faults/fake-llama-server.ts, the
// protocol the remote client speaks) and a port nothing listens on; what each serves and the exact error
// of the unreachable one are shown, saved settings fill the fields and can be forgotten, an engine refusal
// is a notice; jobs score on this machine unless the servers are chosen, and cannot choose them when none
// are kept.
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { LlamaModel } from 'node-llama-cpp';
import type { ApiInput, StudioApi } from '../../../shared/api';
import { ensureFixtureModel } from '../../../electron/engine/gguf/fixture-cache';
import { loadVocabulary } from '../../../electron/engine/jobs/remote-job';
import { startFakeLlamaServer, type FakeLlamaServer } from '../../faults/fake-llama-server';
import { freePort } from '../../engine/scoring/remote/llama-server-process';
import { modelFile, renderStudio, type Studio } from '../studio';

/** A key variable the engine may send (LOTS_SCORING_KEY_*); its value is never set here. */
const KEY_ENV = 'LOTS_SCORING_KEY_LAB';
let vocab: LlamaModel;
let server: FakeLlamaServer;
let UP: string;
let DOWN: string;

beforeAll(async () => {
  process.env[KEY_ENV] = 'sk-lots-view-test'; // set where the engine runs, as `lots ui` would have it
  vocab = await loadVocabulary(ensureFixtureModel(join(tmpdir(), 'lots-fixtures'), { kind: 'random' }));
  server = await startFakeLlamaServer(vocab, { slots: 4 });
  UP = server.url;
  DOWN = `http://127.0.0.1:${await freePort()}`; // closed again: a connection there is refused
}, 120_000);

afterAll(async () => {
  delete process.env[KEY_ENV];
  await server?.close();
  await vocab?.dispose();
});

let studio: Studio | undefined;
afterEach(async () => {
  for (const job of (await studio?.service.listJobs()) ?? []) if (job.canCancel) await studio!.service.cancelJob({ id: job.id });
  studio = undefined;
  cleanup();
});

/** What the page sent to `method` of the real service (passed through unchanged): the service is the one answering. */
function recording<M extends 'checkScoringServer' | 'startScoring'>(method: M) {
  const sent: ApiInput<M>[] = [];
  let real: StudioApi | undefined;
  const before = async (api: StudioApi) => void (real = api);
  const faults = { [method]: (input: ApiInput<M>) => (sent.push(input), (real![method] as (i: ApiInput<M>) => unknown)(input)) } as Partial<StudioApi>;
  return { sent, before, faults };
}

const save = async (api: StudioApi) => void (await api.saveScoringServer({ backend: 'llama-server', endpoints: [UP, DOWN], apiKeyEnv: KEY_ENV }));

describe('Scoring server card (Models view)', () => {
  it('checks the endpoints typed one per line (Ctrl+Enter) and shows what each serves and the exact error of the unreachable one', async () => {
    const rec = recording('checkScoringServer');
    studio = await renderStudio({ view: 'models' }, { dir: null, before: rec.before, faults: rec.faults });
    const card = within(await screen.findByTestId('scoring-server'));
    const check = card.getByRole<HTMLButtonElement>('button', { name: 'Check' });
    expect(check.disabled).toBe(true); // nothing typed yet
    expect(check.type).toBe('submit');
    fireEvent.change(card.getByLabelText('Endpoints (one URL per line)'), { target: { value: `${UP}\n  ${DOWN}\n` } });
    fireEvent.change(card.getByLabelText('API key variable (optional)'), { target: { value: KEY_ENV } });
    expect(check.disabled).toBe(false);
    fireEvent.keyDown(card.getByLabelText('Endpoints (one URL per line)'), { key: 'Enter', ctrlKey: true });
    // One endpoint per check (issue 37): each in turn, in the order typed; the last answer carries the composed check.
    await waitFor(() => expect(rec.sent).toHaveLength(2));
    expect(rec.sent).toEqual([
      { endpoints: [UP], apiKeyEnv: KEY_ENV },
      { endpoints: [DOWN], apiKeyEnv: KEY_ENV },
    ]);

    const result = within(await screen.findByTestId('server-check', {}, { timeout: 15_000 }));
    const up = result.getByText(UP).closest('tr')!;
    expect(up.getAttribute('data-reachable')).toBe('true');
    expect(within(up).getByText('reachable')).toBeTruthy();
    expect(within(up).getByText(server.model.name)).toBeTruthy();
    expect(within(up).getByText(/^llama-server:fake-model-a@[0-9a-f]+$/)).toBeTruthy(); // the run key it would score under
    expect(within(up).getByText('4')).toBeTruthy();
    expect(within(up).getByText('4,096')).toBeTruthy();
    const down = result.getByText(DOWN).closest('tr')!;
    expect(down.getAttribute('data-reachable')).toBe('false');
    expect(within(down).getByText('unreachable')).toBeTruthy();
    expect(result.getByText(`${DOWN} could not be reached (ECONNREFUSED)`, { exact: false })).toBeTruthy();
    expect(result.getByText('SERVER_UNAVAILABLE')).toBeTruthy();
    expect(within(result.getByTestId('server-summary')).getByText(/1 of 2 endpoints did not answer/)).toBeTruthy();
  }, 30_000);

  it('offers every backend of the registry: vLLM chosen is sent with the check, and its start command is the hint', async () => {
    const rec = recording('checkScoringServer');
    studio = await renderStudio({ view: 'models' }, { dir: null, before: rec.before, faults: rec.faults });
    const card = within(await screen.findByTestId('scoring-server'));
    const kind = card.getByTestId<HTMLSelectElement>('server-backend');
    expect([...kind.options].map((o) => o.value)).toEqual(['llama-server', 'vllm']);
    expect(kind.value).toBe('llama-server');
    fireEvent.change(kind, { target: { value: 'vllm' } });
    expect(card.getByText('vllm serve MODEL_DIR --served-model-name NAME --port 8000')).toBeTruthy();
    fireEvent.change(card.getByLabelText('Endpoints (one URL per line)'), { target: { value: UP } });
    fireEvent.click(card.getByRole('button', { name: 'Check' }));
    await waitFor(() => expect(rec.sent).toHaveLength(1));
    expect(rec.sent[0]).toEqual({ backend: 'vllm', endpoints: [UP] });
    // The engine checked UP (as a vLLM server) and its answer is drawn.
    const result = await screen.findByTestId('server-check', {}, { timeout: 15_000 });
    expect(within(result).getByText(UP)).toBeTruthy();
  }, 30_000);

  it('fills the fields from the saved settings, and Forget removes them', async () => {
    studio = await renderStudio({ view: 'models' }, { dir: null, before: save });
    const { file } = await studio.service.getScoringServer();
    const card = within(await screen.findByTestId('scoring-server'));
    await waitFor(() => expect(card.getByTestId<HTMLTextAreaElement>('server-endpoints').value).toBe(`${UP}\n${DOWN}`));
    expect(card.getByTestId<HTMLInputElement>('server-api-key-env').value).toBe(KEY_ENV);
    expect(card.getByText(/have not been checked in this session/)).toBeTruthy();
    expect(card.getByText(file)).toBeTruthy();
    fireEvent.click(card.getByRole('button', { name: 'Forget' }));
    await waitFor(() => expect(card.queryByRole('button', { name: 'Forget' })).toBeNull());
    expect(card.getByTestId<HTMLTextAreaElement>('server-endpoints').value).toBe('');
    expect((await studio.service.getScoringServer()).settings).toBeNull(); // gone from the engine's settings file
  });

  it('shows the engine refusing a URL as an error notice, with no result table', async () => {
    studio = await renderStudio({ view: 'models' }, { dir: null });
    const card = within(await screen.findByTestId('scoring-server'));
    fireEvent.change(card.getByTestId('server-endpoints'), { target: { value: 'ftp://10.0.0.7' } });
    fireEvent.click(card.getByRole('button', { name: 'Check' }));
    const notice = within(await screen.findByRole('alert'));
    expect(notice.getByText('Cannot check the scoring server')).toBeTruthy();
    expect(
      notice.getByText(
        '"ftp://10.0.0.7" is not an endpoint URL (endpoint ftp://10.0.0.7: only http and https are supported); give http://host:port, e.g. http://127.0.0.1:8080',
      ),
    ).toBeTruthy();
    expect(screen.queryByTestId('server-check')).toBeNull();
  });
});

describe('Score on (Jobs view)', () => {
  it('scores on this machine by default and on the kept scoring servers when they are chosen', async () => {
    const rec = recording('startScoring');
    const model = modelFile();
    studio = await renderStudio({ view: 'jobs' }, { faults: rec.faults, before: async (api) => (await rec.before(api), void (await save(api))) });
    const where = screen.getByTestId<HTMLSelectElement>('score-backend');
    await waitFor(() => expect(within(where).getByRole<HTMLOptionElement>('option', { name: 'the scoring servers (2)' }).disabled).toBe(false));
    expect(where.value).toBe('local');
    fireEvent.change(screen.getByTestId('score-model'), { target: { value: model } });
    fireEvent.click(screen.getByTestId('start-scoring'));
    await waitFor(() => expect(rec.sent).toHaveLength(1));
    expect(rec.sent[0]).not.toHaveProperty('backend');

    fireEvent.change(where, { target: { value: 'server' } });
    expect(screen.getByTestId('score-backend-note').textContent).toContain(`${UP}, ${DOWN}`);
    fireEvent.click(screen.getByTestId('start-scoring'));
    await waitFor(() => expect(rec.sent).toHaveLength(2));
    expect(rec.sent[1]).toMatchObject({ model, backend: 'server' });
    // Both reached the job center: two scoring jobs of the project.
    await waitFor(async () => expect((await studio!.service.listJobs()).filter((j) => j.kind === 'score')).toHaveLength(2));
  });

  it('cannot choose the scoring servers when none are kept', async () => {
    studio = await renderStudio({ view: 'jobs' });
    const where = screen.getByTestId<HTMLSelectElement>('score-backend');
    const option = within(where).getByRole<HTMLOptionElement>('option', { name: 'the scoring server(s): none set' });
    expect(option.disabled).toBe(true);
    expect(where.value).toBe('local');
  });
});
