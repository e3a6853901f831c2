// A BFCL run folder's JSONL files after an interrupted run: a torn last line is skipped and reported, so the
// folder resumes instead of failing on JSON.parse.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { appendRunLines, readJsonl } from '../../../electron/engine/bfcl/score';

describe('readJsonl (run folder files)', () => {
  it('keeps the complete records, skips a torn last line and says so', () => {
    const path = join(mkdtempSync(join(tmpdir(), 'lots-bfcl-jsonl-')), 'records.jsonl');
    writeFileSync(path, '{"arm":"keep-all","id":"a"}\n{"arm":"keep-all","id":"b"}\n{"arm":"keep-all","id":');
    const warnings: string[] = [];
    expect(readJsonl<{ id: string }>(path, (w) => warnings.push(w)).map((r) => r.id)).toEqual(['a', 'b']);
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toContain(path);
  });

  it('reads nothing from a file that is not there', () => {
    expect(readJsonl(join(tmpdir(), 'lots-bfcl-missing-file.jsonl'))).toEqual([]);
  });
});

describe('appendRunLines (run folder files)', () => {
  it('cuts a torn last line before appending, so the new record is read back whole and the cut is said', () => {
    const path = join(mkdtempSync(join(tmpdir(), 'lots-bfcl-append-')), 'records.jsonl');
    writeFileSync(path, '{"arm":"keep-all","id":"a"}\n{"arm":"keep-all","id":');
    const warnings: string[] = [];
    appendRunLines(path, [JSON.stringify({ arm: 'keep-all', id: 'b' })], (w) => warnings.push(w));
    const read: string[] = [];
    expect(readJsonl<{ id: string }>(path, (w) => read.push(w)).map((r) => r.id)).toEqual(['a', 'b']);
    expect(read).toEqual([]);
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(/removed an incomplete last line \(\d+ bytes\)/);
  });
});
