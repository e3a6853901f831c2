// Issue 13 #13: CR-only line endings (old Mac files) are split into lines, not read as one; a UTF-16
// file (with or without a byte order mark) is decoded instead of getting a wrong hint on every line; a
// file in another encoding gets its hint once, on its first bad line.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { detectUtf16, readLines } from '../../../electron/engine/import/line-reader';
import { importText } from '../../../shared/importers';
import { parseScoreFile } from '../../../shared/lots/score-file';
import { chatRecord, collect, tempDir } from './helpers';
import { runCli } from '../../cli/io';

const tmp = tempDir('lots-encodings-');
afterAll(() => tmp.cleanup());

function file(name: string, content: string | Buffer): string {
  const path = join(tmp.dir, name);
  writeFileSync(path, content);
  return path;
}

function utf16be(text: string): Buffer {
  const le = Buffer.from(text, 'utf16le');
  for (let i = 0; i + 1 < le.length; i += 2) [le[i], le[i + 1]] = [le[i + 1]!, le[i]!];
  return le;
}

const records = ['r1', 'r2', 'r3'].map((id) => chatRecord(id, ' café ☕'));

describe('CR-only line endings', () => {
  it('are split into lines, with the right line numbers', async () => {
    const path = file('mac.jsonl', `${records[0]}\r${records[1]}\r{not json\r${records[2]}\r`);
    const c = await collect(path, { displayName: 'mac.jsonl' });
    expect(c.traces.map((t) => [t.trace.id, t.line])).toEqual([
      ['r1', 1],
      ['r2', 2],
      ['r3', 4],
    ]);
    expect(c.errors).toEqual([{ file: 'mac.jsonl', line: 3, message: expect.stringMatching(/^not valid JSON/) }]);
    expect(c.summary.mode).toBe('jsonl');
  });

  it('are split across chunk boundaries, CRLF inside a CR file counting as one break', async () => {
    const text = `${records[0]}\r${records[1]}\r\n${records[2]}\r`;
    const path = file('mac-chunks.jsonl', text);
    for (const highWaterMark of [1, 7, 64, 1 << 20]) {
      const got: Array<[number, string]> = [];
      for await (const l of readLines(path, { maxLineBytes: 1 << 20, highWaterMark })) got.push([l.line, l.bytes!.toString('utf8')]);
      expect(got, `highWaterMark ${highWaterMark}`).toEqual([
        [1, records[0]],
        [2, records[1]],
        [3, records[2]],
      ]);
    }
  });

  it('a lone CR inside a LF file is not a line break', async () => {
    const path = file('lf-with-cr.jsonl', `${records[0]}\n{"a":\r1}\n${records[1]}\n`);
    const got: string[] = [];
    for await (const l of readLines(path, { maxLineBytes: 1 << 20 })) got.push(l.bytes!.toString('utf8'));
    expect(got).toEqual([records[0], '{"a":\r1}', records[1]]);
  });

  it('a pretty-printed JSON document with CR line breaks keeps its line numbers', async () => {
    const doc = JSON.stringify(
      ['r1', 'r2'].map((id) => JSON.parse(chatRecord(id))),
      null,
      2,
    ).replace(/\n/g, '\r');
    const c = await collect(file('mac-doc.json', doc));
    expect(c.summary.mode).toBe('document');
    expect(c.traces.map((t) => t.trace.id)).toEqual(['r1', 'r2']);
    expect(c.traces[1]!.line).toBeGreaterThan(2);
  });

  it('in-memory imports and score files split them too', () => {
    const t = importText(`${records[0]}\r${records[1]}\r`, { file: 'mac.jsonl' });
    expect(t.traces.map((x) => x.trace.id)).toEqual(['r1', 'r2']);
    const rows = ['{"trace":"a","exposed":["A"],"scores":{"A":1}}', '{"trace":"b","exposed":["A"],"scores":{"A":2}}'];
    const s = parseScoreFile(rows.join('\r') + '\r', 'mac-scores.jsonl');
    expect(s.errors).toEqual([]);
    expect(s.rows.map((r) => r.trace)).toEqual(['a', 'b']);
    expect(s.lines).toEqual([1, 2]);
  });
});

