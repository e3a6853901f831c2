import '../page'; // first: the DOM the view is drawn in (tests/renderer/page.ts says why not @vitest-environment)
// The import flow's task labels (issue 38, item 6): the task field is sent with the import (as `lots import
// --task-field`), an import that leaves traces without a task offers the field the file suggests and a
// Route action that runs the engine's routing and shows the tasks it made. Against the real service: the
// picked file is imported into a real project, and the tests read the traces' tasks back from it.
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { emptyDir, renderStudio } from '../studio';

const REAL = fileURLToPath(new URL('../../fixtures/real/openai-responses/', import.meta.url));

afterEach(cleanup);

const FILE = 'agent-runs.jsonl';
/** Seven OpenAI-style records with the task under metadata.task: four about invoices, three about parcels. */
const LINES = [
  ...['refund invoice 1042', 'invoice 77 was charged twice', 'pay the open invoice for March', 'send the invoice PDF for order 9'].map((q) => ({
    q,
    task: 'billing',
  })),
  ...['track parcel 55 shipped to Lyon', 'parcel delayed at the depot', 'change the delivery address of my parcel'].map((q) => ({ q, task: 'shipping' })),
].map(({ q, task }) =>
  JSON.stringify({
    messages: [
      { role: 'user', content: q },
      { role: 'assistant', content: `done: ${q}` },
    ],
    metadata: { task },
  }),
);

function pick(): void {
  const input = screen.getByTestId<HTMLInputElement>('trace-file-input');
  fireEvent.change(input, { target: { files: [new File([LINES.join('\n')], FILE, { type: 'application/jsonl' })] } });
}

/** The task of every trace in the project, in import order (undefined: none). */
const tasksIn = (project: () => { iterTraces(): Iterable<{ task?: string }> }) => [...project().iterTraces()].map((t) => t.task);

describe('Import: task field and Route', () => {
  it('imports with the task field typed beside the Import button: every trace gets its task from it', async () => {
    const { project } = await renderStudio({ view: 'home' }, { dir: emptyDir() });
    fireEvent.change(screen.getByTestId('import-task-field'), { target: { value: ' metadata.task ' } });
    pick();
    await screen.findByTestId('import-report');
    expect(tasksIn(project).sort()).toEqual(['billing', 'billing', 'billing', 'billing', 'shipping', 'shipping', 'shipping']);
  });

  it('without a task field, the import labels nothing', async () => {
    const { project } = await renderStudio({ view: 'home' }, { dir: emptyDir() });
    pick();
    await screen.findByTestId('import-report');
    expect(tasksIn(project)).toEqual(Array.from({ length: 7 }, () => undefined));
  });

  it('after an import that left traces without a task: offers the guessed field, and Route runs the routing', async () => {
    const { store, project } = await renderStudio({ view: 'home' }, { dir: emptyDir() });
    pick();
    const panel = within(await screen.findByTestId('import-unlabelled'));
    expect(panel.getByText('7 traces arrived without a task')).toBeTruthy();
    expect(panel.getByText('metadata.task', { selector: 'code' })).toBeTruthy();
    fireEvent.click(panel.getByTestId('use-task-field-guess'));
    expect(screen.getByTestId<HTMLInputElement>('import-task-field').value).toBe('metadata.task');
    expect(store.getState().importTaskField).toBe('metadata.task');
    expect(screen.queryByTestId('use-task-field-guess')).toBeNull();
    fireEvent.click(panel.getByTestId('route-unlabelled'));
    const result = await screen.findByTestId('route-result');
    // What the routing stored: every trace in a task now; the view names each task and its size.
    const sizes = new Map<string, number>();
    for (const task of tasksIn(project)) sizes.set(task!, (sizes.get(task!) ?? 0) + 1);
    expect(sizes.size).toBeGreaterThan(1);
    const named = [...sizes].sort(([a], [b]) => a.localeCompare(b)).map(([task, n]) => `${task} (${n})`);
    expect(result.textContent).toBe(`Routed 7 traces into ${sizes.size} tasks: ${named.join(', ')}`);
    expect(screen.queryByTestId('import-unlabelled')).toBeNull();
    await waitFor(() => expect(store.getState().project?.traces).toBe(7));
  });

  it('an import where every trace has a task offers no Route', async () => {
    await renderStudio({ view: 'home' }, { dir: emptyDir() });
    fireEvent.change(screen.getByTestId('import-task-field'), { target: { value: 'metadata.task' } });
    pick();
    await screen.findByTestId('import-report');
    expect(screen.queryByTestId('import-unlabelled')).toBeNull();
    expect(screen.queryByTestId('route-unlabelled')).toBeNull();
  });
});

describe('Import report: records read into another trace', () => {
  it("says how many records went into another record's trace, so the file's record count adds up (the real background-mode cassette with its polls)", async () => {
    // pydantic-ai's cassette (tests/fixtures/real/openai-responses/SOURCE.md): 5 records, 2 traces, 3 later retrievals folded.
    const text = readFileSync(join(REAL, 'background-mode-with-tool.polls.jsonl'), 'utf8');
    await renderStudio({ view: 'home' }, { dir: emptyDir() });
    const input = screen.getByTestId<HTMLInputElement>('trace-file-input');
    fireEvent.change(input, { target: { files: [new File([text], 'background.jsonl', { type: 'application/jsonl' })] } });
    const report = await screen.findByTestId('import-report');
    expect(report.textContent).toContain("background.jsonl (openai): 2 added, 0 already there, 3 records read into another's trace");
  });
});
