// @vitest-environment happy-dom
// The import flow's task labels (issue 38, item 6): the task field is sent with the import (as `lots import
// --task-field`), an import that leaves traces without a task offers the field the file suggests and a
// Route action that runs the engine's routing and shows the tasks it made.
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import type { ImportReport, RouteReport } from '../../../shared/api';
import { fakeApi, project, renderStudio } from '../fake-api';

afterEach(cleanup);

const FILE = 'agent-runs.jsonl';
const LINES = ['{"messages":[{"role":"user","content":"a"}],"metadata":{"task":"billing"}}'];

function pick(): void {
  const input = screen.getByTestId<HTMLInputElement>('trace-file-input');
  fireEvent.change(input, { target: { files: [new File([LINES.join('\n')], FILE, { type: 'application/jsonl' })] } });
}

const unlabelledReport: ImportReport = {
  files: [
    {
      file: FILE,
      format: 'openai',
      added: 7,
      duplicates: 0,
      conflicts: [],
      rejected: [],
      moreRejected: 0,
      unlabelled: 7,
      taskFieldGuess: 'metadata.task',
    },
  ],
  project: { ...project, traces: project.traces + 7 },
};

describe('Import: task field and Route', () => {
  it('sends the task field typed beside the Import button with the picked files', async () => {
    const { api } = await renderStudio({ view: 'home' });
    fireEvent.change(screen.getByTestId('import-task-field'), { target: { value: ' metadata.task ' } });
    pick();
    await waitFor(() => expect(api.importTraces).toHaveBeenCalledTimes(1));
    expect(api.importTraces.mock.calls[0]![0]).toEqual({ files: [{ name: FILE, text: LINES.join('\n') }], taskField: 'metadata.task' });
  });

  it('without a task field, the import sends none', async () => {
    const { api } = await renderStudio({ view: 'home' });
    pick();
    await waitFor(() => expect(api.importTraces).toHaveBeenCalledTimes(1));
    expect(api.importTraces.mock.calls[0]![0]).not.toHaveProperty('taskField');
  });

  it('after an import that left traces without a task: offers the guessed field, and Route runs the routing', async () => {
    const routed: RouteReport = {
      routed: 7,
      sizes: { 'cluster-01': 4, 'cluster-02': 3 },
      silhouette: 0.41,
      project: { ...project, traces: project.traces + 7 },
    };
    const { api, store } = await renderStudio(
      { view: 'home' },
      fakeApi({
        importTraces: async () => structuredClone(unlabelledReport),
        routeTraces: async () => structuredClone(routed),
      }),
    );
    pick();
    const panel = within(await screen.findByTestId('import-unlabelled'));
    expect(panel.getByText('7 traces arrived without a task')).toBeTruthy();
    expect(panel.getByText('metadata.task', { selector: 'code' })).toBeTruthy();

    fireEvent.click(panel.getByTestId('use-task-field-guess'));
    expect(screen.getByTestId<HTMLInputElement>('import-task-field').value).toBe('metadata.task');
    expect(store.getState().importTaskField).toBe('metadata.task');
    expect(screen.queryByTestId('use-task-field-guess')).toBeNull();

    fireEvent.click(panel.getByTestId('route-unlabelled'));
    await waitFor(() => expect(api.routeTraces).toHaveBeenCalledTimes(1));
    const result = await screen.findByTestId('route-result');
    expect(result.textContent).toBe('Routed 7 traces into 2 tasks: cluster-01 (4), cluster-02 (3)');
    expect(screen.queryByTestId('import-unlabelled')).toBeNull();
    expect(store.getState().project?.traces).toBe(project.traces + 7);
  });

  it('an import where every trace has a task offers no Route', async () => {
    const labelled: ImportReport = { ...unlabelledReport, files: [{ ...unlabelledReport.files[0]!, unlabelled: 0, taskFieldGuess: undefined }] };
    await renderStudio({ view: 'home' }, fakeApi({ importTraces: async () => structuredClone(labelled) }));
    pick();
    await screen.findByTestId('import-report');
    expect(screen.queryByTestId('import-unlabelled')).toBeNull();
    expect(screen.queryByTestId('route-unlabelled')).toBeNull();
  });
});