describe('UTF-16 files', () => {
  const text = records.join('\r\n') + '\r\n';

  it('are recognised by their byte order mark or by the NUL every other byte', () => {
    expect(detectUtf16(Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('{"a":1}', 'utf16le')]))).toBe('utf-16le');
    expect(detectUtf16(Buffer.concat([Buffer.from([0xfe, 0xff]), utf16be('{"a":1}')]))).toBe('utf-16be');
    expect(detectUtf16(Buffer.from('{"id":"x","messages":[]}', 'utf16le'))).toBe('utf-16le');
    expect(detectUtf16(utf16be('{"id":"x","messages":[]}'))).toBe('utf-16be');
    expect(detectUtf16(Buffer.from(text, 'utf8'))).toBeUndefined();
    expect(detectUtf16(Buffer.from([0xff, 0xfe, 0, 0, 0x7b, 0, 0, 0]))).toBeUndefined(); // UTF-32LE
  });

  for (const [name, bytes] of [
    ['UTF-16LE with a byte order mark', () => Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(text, 'utf16le')])],
    ['UTF-16BE with a byte order mark', () => Buffer.concat([Buffer.from([0xfe, 0xff]), utf16be(text)])],
    ['UTF-16LE without a byte order mark', () => Buffer.from(text, 'utf16le')],
  ] as const) {
    it(`${name} is decoded: every record imported, no error`, async () => {
      const c = await collect(file(`${name.replace(/\W+/g, '-')}.jsonl`, bytes()));
      expect(c.errors).toEqual([]);
      expect(c.traces.map((t) => [t.trace.id, t.line])).toEqual([
        ['r1', 1],
        ['r2', 2],
        ['r3', 3],
      ]);
      expect(JSON.stringify(c.traces[0]!.trace)).toContain('café ☕');
      expect(c.summary.encoding).toMatch(/^utf-16/);
    });
  }

  it('a UTF-16 JSON document is decoded too', async () => {
    const doc = JSON.stringify(
      ['r1', 'r2'].map((id) => JSON.parse(chatRecord(id))),
      null,
      2,
    );
    const c = await collect(file('doc16.json', Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(doc, 'utf16le')])));
    expect(c.errors).toEqual([]);
    expect(c.traces.map((t) => t.trace.id)).toEqual(['r1', 'r2']);
  });

  it('`lots import` says it decoded the file', async () => {
    const path = file('cli16.jsonl', Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(text, 'utf16le')]));
    const r = await runCli(['import', path, '--project', join(tmp.dir, 'p16')]);
    expect(r.code).toBe(0);
    expect(r.err).toBe('');
    expect(r.out).toContain('(UTF-16LE, decoded)');
    expect(r.out).toContain('traces imported: 3');
  });
});

describe('a file in another encoding (Latin-1)', () => {
  it('gets the hint once, on its first bad line; later bad lines point back to it', async () => {
    const latin1 = (id: string) => Buffer.from(chatRecord(id, ' caf\u00e9'), 'latin1');
    const path = file(
      'latin1.jsonl',
      Buffer.concat([Buffer.from(records[0] + '\n'), latin1('l2'), Buffer.from('\n'), latin1('l3'), Buffer.from('\n'), latin1('l4'), Buffer.from('\n')]),
    );
    const c = await collect(path, { displayName: 'latin1.jsonl' });
    expect(c.traces.map((t) => t.trace.id)).toEqual(['r1']);
    expect(c.errors.map((e) => e.line)).toEqual([2, 3, 4]);
    expect(c.errors[0]!.message).toMatch(/not valid UTF-8.*iconv/);
    expect(c.errors[0]!.message).not.toMatch(/latin1 -t/);
    for (const e of c.errors.slice(1)) {
      expect(e.message).toMatch(/not valid UTF-8 \(like line 2/);
      expect(e.message).not.toMatch(/iconv/);
    }
  });
});
