import '../page'; // first: the DOM the view is drawn in (tests/renderer/page.ts says why not @vitest-environment)
// The History view as a stakeholder meets it (issues 40 and 39): the run is named by its model and date,
// not its key; a proposal equal to the approved version says so instead of "not applied"; a folded space
// that differs from the deployed one says what it would add and drop; each running-score line has its
// own dash and marker and can be singled out; the view-only link disables folding and says why. Against
// the real service, on a project whose two imports were folded by the engine's own update use case.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { cleanup, fireEvent, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import type { StoredScore } from '../../../shared/project/scores';
import type { Trace } from '../../../shared/trace/schema';
import { ProjectStore } from '../../../electron/engine/store';
import { makeLineTraces } from '../../e2e/fixtures';
import { inMemoryApi } from '../harness';
import { renderStudio, serviceFor, TASK, TOOLS } from '../studio';

afterEach(cleanup);

const HASH = '3f9a1c2e7b6d5a40';
const RUN = `${HASH}|evidence|answer|ChatML`;
const MODEL = '/models/qwen2.5-0.5b-instruct-q4_k_m.gguf';
const [T0, T1, T2, T3] = [TOOLS[0], TOOLS[1], TOOLS[2], TOOLS[3]];

/** Score rows of the model run: the four ranked tools at 0.4, 0.3, 0.2, -0.01 (±0.01), so top-3 proposes T0, T1, T2. */
function rows(traces: Trace[]): StoredScore[] {
  return traces.map((t, i) => ({
    key: `${RUN}|${t.id}`,
    run: RUN,
    intervention: 'evidence',
    span: 'answer',
    format: 'ChatML',
    trace: t.id,
    task: TASK,
    exposed: t.tools.map((x) => x.name),
    scores: Object.fromEntries([0.4, 0.3, 0.2, -0.01].map((m, c) => [TOOLS[c]!, Number((m + ((i % 3) - 1) * 0.01).toFixed(5))])),
    model: MODEL,
    createdAt: '2026-11-30T09:12:00.000Z',
  }));
}

/**
 * The finance task imported in two batches of 12 (batch-1.jsonl, batch-2.jsonl), both scored with the
 * model, folded with top-3 through the service (what History's Fold does), and `approved` approved as
 * v0. With `deferredCalls`, the second batch was served by a gateway that deferred T2 and T3 (its
 * `meta.gateway.deferred`), and the agent called T2 in two of its requests and T3 in one.
 */
async function foldedProject(approved: string[], options: { deferredCalls?: boolean } = {}): Promise<string> {
  const dir = mkdtempSync(join(tmpdir(), 'lots-views-history-'));
  const project = ProjectStore.create(dir, 'finance');
  const traces = makeLineTraces({ task: TASK, requests: 24, tools: TOOLS.length });
  const [first, second] = [traces.slice(0, 12), traces.slice(12)];
  if (options.deferredCalls === true) {
    second.forEach((t, i) => {
      t.meta = { gateway: { deferred: [T2, T3] } };
      const called = i < 2 ? T2 : i === 2 ? T3 : null;
      if (called !== null) t.turns[0]!.steps.unshift({ kind: 'call', calls: [{ id: `${t.id}.c0`, name: called, arguments: { q: 'rate' } }] });
    });
  }
  project.addTraces(first, 'batch-1.jsonl');
  project.addTraces(second, 'batch-2.jsonl');
  project.appendScores(rows(traces));
  const api = inMemoryApi(serviceFor(dir));
  const folded = await api.updateSpace({ task: TASK, rule: 'topk', k: 3 });
  expect(folded.updates?.batches.map((b) => b.label)).toEqual(['batch-1.jsonl', 'batch-2.jsonl']);
  // A version other than the proposal needs its reason (the service refuses it without a note).
  await api.acceptSpace({ task: TASK, tools: approved, rule: { kind: 'topk', k: 3 }, note: 'the space the gateway deploys' });
  return dir;
}

