// Issue 13 #6: `importTraces` on /dev/zero hung with the project lock held, and Ctrl-C did nothing.
// A device, a named pipe or a folder is now refused up front (one line naming it, before the lock is
// taken), and every import is cancellable: an AbortSignal through the engine's import use case, and
// Ctrl-C in `lots import`, which drops the file in progress, keeps the files imported before, says so
// and exits 130 with the lock released.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ProjectStore } from '../../electron/engine/store';
import { StudioService } from '../../electron/engine/api';
import { importSource } from '../../electron/engine/api/imports';
import { makeLineTraces, toJsonl } from '../e2e/fixtures';
import { runCli } from '../cli/io';

let dir: string;
let project: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'lots-special-'));
  project = join(dir, 'p');
  ProjectStore.create(project);
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

function traceFiles(): string[] {
  return readdirSync(join(project, 'traces')).sort();
}

function fifo(): string | undefined {
  const path = join(dir, 'pipe');
  try {
    execFileSync('mkfifo', [path]);
    return path;
  } catch {
    return undefined; // no mkfifo here (Windows)
  }
}

const specialFiles = (): Array<[string, string, RegExp]> => {
  const folder = join(dir, 'folder');
  mkdirSync(folder);
  const list: Array<[string, string, RegExp]> = [['folder', folder, /is a folder, not a regular file/]];
  if (existsSync('/dev/zero')) list.push(['/dev/zero', '/dev/zero', /is a character device, not a regular file/]);
  const pipe = fifo();
  if (pipe) list.push(['a FIFO', pipe, /is a named pipe \(FIFO\), not a regular file/]);
  return list;
};

describe('special files are refused up front', () => {
  it('by `lots import`: one line naming the path, exit 2, no lock left, nothing imported', async () => {
    for (const [, path, why] of specialFiles()) {
      const r = await runCli(['import', path, '--project', project]);
      expect(r.code).toBe(2);
      expect(r.err.trim().split('\n')).toHaveLength(1);
      expect(r.err).toContain(path);
      expect(r.err).toMatch(why);
      expect(existsSync(join(project, '.lock'))).toBe(false);
    }
    expect(existsSync(join(project, 'traces'))).toBe(false);
  }, 10_000);

  it('by the service (importTraces): INVALID_INPUT naming the path, the lock released at once', async () => {
    const service = new StudioService({ transport: 'web', configDir: mkdtempSync(join(dir, 'cfg-')) });
    await service.openProject({ dir: project });
    for (const [, path, why] of specialFiles()) {
      await expect(service.importTraces({ paths: [path] })).rejects.toMatchObject({ code: 'INVALID_INPUT', message: expect.stringMatching(why) });
      expect(existsSync(join(project, '.lock'))).toBe(false);
    }
  }, 10_000);
});

describe('imports are cancellable', () => {
  it('through an AbortSignal: rejects CANCELLED, commits nothing of the file, releases the lock', async () => {
    const file = join(dir, 'big.jsonl');
    writeFileSync(file, toJsonl(makeLineTraces({ task: 't', requests: 3000, tools: 6 })));
    const store = ProjectStore.open(project);
    const abort = new AbortController();
    const started = importSource(store, { name: file, path: file }, { signal: abort.signal });
    setImmediate(() => abort.abort());
    await expect(started).rejects.toMatchObject({ code: 'CANCELLED' });
    expect(existsSync(join(project, '.lock'))).toBe(false);
    expect(existsSync(join(project, 'traces')) ? traceFiles() : []).toEqual([]);
    // A signal already aborted does not take the lock at all.
    await expect(importSource(store, { name: file, path: file }, { signal: abort.signal })).rejects.toMatchObject({ code: 'CANCELLED' });
    expect(existsSync(join(project, '.lock'))).toBe(false);
  });

  it('by Ctrl-C in `lots import`: the file in progress dropped, the one before kept and reported, exit 130', async () => {
    const small = join(dir, 'small.jsonl');
    writeFileSync(small, toJsonl(makeLineTraces({ task: 'a', requests: 5, tools: 4 })));
    const big = join(dir, 'big.jsonl');
    writeFileSync(big, toJsonl(makeLineTraces({ task: 'b', requests: 20_000, tools: 6 })));
    const listeners = process.listenerCount('SIGINT');
    let sent = false;
    // Ctrl-C once the second file's import holds the lock (the first is committed by then).
    const poll = setInterval(() => {
      if (!sent && existsSync(join(project, 'traces', '0001.jsonl')) && existsSync(join(project, '.lock'))) {
        sent = true;
        process.emit('SIGINT');
      }
    }, 1);
    let r;
    try {
      r = await runCli(['import', small, big, '--project', project]);
    } finally {
      clearInterval(poll);
    }
    expect(sent).toBe(true);
    expect(r.code).toBe(130);
    expect(r.err).toMatch(/cancelled; nothing of .*big\.jsonl was imported/);
    expect(r.err).toMatch(/kept what was imported before: .*small\.jsonl \(5 traces\)/);
    expect(r.out).toMatch(/: 5 traces/);
    expect(existsSync(join(project, '.lock'))).toBe(false);
    expect(traceFiles().filter((f) => f.endsWith('.jsonl'))).toEqual(['0001.jsonl']);
    expect(traceFiles().filter((f) => f.endsWith('.tmp'))).toEqual([]);
    expect(process.listenerCount('SIGINT')).toBe(listeners);
  }, 30_000);
});
