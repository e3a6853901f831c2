import '../page'; // first: the DOM the view is drawn in (tests/renderer/page.ts says why not @vitest-environment)
// Under the view-only link (issue 40, item 15) the Models view says what is off instead of asking the
// engine for the machine's model files and GPU (the host would refuse); Export's "all approved spaces"
// and the Project view's import and close are disabled with the reason; the full link is unchanged.
// The real service behind the in-memory transport, answering as the web host answers that link.
import { cleanup, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { approveProposal, financeProject, renderStudio, TASK } from '../studio';

afterEach(cleanup);

describe('view-only link: Models, Export and Project', () => {
  it('Models: a note, and no request for model files, the GPU or the scoring servers', async () => {
    const { calls } = await renderStudio({ view: 'models' }, { viewOnly: true });
    expect((await screen.findByTestId('view-only-note')).textContent).toContain('The models, the compute card and the scoring servers are off here');
    expect(calls.get('getModels')).toBeUndefined();
    expect(calls.get('getGpuInfo')).toBeUndefined();
    expect(calls.get('getScoringServer')).toBeUndefined();
    expect(screen.queryByTestId('scoring-server')).toBeNull();
    // Nothing was refused either: the page asked only for what the link may read.
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('Models with the full link: asks as before', async () => {
    const { calls } = await renderStudio({ view: 'models' });
    await waitFor(() => expect(calls.get('getModels')).toBeGreaterThan(0));
    expect(screen.queryByTestId('view-only-note')).toBeNull();
  });

  it('Export: "all approved spaces" is disabled and says why', async () => {
    const { dir } = financeProject();
    await approveProposal(dir);
    await renderStudio({ view: 'export', task: TASK }, { dir, viewOnly: true });
    const all = await screen.findByTestId<HTMLButtonElement>('export-all');
    expect(all.disabled).toBe(true);
    expect(all.title).toContain('view-only link');
  });

  it('Project: importing and closing are disabled with the reason, and there is no Score button', async () => {
    await renderStudio({ view: 'home' }, { viewOnly: true });
    const importButton = await screen.findByTestId<HTMLButtonElement>('import-traces');
    expect(importButton.disabled).toBe(true);
    expect(importButton.title).toContain('view-only link');
    expect(screen.queryByRole('button', { name: 'Score…' })).toBeNull();
    expect(screen.getByRole<HTMLButtonElement>('button', { name: 'Close' }).disabled).toBe(true);
  });
});
