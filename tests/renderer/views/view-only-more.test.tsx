// @vitest-environment happy-dom
// Under the view-only link (issue 40, item 15) the Models view says what is off instead of asking the
// engine for the machine's model files and GPU (the host would refuse); Export's "all approved spaces"
// and the Project view's import and close are disabled with the reason; the full link is unchanged.
import { cleanup, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { appInfo, fakeApi, renderStudio, TASK } from '../fake-api';

afterEach(cleanup);

const viewOnly = { getAppInfo: async () => ({ ...appInfo, viewOnly: true }) };

describe('view-only link: Models, Export and Project', () => {
  it('Models: a note, and no request for model files, the GPU or the scoring servers', async () => {
    const { api } = await renderStudio({ view: 'models' }, fakeApi(viewOnly));
    expect((await screen.findByTestId('view-only-note')).textContent).toContain('The models, the compute card and the scoring servers are off here');
    expect(api.getModels).not.toHaveBeenCalled();
    expect(api.getGpuInfo).not.toHaveBeenCalled();
    expect(api.getScoringServer).not.toHaveBeenCalled();
    expect(screen.queryByTestId('scoring-server')).toBeNull();
  });

  it('Models with the full link: asks as before', async () => {
    const { api } = await renderStudio({ view: 'models' });
    await waitFor(() => expect(api.getModels).toHaveBeenCalled());
    expect(screen.queryByTestId('view-only-note')).toBeNull();
  });

  it('Export: "all approved spaces" is disabled and says why', async () => {
    await renderStudio({ view: 'export', task: TASK }, fakeApi(viewOnly));
    const all = await screen.findByTestId<HTMLButtonElement>('export-all');
    expect(all.disabled).toBe(true);
    expect(all.title).toContain('view-only link');
  });

  it('Project: importing and closing are disabled with the reason, and there is no Score button', async () => {
    await renderStudio({ view: 'home' }, fakeApi(viewOnly));
    const importButton = await screen.findByTestId<HTMLButtonElement>('import-traces');
    expect(importButton.disabled).toBe(true);
    expect(importButton.title).toContain('view-only link');
    expect(screen.queryByRole('button', { name: 'Score…' })).toBeNull();
    expect(screen.getByRole<HTMLButtonElement>('button', { name: 'Close' }).disabled).toBe(true);
  });
});
