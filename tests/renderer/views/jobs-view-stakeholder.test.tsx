// @vitest-environment happy-dom
// The Jobs view as a stakeholder meets it (issue 40): a project scored in an earlier session shows its
// finished runs instead of a bare "No jobs yet"; the scoring form defaults to the intervention the
// project was scored with; a disabled Score says why; the view-only link hides the form and disables
// the job buttons, saying why.
import { cleanup, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { appInfo, fakeApi, project, renderStudio, scoreJob } from '../fake-api';

afterEach(cleanup);

const rexecProject = {
  ...project,
  runs: [
    {
      run: 'aaaa1111bbbb2222|evidence|answer|ChatML',
      model: '/models/old.gguf',
      intervention: 'evidence',
      span: 'answer',
      rows: 12,
      lastAt: '2026-11-01T09:00:00.000Z',
    },
    {
      run: '3f9a1c2e7b6d5a40|reexecute|answer|ChatML',
      model: '/models/qwen2.5-0.5b-instruct-q4_k_m.gguf',
      intervention: 'reexecute',
      span: 'answer',
      rows: 24,
      lastAt: '2026-11-30T09:12:00.000Z',
    },
  ],
};

describe('JobsView (issue 40)', () => {
  it('lists the finished scoring runs of the project when no job ran in this session', async () => {
    await renderStudio({ view: 'jobs' }, fakeApi({ getProject: async () => structuredClone(rexecProject) }));
    const view = within(screen.getByTestId('view-jobs'));
    expect(view.queryByText('No jobs yet')).toBeNull();
    expect(view.getByText('No job started in this session')).toBeTruthy();
    const rows = within(screen.getByTestId('stored-runs')).getAllByRole('row').slice(1);
    expect(rows.map((r) => r.textContent)).toEqual([expect.stringContaining('old.gguf'), expect.stringContaining('qwen2.5-0.5b-instruct-q4_k_m.gguf')]);
    expect(rows[1]!.textContent).toContain('reexecute');
    expect(rows[1]!.textContent).toContain('24');
    // No raw run key on screen.
    expect(screen.getByTestId('view-jobs').textContent).not.toContain('3f9a1c2e7b6d5a40');
  });

  it('defaults the intervention to the one the project was last scored with', async () => {
    await renderStudio({ view: 'jobs' }, fakeApi({ getProject: async () => structuredClone(rexecProject) }));
    expect(screen.getByTestId<HTMLSelectElement>('score-intervention').value).toBe('reexecute');
    expect(screen.getByTestId('score-defaults').textContent).toContain('reexecute');
  });

  it('says why Score is disabled', async () => {
    await renderStudio({ view: 'jobs' });
    const score = screen.getByTestId<HTMLButtonElement>('start-scoring');
    expect(score.disabled).toBe(true);
    expect(score.title).toMatch(/needs a model/);
    expect(score.getAttribute('aria-describedby')).toBe('score-why');
    expect(screen.getByTestId('score-why').textContent).toMatch(/Score needs a model: type the path of a GGUF file/);
  });

  it('under the view-only link: no scoring form, and the job buttons are disabled with the reason', async () => {
    const { api } = await renderStudio(
      { view: 'jobs' },
      fakeApi({ getAppInfo: async () => ({ ...appInfo, viewOnly: true }), listJobs: async () => [scoreJob] }),
    );
    expect(screen.queryByTestId('start-scoring')).toBeNull();
    expect(screen.getByTestId('view-only-note')).toBeTruthy();
    const pause = screen.getByRole<HTMLButtonElement>('button', { name: 'Pause' });
    expect(pause.disabled).toBe(true);
    expect(pause.title).toContain('view-only link');
    expect(api.getScoringServer).not.toHaveBeenCalled();
  });
});