describe('History view (issues 40 and 39)', () => {
  it('names the run by model and date, and says a proposal equal to the approved version matches it', async () => {
    await renderStudio({ view: 'history', task: TASK }, { dir: await foldedProject([T0, T1, T2]) });
    const summary = (await screen.findByTestId('history-summary')).textContent;
    expect(summary).not.toContain(HASH);
    expect(summary).toContain('qwen2.5-0.5b-instruct-q4_k_m.gguf · evidence · answer');
    expect(summary).toContain('2026');
    const status = screen.getByTestId('history-proposal-status').textContent;
    expect(status).not.toContain('not applied');
    expect(status).toContain('the same tools as the deployed v0');
    expect(screen.queryByTestId('history-differs')).toBeNull();
  });

  it('says where the folded space differs from the deployed one', async () => {
    await renderStudio({ view: 'history', task: TASK }, { dir: await foldedProject([T0, T1, T3]) });
    const note = (await screen.findByTestId('history-differs')).textContent;
    expect(note).toContain('The folded space is not the deployed one');
    expect(note).toContain(`would add ${T2}`);
    expect(note).toContain(`would drop ${T3}, which v0 keeps`);
    expect(screen.getByTestId('history-proposal-status').textContent).toContain('differs from the deployed v0 · not applied');
  });

  it('gives each running-score line its own dash and marker, and singles one out', async () => {
    await renderStudio({ view: 'history', task: TASK }, { dir: await foldedProject([T0, T1, T2]) });
    const group = await screen.findByTestId('history-line-focus');
    const keys = [...group.querySelectorAll('button')].map((b) => {
      const line = b.querySelector('line')!;
      const marker = b.querySelector('svg > :not(line)')!;
      return `${line.getAttribute('stroke')}|${line.getAttribute('stroke-dasharray') ?? ''}|${marker.outerHTML.replace(/"[\d.,\sMLZ-]+"/g, '')}`;
    });
    expect(keys).toHaveLength(4);
    expect(new Set(keys.map((k) => k.split('|')[1])).size).toBe(4);
    expect(new Set(keys.map((k) => k.split('|')[2])).size).toBe(4);
    const button = group.querySelector<HTMLButtonElement>(`button[data-tool="${T2}"]`)!;
    fireEvent.click(button);
    expect(button.getAttribute('aria-pressed')).toBe('true');
  });

  it('under the view-only link: Fold is disabled and says why', async () => {
    await renderStudio({ view: 'history', task: TASK }, { dir: await foldedProject([T0, T1, T2]), viewOnly: true });
    const fold = await screen.findByTestId<HTMLButtonElement>('fold-batches');
    expect(fold.disabled).toBe(true);
    expect(fold.title).toContain('view-only link');
    expect(screen.getByText(/Folding is off: view-only link/)).toBeTruthy();
  });

  it('marks the tools called while deferred in a batch, and the one the rule then pinned as promoted (issue 44 item 4)', async () => {
    await renderStudio({ view: 'history', task: TASK }, { dir: await foldedProject([T0, T1], { deferredCalls: true }) });
    const timeline = await screen.findByTestId('history-timeline');
    const cell = (tool: string) => timeline.querySelectorAll(`tr[data-tool="${tool}"] td`)[1]!;
    expect(cell(T2).querySelector('[aria-label="promoted"]')).toBeTruthy();
    expect(cell(T2).getAttribute('title')).toContain(`${T2} promoted at batch 2: called while deferred in 2 traces, and the rule now pins it`);
    expect(cell(T3).querySelector('[aria-label="called while deferred"]')).toBeTruthy();
    expect(cell(T3).getAttribute('title')).toContain('called while deferred in 1 trace of batch 2; the rule keeps it deferred');
    expect(cell(T1).querySelector('[aria-label="called while deferred"], [aria-label="promoted"]')).toBeNull();
    expect(timeline.closest('.card')!.textContent).toContain('★ promoted');
  });
});
