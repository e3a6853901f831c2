// `lots space`: a real `lots` process edits and approves a task's space headless, and the version file it
// writes is the one the Space view writes through the API for the same edits (issue 44 item 5). Also: the
// three states in show/propose/diff/history, the refusals, and a version file from before the third state.
import { spawn } from 'node:child_process';
import { cpSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { scoredHarness } from '../renderer/harness';
import { taskFileName } from '../../electron/engine/store/project-file';
import { ProjectStore } from '../../electron/engine/store';
import { runCli, tempDir, type CliRun } from './io';

const tmp = tempDir();
afterAll(() => tmp.cleanup());

/** `lots <argv>` as its own process (bin/lots.mjs), as a pipeline would run it. */
function lotsProcess(argv: string[]): Promise<CliRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['bin/lots.mjs', ...argv], { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr.on('data', (d: Buffer) => (err += d.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code: code ?? -1, out, err }));
  });
}

const spacesFile = (dir: string) => {
  const files = readdirSync(join(dir, 'spaces'));
  expect(files).toHaveLength(1);
  return readFileSync(join(dir, 'spaces', files[0]!), 'utf8');
};
/** The file with its approval times blanked: everything else must match byte for byte. */
const undated = (text: string) => text.replace(/"createdAt": "[^"]+"/g, '"createdAt": "…"');

async function viewAndCliProjects() {
  const h = await scoredHarness();
  const task = h.store.getState().route.task!;
  const cliDir = join(tmp.dir, `cli-${Math.random().toString(36).slice(2)}`);
  cpSync(h.dir, cliDir, { recursive: true });
  const s = () => h.store.getState();
  await s().loadSpaces(task);
  s().ensureDraft(task);
  const ranking = s()
    .spaces[task]!.value.candidates.filter((c) => c.rank !== null)
    .map((c) => c.tool);
  return { ...h, task, cliDir, s, ranking };
}

