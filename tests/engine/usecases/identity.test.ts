// Issue 14 point 1: each use case is one engine function that the CLI and the API both call, so the same
// project gives the same results through either: export bytes in every format (proposed and approved
// spaces, the report included), fit rankings, and which task a score row belongs to.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { CELL_SCORED, decodeUint8, EXPORT_FORMATS } from '../../../shared/api';
import { UNROUTED } from '../../../shared/lots/aggregate';
import { SPACE_EXPORT_FORMATS } from '../../../shared/api/export-formats';
import type { StoredScore } from '../../../shared/project/scores';
import type { Trace } from '../../../shared/trace/schema';
import { StudioService } from '../../../electron/engine/api';
import { ProjectStore } from '../../../electron/engine/store';
import { makeLineTraces, makeScoreRows } from '../../e2e/fixtures';
import { runCli } from '../../cli/io';

const tmp = mkdtempSync(join(tmpdir(), 'lots-identity-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

const RUN = 'import:synthetic';
const LATER = 'import:later';
let project: string;
let service: StudioService;

/** fx_settle: 12 generated requests with scores; `lone`, a trace without a task routed into fx_settle,
 * whose score row has no task; `ghost`, a row whose trace the project does not hold; a second run that
 * scores only part of the task. */
beforeAll(async () => {
  project = join(tmp, 'proj');
  const store = ProjectStore.create(project, 'identity');
  const traces = makeLineTraces({ task: 'fx_settle', requests: 12, tools: 8, exposed: 5 });
  // The same tool defined differently on another task's menu: the task's own definition is exported.
  const other: Trace = {
    ...traces[0]!,
    id: 'other-1',
    task: 'other',
    tools: traces[0]!.tools.map((t) => ({ ...t, description: "another task's definition" })),
  };
  const lone: Trace = { ...traces[1]!, id: 'lone' };
  delete (lone as { task?: string }).task;
  store.addTraces([...traces, other, lone], 'gen.jsonl');
  store.writeRoutes({ lone: 'fx_settle' }, 'test');
  const rows = makeScoreRows([...traces, lone]);
  const loneRow = rows.find((r) => r.trace === 'lone')!;
  delete (loneRow as { task?: string }).task;
  const ghost: StoredScore = {
    key: `${RUN}|ghost`,
    run: RUN,
    trace: 'ghost',
    exposed: ['Calculator'],
    scores: { Calculator: 0.1 },
    createdAt: loneRow.createdAt,
  };
  store.appendScores([...rows, ghost]);
  store.appendScores(makeScoreRows(traces.slice(0, 5), LATER, 3));
  service = new StudioService({ transport: 'web', configDir: mkdtempSync(join(tmp, 'cfg-')) });
  await service.openProject({ dir: project });
});

afterEach(() => {
  vi.useRealTimers();
});

/** What `lots export` writes with --out, byte for byte. */
async function cliExport(task: string, format: string, extra: string[] = []): Promise<string> {
  const out = join(tmp, `out-${task}-${format}-${Math.random().toString(36).slice(2)}`);
  const r = await runCli(['export', '--project', project, '--task', task, '--format', format, '--out', out, ...extra]);
  expect(r.code, r.err).toBe(0);
  return readFileSync(out, 'utf8');
}

/** What the API renders for the same export. */
async function apiExport(task: string, format: (typeof SPACE_EXPORT_FORMATS)[number]): Promise<string> {
  if (format === 'report') return (await service.renderReport({ task })).html;
  return (await service.renderExport({ task, format, ...(format === 'mcp-claude' ? { mcpServer: 'srv' } : {}) })).text;
}

/** Both refuse an export of a task with no approved space (the report aside), with the same code and message. */
async function sameRefusals(task: string): Promise<void> {
  for (const format of EXPORT_FORMATS) {
    const r = await runCli(['export', '--project', project, '--task', task, '--format', format]);
    expect(r.code, format).toBe(2);
    const refusal = await service.renderExport({ task, format }).catch((e: unknown) => e);
    expect(refusal, format).toMatchObject({ code: 'SPACE_NOT_APPROVED' });
    expect(r.err).toContain((refusal as Error).message);
  }
}

async function sameExports(task: string): Promise<void> {
  // The report carries the time it was made: one clock for both.
  vi.useFakeTimers({ toFake: ['Date'] });
  vi.setSystemTime(new Date('2026-01-02T03:04:05Z'));
  expect(SPACE_EXPORT_FORMATS).toEqual([...EXPORT_FORMATS, 'report']);
  for (const format of SPACE_EXPORT_FORMATS) {
    const [cli, api] = [await cliExport(task, format, format === 'mcp-claude' ? ['--mcp-server', 'srv'] : []), await apiExport(task, format)];
    expect(cli.length, format).toBeGreaterThan(0);
    expect(cli, format).toBe(api);
  }
}

describe('CLI and API give the same results on one project', () => {
  it("assign every score row to the same task (its own label, else its trace's routed task)", async () => {
    for (const run of [RUN, LATER]) {
      const r = await runCli(['scores', 'export', '--project', project, '--run', run]);
      expect(r.code, r.err).toBe(0);
      const cliTasks = new Map<string, string[]>();
      for (const line of r.out.trim().split('\n')) {
        const row = JSON.parse(line) as { trace: string; task?: string };
        const task = row.task ?? UNROUTED;
        cliTasks.set(task, [...(cliTasks.get(task) ?? []), row.trace].sort());
      }
      // The API: the requests of each task's heatmap in that run that hold a score.
      const summary = (await service.getProject())!;
      const apiTasks = new Map<string, string[]>();
      for (const { task } of summary.tasks) {
        if (!summary.tasks.find((t) => t.task === task)!.runs.includes(run)) continue;
        const h = await service.getHeatmap({ task, run });
        const states = decodeUint8(h.states);
        const scored = h.requests.filter((_, i) => states.slice(i * h.tools.length, (i + 1) * h.tools.length).includes(CELL_SCORED)).map((q) => q.id);
        if (scored.length > 0) apiTasks.set(task, scored.sort());
      }
      expect(Object.fromEntries(apiTasks), run).toEqual(Object.fromEntries(cliTasks));
    }
    // The routed trace's task-less row is fx_settle's (not "(unrouted)"); the row without a trace keeps no task.
    const rows = (await runCli(['scores', 'export', '--project', project, '--run', RUN])).out
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { trace: string; task?: string });
    expect(rows.find((r) => r.trace === 'lone')?.task).toBe('fx_settle');
    expect(rows.find((r) => r.trace === 'ghost')?.task).toBeUndefined();
  });

  it("rank each task's tools alike (order, means, support, intervals) in the run asked for and by default", async () => {
    for (const run of [RUN, LATER]) {
      const api = await service.getRanking({ task: 'fx_settle', run });
      const cli = await runCli([
        'fit',
        '--project',
        project,
        '--run',
        run,
        '--task',
        'fx_settle',
        '--k',
        String(api.k),
        '--resamples',
        String(api.resamples),
        '--json',
      ]);
      expect(cli.code, cli.err).toBe(0);
      const fit = (JSON.parse(cli.out) as { tasks: Record<string, { ranking: Record<string, unknown>[]; requests: number }> }).tasks.fx_settle!;
      expect(fit.requests).toBe(api.scoredRequests);
      expect(api.rows.length).toBeGreaterThan(3);
      expect(fit.ranking.map((r) => ({ tool: r.tool, mean: r.mean, n: r.n, exposed: r.exposed, lo: r.lo, hi: r.hi, topKShare: r.topKShare }))).toEqual(
        api.rows.map((r) => ({ tool: r.tool, mean: r.mean, n: r.n, exposed: r.exposed, lo: r.lo, hi: r.hi, topKShare: r.topKShare })),
      );
    }
    // Without --run: both take the latest run (the CLI says so).
    const latest = await service.getRanking({ task: 'fx_settle' });
    expect(latest.run).toBe(LATER);
    const cli = await runCli(['fit', '--project', project, '--task', 'fx_settle', '--resamples', '0', '--json']);
    expect(cli.err).toContain(`using the latest scoring run "${LATER}"`);
    const fit = (JSON.parse(cli.out) as { tasks: Record<string, { ranking: { tool: string; mean: number }[] }> }).tasks.fx_settle!;
    expect(fit.ranking.map((r) => [r.tool, r.mean])).toEqual(latest.rows.map((r) => [r.tool, r.mean]));
  });

  it('refuse to export an unapproved space alike; the proposal only on purpose (--proposed), and the report', async () => {
    await sameRefusals('fx_settle');
    const space = JSON.parse(await cliExport('fx_settle', 'space', ['--proposed'])) as { status: string; run: string; tools: string[] };
    expect(space).toMatchObject({ status: 'proposed', run: LATER });
    // Definitions are the task's own: the other task's description of the same tool is not exported.
    expect(await cliExport('fx_settle', 'openai', ['--proposed'])).not.toContain("another task's definition");
    vi.useFakeTimers({ toFake: ['Date'] }); // the report carries the time it was made: one clock for both
    vi.setSystemTime(new Date('2026-01-02T03:04:05Z'));
    expect(await cliExport('fx_settle', 'report')).toBe(await apiExport('fx_settle', 'report'));
  });

  it('export an approved space (scored from the run it was accepted from) byte for byte', async () => {
    const ranking = await service.getRanking({ task: 'fx_settle', run: RUN });
    const tools = ranking.rows.slice(0, 3).map((r) => r.tool);
    await service.acceptSpace({ task: 'fx_settle', tools, pinned: [], banned: [], rule: { kind: 'topk', k: 3 }, note: 'top three', run: RUN });
    await sameExports('fx_settle');
    const space = JSON.parse(await cliExport('fx_settle', 'space')) as { status: string; run: string; tools: string[] };
    expect(space).toMatchObject({ status: 'approved', run: RUN, tools });
    // A task without scores: its approved space, with the definitions of its own menu.
    await service.acceptSpace({ task: 'other', tools: tools.slice(0, 2), pinned: [], banned: [], rule: { kind: 'manual' }, note: 'by hand' });
    await sameExports('other');
    expect(await cliExport('other', 'openai')).toContain("another task's definition");
  });
});
