// Issue 13 #11: leftovers. A killed import leaves `traces/NNNN.jsonl.PID.tmp` (and a killed atomic write
// `name.PID.STAMP.tmp`): they are removed when the project is opened once their owner process is gone
// (the lock's pid-liveness check), and kept while it lives. Upload names a client sends (`.`, `..`, `/`,
// NUL, a path) are made safe instead of failing, and the temp folder of every upload is removed,
// whatever happens to the import.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ProjectStore } from '../../electron/engine/store';
import { StudioService } from '../../electron/engine/api';
import { safeUploadName } from '../../electron/engine/api/imports';
import { makeLineTraces, toJsonl } from '../e2e/fixtures';

let dir: string;
let project: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'lots-leftovers-'));
  project = join(dir, 'p');
  ProjectStore.create(project).addTraces(makeLineTraces({ task: 't', requests: 3, tools: 4 }), 'gen');
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

/** The pid of a process that has exited. */
function deadPid(): number {
  const r = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' });
  return Number(r.stdout);
}

describe('temp files of killed writers', () => {
  it('are removed when the project is opened; those of live processes are kept', () => {
    const dead = deadPid();
    const live = process.ppid;
    mkdirSync(join(project, 'spaces'), { recursive: true });
    const gone = [
      join(project, 'traces', `0002.jsonl.${dead}.tmp`),
      join(project, 'spaces', `t-1234abcd.json.${dead}.mi8x2k1.tmp`),
      join(project, `.lock.${dead}.0a1b2c3d.tmp`),
      join(project, 'traces', `0001.meta.json.${dead}.12345678.tmp`),
    ];
    const kept = [
      join(project, 'traces', `0003.jsonl.${live}.tmp`),
      join(project, 'traces', `0004.jsonl.${process.pid}.tmp`),
      join(project, 'traces', 'notes.tmp'),
    ];
    for (const f of [...gone, ...kept]) writeFileSync(f, '{"partial": tr');
    const store = ProjectStore.open(project);
    for (const f of gone) expect(existsSync(f), f).toBe(false);
    for (const f of kept) expect(existsSync(f), f).toBe(true);
    expect(store.traceCount).toBe(3);
    expect(
      store.warnings
        .filter((w) => w.message.includes(`which is gone`))
        .map((w) => w.file)
        .sort(),
    ).toEqual([...gone].sort());
  });
});

describe('uploads (contents sent by the page)', () => {
  let uploads: string;
  let saved: string | undefined;
  beforeEach(() => {
    saved = process.env.TMPDIR;
    uploads = mkdtempSync(join(dir, 'tmp-'));
    process.env.TMPDIR = uploads;
  });
  afterEach(() => {
    if (saved === undefined) delete process.env.TMPDIR;
    else process.env.TMPDIR = saved;
  });

  it('makes odd names safe', () => {
    expect(['.', '..', '/', '', 'a\0b.jsonl', '../../etc/passwd', 'C:\\x\\in.jsonl', 'in\n.jsonl'].map(safeUploadName)).toEqual([
      'upload',
      'upload',
      'upload',
      'upload',
      'ab.jsonl',
      'passwd',
      'in.jsonl',
      'in.jsonl',
    ]);
  });

  it('imports files named ".", "..", "/", with a NUL or a path, and leaves no temp folder', async () => {
    const service = new StudioService({ transport: 'web', configDir: mkdtempSync(join(dir, 'cfg-')) });
    await service.openProject({ dir: project });
    const names = ['.', '..', '/', 'a\0b.jsonl', '../../escape.jsonl'];
    const files = names.map((name, i) => ({ name, text: toJsonl(makeLineTraces({ task: `u${i}`, requests: 2, tools: 3, seed: 100 + i })) }));
    const report = await service.importTraces({ files });
    expect(report.files.map((f) => f.added)).toEqual([2, 2, 2, 2, 2]);
    expect(readdirSync(uploads)).toEqual([]);
    expect(existsSync(join(dir, 'escape.jsonl'))).toBe(false);
  });

  it('removes the temp folders of every upload when the import stops early', async () => {
    const service = new StudioService({ transport: 'web', configDir: mkdtempSync(join(dir, 'cfg-')) });
    await service.openProject({ dir: project });
    const files = [0, 1, 2].map((i) => ({ name: `f${i}.jsonl`, text: toJsonl(makeLineTraces({ task: `c${i}`, requests: 2, tools: 3, seed: 200 + i })) }));
    const abort = new AbortController();
    abort.abort();
    await expect(service.importTraces({ files }, { signal: abort.signal })).rejects.toMatchObject({ code: 'CANCELLED' });
    expect(readdirSync(uploads)).toEqual([]);
    // A path that is not a trace file, after two uploads: refused, and the uploads' folders gone too.
    await expect(service.importTraces({ paths: [dir], files })).rejects.toMatchObject({ code: 'INVALID_INPUT' });
    expect(readdirSync(uploads)).toEqual([]);
  });
});
