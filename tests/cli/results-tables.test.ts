// The results doc's tables that come from data kept in the repository are recomputed from it: a code block
// under a `<!-- recomputed: lots evaluate --project <folder> -->` line in docs/results.md must be, line for
// line, what that command prints on a copy of the folder (no model: `lots evaluate --project` on a seeds
// folder recomputes the table from the stored per-request outcomes). A figure edited by hand, or data
// changed without the doc, fails here.
import { cpSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli, tempDir } from './io';

const ROOT = resolve(__dirname, '..', '..');
const DOC = 'docs/results.md';
const tmp = tempDir('lots-results-tables-');
afterAll(() => tmp.cleanup());

interface MarkedTable {
  /** 1-based line of the marker. */
  line: number;
  folder: string;
  lines: string[];
}

/** Each marker with the code block that follows it. */
export function markedTables(text: string): MarkedTable[] {
  const lines = text.split('\n');
  const found: MarkedTable[] = [];
  lines.forEach((line, i) => {
    const m = /^<!-- recomputed: lots evaluate --project (\S+) -->$/.exec(line.trim());
    if (!m) return;
    const open = lines.findIndex((l, j) => j > i && /^```/.test(l));
    const close = lines.findIndex((l, j) => j > open && /^```/.test(l));
    if (open < 0 || close < 0) throw new Error(`${DOC}:${i + 1}: the marker has no code block after it`);
    found.push({ line: i + 1, folder: m[1]!, lines: lines.slice(open + 1, close) });
  });
  return found;
}

const tables = markedTables(readFileSync(join(ROOT, DOC), 'utf8'));

describe('the results doc against the data in the repository', () => {
  it('marks the tables it can recompute', () => {
    // The three standard seeds of the faithful variant (the sample project) at least.
    expect(tables.map((t) => t.folder)).toContain('assets/sample-project');
  });

  it.each(tables.map((t) => [`${DOC}:${t.line} (${t.folder})`, t] as const))('%s is what lots evaluate prints', async (_, table) => {
    const copy = join(tmp.dir, `t${table.line}`);
    cpSync(join(ROOT, table.folder), copy, { recursive: true });
    const r = await runCli(['evaluate', '--project', copy]);
    expect(r.code, r.err).toBe(0);
    const printed = r.out.split('\n').map((l) => l.trimEnd());
    const wanted = table.lines.map((l) => l.trimEnd());
    const at = printed.indexOf(wanted[0]!);
    expect(at, `the table's first line is not printed:\n${wanted[0]}`).toBeGreaterThanOrEqual(0);
    expect(printed.slice(at, at + wanted.length)).toEqual(wanted);
  });
});
