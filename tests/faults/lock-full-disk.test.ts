// Issue 13 #5: a lock taken on a full disk must not stay forever. The disk fills up between creating the
// lock file and writing its holder record (injected: every write fails with ENOSPC, after the file has
// been created, as a real full disk does); the failed acquisition fails at once, saying so, leaves no
// lock behind, and once space is freed the next writer gets the lock at once instead of waiting 15 s
// and failing "busy".
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

const disk = vi.hoisted(() => ({ full: false }));

vi.mock('node:fs', async (importOriginal) => {
  const fs = await importOriginal<typeof import('node:fs')>();
  const enospc = () => Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC', errno: -28, syscall: 'write' });
  const patched = {
    ...fs,
    writeSync: ((...args: Parameters<typeof fs.writeSync>) => {
      if (disk.full) throw enospc();
      return (fs.writeSync as (...a: unknown[]) => number)(...args);
    }) as typeof fs.writeSync,
    writeFileSync: ((
      path: Parameters<typeof fs.writeFileSync>[0],
      data: Parameters<typeof fs.writeFileSync>[1],
      options?: Parameters<typeof fs.writeFileSync>[2],
    ) => {
      if (disk.full) {
        // The file is created (a directory entry fits), its contents do not.
        const flag = typeof options === 'object' && options && 'flag' in options ? String(options.flag) : 'w';
        fs.closeSync(fs.openSync(path as string, flag));
        throw enospc();
      }
      return fs.writeFileSync(path, data, options);
    }) as typeof fs.writeFileSync,
  };
  return { ...patched, default: patched };
});

const { ProjectLock, setLockWaitReporter } = await import('../../electron/engine/store/lock');
const { ProjectStore } = await import('../../electron/engine/store');

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'lots-fulldisk-'));
  disk.full = false;
});
afterEach(() => {
  disk.full = false;
  rmSync(dir, { recursive: true, force: true });
});

describe('a lock taken on a full disk', () => {
  it('fails at once with the reason and leaves no lock file', () => {
    const lock = new ProjectLock(join(dir, '.lock'));
    disk.full = true;
    let error: unknown;
    const waits: unknown[] = [];
    try {
      lock.acquire('import big.jsonl', { timeoutMs: 3000, onWait: (w) => waits.push(w) });
    } catch (e) {
      error = e;
    }
    // Failed at once with the disk's own error: waiting would report a wait and end in PROJECT_LOCKED.
    expect(waits).toEqual([]);
    expect((error as { code?: string }).code).toBe('ENOSPC');
    expect((error as Error).message).toMatch(/cannot take the project lock .*no space left/);
    expect(existsSync(join(dir, '.lock'))).toBe(false);
    expect(readdirSync(dir)).toEqual([]);
    expect(lock.held).toBe(false);
  });

  it('once space is freed, the next writer gets the lock at once', () => {
    const lock = new ProjectLock(join(dir, '.lock'));
    disk.full = true;
    expect(() => lock.acquire('first', { timeoutMs: 3000, onWait: () => undefined })).toThrow();
    disk.full = false;
    const other = new ProjectLock(join(dir, '.lock'));
    expect(other.acquire('second', { timeoutMs: 3000, onWait: () => undefined })).toBe(0);
    other.release();
    expect(existsSync(join(dir, '.lock'))).toBe(false);
  });

  it('a store write that hits the full disk at the lock leaves the project writable afterwards', () => {
    const store = ProjectStore.create(join(dir, 'p'));
    disk.full = true;
    expect(() => store.acceptSpace({ task: 't', tools: ['A'], pinned: [], banned: [], rule: { kind: 'manual' }, note: 'n' })).toThrow(/no space left/);
    disk.full = false;
    expect(existsSync(join(dir, 'p', '.lock'))).toBe(false);
    const waits: unknown[] = [];
    const restore = setLockWaitReporter((w) => waits.push(w));
    try {
      expect(store.acceptSpace({ task: 't', tools: ['A'], pinned: [], banned: [], rule: { kind: 'manual' }, note: 'n' }).version).toBe(0);
    } finally {
      restore();
    }
    expect(waits).toEqual([]);
  });
});
