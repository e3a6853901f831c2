import '../page'; // first: the DOM the view is drawn in (tests/renderer/page.ts says why not @vitest-environment)
// The Jobs view as a stakeholder meets it (issue 40): a project scored in an earlier session shows its
// finished runs instead of a bare "No jobs yet"; the scoring form defaults to the intervention the
// project was scored with; a disabled Score says why; the view-only link hides the form and disables
// the job buttons, saying why. Against the real service, on a project holding two scoring runs.
import { cleanup, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import type { StoredScore } from '../../../shared/project/scores';
import { announce, scoreJob } from '../jobs';
import { financeProject, renderStudio, TASK, TOOLS } from '../studio';

afterEach(cleanup);

/** The finance project scored twice in earlier sessions: with old.gguf (evidence, 12 traces), then with qwen (reexecute, all 24). */
function twoRuns(): string {
  const { dir, project, traces } = financeProject({ scored: false });
  const rows = (hash: string, intervention: 'evidence' | 'reexecute', model: string, at: string, n: number): StoredScore[] =>
    traces.slice(0, n).map((t, i) => ({
      key: `${hash}|${intervention}|answer|ChatML|${t.id}`,
      run: `${hash}|${intervention}|answer|ChatML`,
      intervention,
      span: 'answer',
      format: 'ChatML',
      trace: t.id,
      task: TASK,
      exposed: t.tools.map((x) => x.name),
      scores: Object.fromEntries(TOOLS.slice(0, 4).map((tool, c) => [tool, 0.4 - 0.1 * c + (i % 3) * 0.01])),
      model,
      createdAt: at,
    }));
  project.appendScores(rows('aaaa1111bbbb2222', 'evidence', '/models/old.gguf', '2026-11-01T09:00:00.000Z', 12));
  project.appendScores(rows('3f9a1c2e7b6d5a40', 'reexecute', '/models/qwen2.5-0.5b-instruct-q4_k_m.gguf', '2026-11-30T09:12:00.000Z', 24));
  return dir;
}

describe('JobsView (issue 40)', () => {
  it('lists the finished scoring runs of the project when no job ran in this session', async () => {
    await renderStudio({ view: 'jobs' }, { dir: twoRuns() });
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
    await renderStudio({ view: 'jobs' }, { dir: twoRuns() });
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
    const { service, calls } = await renderStudio({ view: 'jobs' }, { viewOnly: true });
    // A scoring job running (started from the full link): its update, as the job center sends it.
    announce(service, scoreJob);
    expect(screen.queryByTestId('start-scoring')).toBeNull();
    expect(screen.getByTestId('view-only-note')).toBeTruthy();
    const pause = await screen.findByRole<HTMLButtonElement>('button', { name: 'Pause' });
    expect(pause.disabled).toBe(true);
    expect(pause.title).toContain('view-only link');
    expect(calls.get('getScoringServer')).toBeUndefined();
  });
});