describe('lots space: the same version as the Space view', () => {
  it('approve and edit in a real process write the file the view writes through the API', async () => {
    const { task, dir, cliDir, s, ranking } = await viewAndCliProjects();

    // v0: the proposal at K = 3, approved as it stands (no note needed).
    s().setK(task, 3);
    expect(await s().acceptDraft(task)).toBe(true);
    const approve = await lotsProcess(['space', 'approve', '--project', cliDir, '--task', task, '--k', '3']);
    expect(approve.err).toBe('');
    expect(approve.code).toBe(0);
    expect(approve.out).toContain('approved v0 (top-K, K = 3): 3 pinned, 7 deferred, 0 hidden');
    expect(undated(spacesFile(cliDir))).toBe(undated(spacesFile(dir)));

    // v1: pin one, defer the top tool, hide a deferred one, ban another — in the view, then in the CLI.
    await s().loadSpaces(task);
    s().ensureDraft(task);
    s().editTool(task, ranking[9]!, 'pin');
    s().editTool(task, ranking[0]!, 'defer');
    s().editTool(task, ranking[6]!, 'hide');
    s().editTool(task, ranking[8]!, 'ban');
    s().setNote(task, 'the first tool is rarely needed up front');
    expect(await s().acceptDraft(task)).toBe(true);
    const edit = await lotsProcess([
      'space',
      'edit',
      '--project',
      cliDir,
      '--task',
      task,
      '--pin',
      ranking[9]!,
      '--defer',
      ranking[0]!,
      '--hide',
      ranking[6]!,
      '--ban',
      ranking[8]!,
      '--note',
      'the first tool is rarely needed up front',
    ]);
    expect(edit.err).toBe('');
    expect(edit.code).toBe(0);
    const viewFile = spacesFile(dir);
    expect(undated(spacesFile(cliDir))).toBe(undated(viewFile));
    const v1 = JSON.parse(viewFile).versions[1];
    expect(v1).toMatchObject({
      version: 1,
      tools: [ranking[1], ranking[2], ranking[9]],
      deferred: [ranking[0], ranking[3], ranking[4], ranking[5], ranking[7]],
      pinned: [ranking[9]],
      banned: [ranking[8]],
      deferEdits: [ranking[0]],
      rule: { kind: 'manual' },
    });
  });

  it('show, propose, diff and history report the three states (--json)', async () => {
    const { task, cliDir, ranking } = await viewAndCliProjects();
    const project = ['--project', cliDir, '--task', task];
    const none = JSON.parse((await runCli(['space', 'show', ...project, '--json'])).out);
    expect(none).toMatchObject({ task, approved: null, tools: [] });
    const proposal = JSON.parse((await runCli(['space', 'propose', ...project, '--k', '2', '--json'])).out);
    expect(proposal.tools).toEqual(ranking.slice(0, 2));
    expect(proposal.deferred).toEqual(ranking.slice(2));
    expect(proposal.rows.find((r: { tool: string }) => r.tool === ranking[0])).toMatchObject({ rank: 1, state: 'pinned' });
    expect((await runCli(['space', 'approve', ...project, '--k', '2'])).code).toBe(0);
    expect((await runCli(['space', 'edit', ...project, '--drop', ranking[1]!, '--defer', ranking[9]!, '--note', 'x'])).code).toBe(0);
    const shown = JSON.parse((await runCli(['space', 'show', ...project, '--json'])).out);
    expect(shown.approved).toMatchObject({ version: 1, tools: [ranking[0]], deferEdits: [ranking[9]] });
    expect(shown.tools.find((r: { tool: string }) => r.tool === ranking[1]).state).toBe('hidden');
    const diff = JSON.parse((await runCli(['space', 'diff', ...project, '--json'])).out);
    expect(diff).toEqual({ task, from: 0, to: 'v1', changes: [{ tool: ranking[1], from: 'pinned', to: 'hidden' }] });
    const history = JSON.parse((await runCli(['space', 'history', ...project, '--json'])).out);
    expect(history.versions.map((v: { version: number; note: string }) => [v.version, v.note])).toEqual([
      [0, ''],
      [1, 'x'],
    ]);
    const text = (await runCli(['space', 'show', ...project])).out;
    expect(text).toContain('approved v1 (edited by hand; 1 pinned, 8 deferred, 1 hidden)');
  });

  it('refuses an edit without a note, an unknown tool, a tool in two edits, and re-approving the same space (exit 2)', async () => {
    const { task, cliDir, ranking } = await viewAndCliProjects();
    const project = ['--project', cliDir, '--task', task];
    const noNote = await runCli(['space', 'edit', ...project, '--pin', ranking[5]!]);
    expect(noNote.code).toBe(2);
    expect(noNote.err).toContain('--note is required for an edit');
    const unknown = await runCli(['space', 'edit', ...project, '--pin', 'Nope', '--note', 'x']);
    expect(unknown.code).toBe(2);
    expect(unknown.err).toContain('no tool "Nope" on the menus of task "fx_settle"');
    const twice = await runCli(['space', 'edit', ...project, '--pin', ranking[5]!, '--ban', ranking[5]!, '--note', 'x']);
    expect(twice.code).toBe(2);
    expect(twice.err).toContain(`"${ranking[5]}" is given to both --pin and --ban`);
    expect((await runCli(['space', 'approve', ...project, '--k', '2'])).code).toBe(0);
    const again = await runCli(['space', 'approve', ...project, '--k', '2']);
    expect(again.code).toBe(2);
    expect(again.err).toContain('already v0 as it stands');
    expect(spacesFile(cliDir)).not.toContain('"version": 1');
  });

  it('reads a version file written before the third state: kept tools pinned, the rest hidden', async () => {
    const { task, cliDir, ranking } = await viewAndCliProjects();
    const project = ['--project', cliDir, '--task', task];
    // The shape spaces/<task>.json had before `deferred` and `deferEdits` existed.
    const old = {
      task,
      versions: [
        { version: 0, task, tools: ranking.slice(0, 2), pinned: [], banned: [], rule: { kind: 'topk', k: 2 }, note: '', createdAt: '2026-01-01T00:00:00.000Z' },
      ],
    };
    mkdirSync(join(cliDir, 'spaces'), { recursive: true });
    writeFileSync(join(cliDir, 'spaces', taskFileName(task)), JSON.stringify(old, null, 2));
    const shown = JSON.parse((await runCli(['space', 'show', ...project, '--json'])).out);
    expect(shown.approved).toMatchObject({ version: 0, tools: ranking.slice(0, 2), deferred: [] });
    expect(shown.tools.filter((r: { state: string }) => r.state === 'hidden')).toHaveLength(ranking.length - 2);
    // Editing it starts from exactly that space: only the deferred tool changes state.
    expect((await runCli(['space', 'edit', ...project, '--defer', ranking[5]!, '--note', 'try it deferred'])).code).toBe(0);
    const diff = JSON.parse((await runCli(['space', 'diff', ...project, '--json'])).out);
    expect(diff.changes).toEqual([{ tool: ranking[5], from: 'hidden', to: 'deferred' }]);
  });

  it('exports every approved space in one action (CLI --all and the API, one use case), refusing when none is approved', async () => {
    const { task, cliDir, service, ranking } = await viewAndCliProjects();
    const none = await runCli(['export', '--project', cliDir, '--all', '--format', 'mcp', '--out-dir', join(tmp.dir, 'none')]);
    expect(none.code).toBe(2);
    expect(none.err).toContain('no task of this project has an approved space');
    await expect(service.exportAllSpaces({ format: 'mcp' })).rejects.toMatchObject({ code: 'SPACE_NOT_APPROVED' });
    await expect(service.renderExport({ task, format: 'mcp' })).rejects.toMatchObject({ code: 'SPACE_NOT_APPROVED' });

    expect((await runCli(['space', 'approve', '--project', cliDir, '--task', task, '--k', '2'])).code).toBe(0);
    const out = join(tmp.dir, 'all');
    const all = await runCli(['export', '--project', cliDir, '--all', '--format', 'anthropic', '--out-dir', out]);
    expect(all.code).toBe(0);
    expect(all.err).toContain('wrote 1 anthropic file to');
    const files = readdirSync(out);
    expect(files).toEqual(['fx_settle.anthropic-tools.json']);
    const tools = JSON.parse(readFileSync(join(out, files[0]!), 'utf8'));
    expect(tools.filter((t: { defer_loading?: boolean }) => t.defer_loading).map((t: { name: string }) => t.name)).toEqual(ranking.slice(2));
    expect(tools.at(-1)).toEqual({ type: 'tool_search_tool_bm25_20251119', name: 'tool_search_tool_bm25' });
    // One use case for both (api/exports.ts): the CLI's export is in the project's activity as the Studio's is.
    expect(ProjectStore.open(cliDir).listActivity(5)).toContainEqual(
      expect.objectContaining({ kind: 'export', message: `exported 1 approved spaces as anthropic to ${out}` }),
    );
    // The API's "export all" over the same project gives the same bytes.
    service.setProject(ProjectStore.open(cliDir));
    const api = await service.exportAllSpaces({ format: 'anthropic' });
    expect(api.files.map((f) => [f.task, f.filename, f.pinned, f.deferred])).toEqual([[task, files[0], 2, ranking.length - 2]]);
    expect(api.files[0]!.text).toBe(readFileSync(join(out, files[0]!), 'utf8'));
  });

  it('writes one export with --out as the Export view saves it (api/exports.ts writeExport): the same bytes, the same activity entry', async () => {
    const { task, cliDir, service } = await viewAndCliProjects();
    expect((await runCli(['space', 'approve', '--project', cliDir, '--task', task, '--k', '2'])).code).toBe(0);
    const cliOut = join(tmp.dir, 'cli.mcp.json');
    const cli = await runCli(['export', '--project', cliDir, '--task', task, '--format', 'mcp', '--out', cliOut]);
    expect(cli.code).toBe(0);
    service.setProject(ProjectStore.open(cliDir));
    const apiOut = join(tmp.dir, 'api.mcp.json');
    await service.saveExport({ task, format: 'mcp', path: apiOut });
    expect(readFileSync(cliOut, 'utf8')).toBe(readFileSync(apiOut, 'utf8'));
    const logged = ProjectStore.open(cliDir)
      .listActivity(10)
      .filter((a) => a.kind === 'export')
      .map((a) => a.message);
    expect(logged).toEqual(expect.arrayContaining([`exported ${task} as mcp to ${cliOut}`, `exported ${task} as mcp to ${apiOut}`]));
    // The report too: logged as the Export view's "Save report" is.
    const report = join(tmp.dir, 'report.html');
    expect((await runCli(['export', '--project', cliDir, '--task', task, '--format', 'report', '--out', report])).code).toBe(0);
    expect(ProjectStore.open(cliDir).listActivity(10)).toContainEqual(
      expect.objectContaining({ kind: 'export', message: `saved the report of ${task} to ${report}` }),
    );
  });
});
