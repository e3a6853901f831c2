// @vitest-environment happy-dom
// The History view as a stakeholder meets it (issues 40 and 39): the run is named by its model and date,
// not its key; a proposal equal to the approved version says so instead of "not applied"; a folded space
// that differs from the deployed one says what it would add and drop; each running-score line has its
// own dash and marker and can be singled out; the view-only link disables folding and says why.
import { cleanup, fireEvent, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import type { HistoryData } from '../../../shared/api';
import type { SpaceVersion } from '../../../shared/project/spaces';
import { appInfo, fakeApi, project, renderStudio, TASK } from '../fake-api';

afterEach(cleanup);

const RUN = project.runs[0]!.run;
const AT = '2026-11-30T09:12:00.000Z';

function version(tools: string[]): SpaceVersion {
  return {
    version: 0,
    task: TASK,
    tools,
    deferred: [],
    pinned: [],
    banned: [],
    deferEdits: [],
    rule: { kind: 'topk', k: 3 },
    note: '',
    run: RUN,
    createdAt: AT,
  };
}

function history(proposal: string[], approved: string[]): HistoryData {
  const running = { CurrencyConvert: 0.41, ExchangeRate: 0.4, LedgerPost: 0.39, TaxLookup: -0.01 };
  const batch = (n: number) => ({
    batch: n,
    source: `000${n}.jsonl`,
    label: `batch-${n}.jsonl`,
    traces: 12,
    scored: 12,
    batchMeans: running,
    running,
    proposed: proposal,
    entered: [],
    left: [],
    at: AT,
  });
  return {
    task: TASK,
    updates: { task: TASK, alpha: 0.2, rule: { kind: 'topk', k: 3 }, run: RUN, batches: [batch(1), batch(2)] },
    proposal,
    waiting: [],
    versions: [version(approved)],
    stream: null,
  };
}

describe('History view (issues 40 and 39)', () => {
  it('names the run by model and date, and says a proposal equal to the approved version matches it', async () => {
    const same = ['CurrencyConvert', 'ExchangeRate', 'LedgerPost'];
    await renderStudio({ view: 'history', task: TASK }, fakeApi({ getHistory: async () => history(same, same) }));
    const summary = (await screen.findByTestId('history-summary')).textContent;
    expect(summary).not.toContain(RUN);
    expect(summary).toContain('qwen2.5-0.5b-instruct-q4_k_m.gguf · evidence · answer');
    expect(summary).toContain('2026');
    const status = screen.getByTestId('history-proposal-status').textContent;
    expect(status).not.toContain('not applied');
    expect(status).toContain('the same tools as the deployed v0');
    expect(screen.queryByTestId('history-differs')).toBeNull();
  });

  it('says where the folded space differs from the deployed one', async () => {
    await renderStudio(
      { view: 'history', task: TASK },
      fakeApi({ getHistory: async () => history(['CurrencyConvert', 'ExchangeRate', 'TaxLookup'], ['CurrencyConvert', 'ExchangeRate', 'LedgerPost']) }),
    );
    const note = (await screen.findByTestId('history-differs')).textContent;
    expect(note).toContain('The folded space is not the deployed one');
    expect(note).toContain('would add TaxLookup');
    expect(note).toContain('would drop LedgerPost, which v0 keeps');
    expect(screen.getByTestId('history-proposal-status').textContent).toContain('differs from the deployed v0 · not applied');
  });

  it('gives each running-score line its own dash and marker, and singles one out', async () => {
    await renderStudio({ view: 'history', task: TASK }, fakeApi({ getHistory: async () => history(['CurrencyConvert'], ['CurrencyConvert']) }));
    const group = await screen.findByTestId('history-line-focus');
    const keys = [...group.querySelectorAll('button')].map((b) => {
      const line = b.querySelector('line')!;
      const marker = b.querySelector('svg > :not(line)')!;
      return `${line.getAttribute('stroke')}|${line.getAttribute('stroke-dasharray') ?? ''}|${marker.outerHTML.replace(/"[\d.,\sMLZ-]+"/g, '')}`;
    });
    expect(keys).toHaveLength(4);
    expect(new Set(keys.map((k) => k.split('|')[1])).size).toBe(4);
    expect(new Set(keys.map((k) => k.split('|')[2])).size).toBe(4);
    const button = group.querySelector<HTMLButtonElement>('button[data-tool="LedgerPost"]')!;
    fireEvent.click(button);
    expect(button.getAttribute('aria-pressed')).toBe('true');
  });

  it('under the view-only link: Fold is disabled and says why', async () => {
    const same = ['CurrencyConvert'];
    await renderStudio(
      { view: 'history', task: TASK },
      fakeApi({ getAppInfo: async () => ({ ...appInfo, viewOnly: true }), getHistory: async () => history(same, same) }),
    );
    const fold = await screen.findByTestId<HTMLButtonElement>('fold-batches');
    expect(fold.disabled).toBe(true);
    expect(fold.title).toContain('view-only link');
    expect(screen.getByText(/Folding is off: view-only link/)).toBeTruthy();
  });

  it('marks the tools called while deferred in a batch, and the one the rule then pinned as promoted (issue 44 item 4)', async () => {
    const data = history(['CurrencyConvert', 'ExchangeRate', 'LedgerPost'], ['CurrencyConvert', 'ExchangeRate']);
    const last = data.updates!.batches[1]!;
    data.updates!.batches[1] = { ...last, calledWhileDeferred: { LedgerPost: 2, TaxLookup: 1 }, promoted: ['LedgerPost'] };
    await renderStudio({ view: 'history', task: TASK }, fakeApi({ getHistory: async () => data }));
    const timeline = await screen.findByTestId('history-timeline');
    const cell = (tool: string) => timeline.querySelectorAll(`tr[data-tool="${tool}"] td`)[1]!;
    expect(cell('LedgerPost').querySelector('[aria-label="promoted"]')).toBeTruthy();
    expect(cell('LedgerPost').getAttribute('title')).toContain('LedgerPost promoted at batch 2: called while deferred in 2 traces, and the rule now pins it');
    expect(cell('TaxLookup').querySelector('[aria-label="called while deferred"]')).toBeTruthy();
    expect(cell('TaxLookup').getAttribute('title')).toContain('called while deferred in 1 trace of batch 2; the rule keeps it deferred');
    expect(cell('ExchangeRate').querySelector('[aria-label="called while deferred"], [aria-label="promoted"]')).toBeNull();
    expect(timeline.closest('.card')!.textContent).toContain('★ promoted');
  });
});
