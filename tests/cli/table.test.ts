// The CLI's one table printer (electron/cli/table.ts): widths from content, numbers right-aligned, a least
// width per column, an optional rule; and `lots space show` on a run that leaves a tool unscored, whose
// "unscored" (8 characters) used to push its row one column right of the others.
import { cpSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { tableLines } from '../../electron/cli/table';
import { ProjectStore } from '../../electron/engine/store';
import { jsonl, runCli, tempDir } from './io';

const tmp = tempDir('lots-table-');
afterAll(() => tmp.cleanup());

describe('tableLines', () => {
  it('sizes each column to its widest cell, right-aligns numbers and leaves the last text column unpadded', () => {
    const lines = tableLines(
      [{ header: '#', align: 'right', min: 3 }, { header: 'tool' }, { header: 'mean', align: 'right' }, { header: 'note' }],
      [
        ['1', 'Calculator', '+0.5', 'kept'],
        ['12', 'A', '-12.25', ''],
      ],
      { indent: '  ' },
    );
    expect(lines).toEqual(['    #  tool          mean  note', '    1  Calculator    +0.5  kept', '   12  A           -12.25  ']);
  });

  it('draws a rule as wide as each column, and a cell longer than its header widens the column', () => {
    expect(tableLines([{ header: 'task' }, { header: 'n', align: 'right' }], [['fx', '1000']], { rule: true })).toEqual([
      'task     n',
      '----  ----',
      'fx    1000',
    ]);
  });
});

describe('lots space show: one table printer', () => {
  it('keeps every row aligned when a tool is unscored', async () => {
    const project = join(tmp.dir, 'p');
    cpSync(join(__dirname, '..', '..', 'assets', 'sample-project'), project, { recursive: true });
    // A second run whose scores leave Barcode out on fx_settle: it stays on the menus, unscored.
    const rows = ProjectStore.open(project)
      .listScores()
      .filter((s) => s.task === 'fx_settle')
      .map((s) => ({
        trace: s.trace,
        task: s.task,
        exposed: s.exposed,
        scores: Object.fromEntries(Object.entries(s.scores).filter(([t]) => t !== 'Barcode')),
      }));
    expect((await runCli(['scores', 'import', tmp.file('second.jsonl', jsonl(rows)), '--project', project, '--run', 'second'])).code).toBe(0);
    const r = await runCli(['space', 'show', '--project', project, '--task', 'fx_settle', '--run', 'second']);
    expect(r.code).toBe(0);
    const table = r.out.split('\n').filter((l) => /^ {2}\s*(#|\d+|—) {2}/.test(l));
    expect(table[0]).toMatch(/#\s+tool\s+Ī\s+n\s+state$/);
    const unscored = table.find((l) => l.includes('unscored'));
    expect(unscored).toMatch(/^ {4}— {2}Barcode +unscored +— {2}hidden$/);
    // Every line has its state column at the same place, and its n column ends at the same place.
    const stateAt = table.map((l) => l.search(/(state|pinned|deferred|hidden)$/));
    expect(new Set(stateAt).size).toBe(1);
    expect(new Set(table.map((l, i) => l.slice(0, stateAt[i]).trimEnd().length)).size).toBe(1);
    expect(table).toHaveLength(1 + new Set(rows.flatMap((x) => x.exposed)).size);
  });
});
