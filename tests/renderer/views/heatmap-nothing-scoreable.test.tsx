import '../page'; // first: the DOM the view is drawn in (tests/renderer/page.ts says why not @vitest-environment)
// Issue 38 item 6: a task none of whose requests can be scored (every recorded answer empty) does not
// invite a scoring run that could only count its tools as exposed; the engine says which requests those are.
import { cleanup, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { buildHeatmap } from '../../../electron/engine/views/heatmap';
import type { Trace } from '../../../shared/trace/schema';
import { financeProject, renderStudio, TASK } from '../studio';

afterEach(cleanup);

describe('Heatmap of a task with nothing scoreable', () => {
  it('says so instead of offering "Score the project…"', async () => {
    // Every recorded answer of the task empty, nothing scored.
    const { dir, project } = financeProject({ scored: false, answers: '' });
    await renderStudio({ view: 'heatmap', task: TASK }, { dir });
    expect([...project.iterTraces()].every((t) => t.turns.every((turn) => turn.answer === ''))).toBe(true);
    expect(await screen.findByTestId('heatmap-nothing-scoreable')).toBeTruthy();
    expect(screen.queryByText('Score the project…')).toBeNull();
  });

  it('still offers scoring when the requests can be scored', async () => {
    const { dir } = financeProject({ scored: false });
    await renderStudio({ view: 'heatmap', task: TASK }, { dir });
    expect(await screen.findByText('Score the project…')).toBeTruthy();
    expect(screen.queryByTestId('heatmap-nothing-scoreable')).toBeNull();
  });

  it('the engine marks a request whose every answer is empty as not scoreable', () => {
    const t = (id: string, answer: string) =>
      ({
        v: 1,
        id,
        task: 'x',
        tools: [{ name: 'a' }],
        turns: [{ request: 'q', steps: [{ kind: 'message', role: 'assistant', content: 'hm' }], answer }],
      }) as Trace;
    const data = buildHeatmap({
      task: 'x',
      run: null,
      fit: undefined,
      menu: new Map([['a', {}]]),
      traces: [t('empty', ''), t('full', 'yes')],
      rows: [],
      rowByTrace: new Map(),
    } as unknown as Parameters<typeof buildHeatmap>[0]);
    expect(data.requests.map((r) => [r.id, r.scoreable])).toEqual([
      ['empty', false],
      ['full', true],
    ]);
  });
});
