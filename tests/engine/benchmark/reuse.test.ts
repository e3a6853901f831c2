// `lots bench reuse`: spaces fitted with one model (the random fixture, through `lots demo`) served by
// another (the evidence-copy fixture): one row per task, the approved space, keep-all and the reused
// space on the same evaluation requests; nothing written to the project.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { main } from '../../../electron/cli/main';
import type { CliIO } from '../../../electron/cli/command';
import { ProjectStore } from '../../../electron/engine/store';

const dir = mkdtempSync(join(tmpdir(), 'lots-reuse-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function capture(): { io: CliIO; out: () => string; err: () => string } {
  const out: string[] = [];
  const err: string[] = [];
  return {
    io: { out: (t) => out.push(t), err: (t) => err.push(t), data: (t) => out.push(t), isTTY: false },
    out: () => out.join('\n'),
    err: () => err.join('\n'),
  };
}

describe('lots bench reuse', () => {
  it('serves the spaces fitted with model A with model B, against keep-all', async () => {
    const project = join(dir, 'demo');
    const demo = capture();
    expect(
      await main(
        [
          'demo',
          '--model',
          'fixture:random',
          '--out',
          project,
          '--gpu',
          'cpu',
          '--families',
          'compute_only,table_total',
          '--fit',
          '1',
          '--eval',
          '2',
          '--draws',
          '1',
          '--max-tokens',
          '3',
          '--threads',
          '1',
        ],
        demo.io,
      ),
      demo.err(),
    ).toBe(0);
    const before = readFileSync(join(project, 'scores.jsonl'), 'utf8');
    const approved = ProjectStore.open(project).readSpaces('compute_only').versions.at(-1)!;

    const c = capture();
    expect(
      await main(['bench', 'reuse', '--project', project, '--model', 'fixture:evidence-copy', '--gpu', 'cpu', '--json', '--max-tokens', '3'], c.io),
      c.err(),
    ).toBe(0);
    const json = JSON.parse(c.out());
    expect(json.split).toBe('eval');
    expect(json.model).toMatch(/evidence-copy/);
    expect(json.tasks.map((r: { task: string }) => r.task)).toEqual(['compute_only', 'table_total']);
    const row = json.tasks[0];
    expect(row).toMatchObject({ source: `v${approved.version}`, space: approved.tools });
    expect(row.fittedWith).toMatch(/random/);
    expect(row.keepAll.n).toBe(2);
    expect(row.reused.n).toBe(2);
    expect(row.reused.promptTokens).toBeLessThan(row.keepAll.promptTokens);
    expect(readFileSync(join(project, 'scores.jsonl'), 'utf8')).toBe(before);

    const table = capture();
    expect(
      await main(
        ['bench', 'reuse', '--project', project, '--model', 'fixture:evidence-copy', '--gpu', 'cpu', '--task', 'compute_only', '--max-tokens', '3'],
        table.io,
      ),
    ).toBe(0);
    expect(table.out()).toMatch(/served by .*evidence-copy.* on the eval requests \(n = 2\):\ntask +space \(fitted with\)/);
  }, 300_000);

  it('says what to do on a project without fitted spaces', async () => {
    const bare = join(dir, 'bare');
    expect(await main(['bench', 'make', '--out', bare, '--families', 'no_tool', '--fit', '1', '--eval', '1'], capture().io)).toBe(0);
    const c = capture();
    expect(await main(['bench', 'reuse', '--project', bare, '--model', 'fixture:random', '--gpu', 'cpu'], c.io)).toBe(2);
    expect(c.err()).toMatch(/no fitted space to reuse: run `lots demo`/);
  });
});
