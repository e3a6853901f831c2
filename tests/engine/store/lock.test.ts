// The project's write lock (issue 13 #5, #7): a lock that cannot be a live one is taken over at once;
// waiting never blocks an event loop on the async path; a long writer makes others wait, saying so,
// up to a limit, rather than fail after 15 s.
import { spawn, type ChildProcess } from 'node:child_process';
import { copyFileSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, unlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { defaultLockWaitMs, ProjectLock, ProjectStore, type LockWait } from '../../../electron/engine/store';
import { StudioService } from '../../../electron/engine/api';
import { ExpectedError } from '../../../shared/api/errors';

let dir: string;
let lockPath: string;
const children: ChildProcess[] = [];

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'lots-lock-'));
  lockPath = join(dir, '.lock');
});
afterEach(() => {
  for (const c of children.splice(0)) c.kill('SIGKILL');
  rmSync(dir, { recursive: true, force: true });
});

/** A live process of this machine that is not this one. */
async function liveProcess(): Promise<number> {
  const child = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 60_000)'], { stdio: 'ignore' });
  children.push(child);
  await new Promise((r) => child.once('spawn', r));
  return child.pid!;
}

function holderRecord(pid: number, purpose = 'import big.jsonl'): string {
  return JSON.stringify({ pid, host: hostname(), since: new Date().toISOString(), purpose });
}

function aged(path: string, seconds = 30): void {
  const t = new Date(Date.now() - seconds * 1000);
  utimesSync(path, t, t);
}

/** Takes the lock and returns how many attempts failed first (0: taken at once). */
function failedAttempts(lock: ProjectLock, timeoutMs = 3000): number {
  return lock.acquire('test', { timeoutMs, onWait: () => undefined });
}

describe('stale locks are taken over (issue 13 #5)', () => {
  it('an empty lock (a lock taken on a full disk) is stale', () => {
    writeFileSync(lockPath, '');
    aged(lockPath);
    const lock = new ProjectLock(lockPath);
    expect(failedAttempts(lock)).toBe(0);
    expect(JSON.parse(readFileSync(lockPath, 'utf8'))).toMatchObject({ pid: process.pid, purpose: 'test' });
    lock.release();
    expect(existsSync(lockPath)).toBe(false);
  });

  it('a lock that is not a lock record (garbage, a torn write) is stale', () => {
    for (const junk of ['{"pid":', 'not json at all', '{"pid":"12","host":3}', 'null', '\u0000\u0000\u0000']) {
      writeFileSync(lockPath, junk);
      aged(lockPath);
      const lock = new ProjectLock(lockPath);
      expect(failedAttempts(lock)).toBe(0);
      lock.release();
    }
  });

  it('a brand-new empty lock is waited on for its grace period (an older Studio may be writing it), then taken over', () => {
    writeFileSync(lockPath, '');
    const lock = new ProjectLock(lockPath);
    // A live holder would make this throw PROJECT_LOCKED at the 60 s limit; the empty lock is taken once its grace ends.
    expect(failedAttempts(lock, 60_000)).toBeGreaterThan(0);
    expect(JSON.parse(readFileSync(lockPath, 'utf8'))).toMatchObject({ pid: process.pid, purpose: 'test' });
    lock.release();
  });

  it('a lock whose holder process is gone is stale', async () => {
    const child = spawn(process.execPath, ['-e', ''], { stdio: 'ignore' });
    const pid = await new Promise<number>((r) => child.once('exit', () => r(child.pid!)));
    writeFileSync(lockPath, holderRecord(pid));
    const lock = new ProjectLock(lockPath);
    expect(failedAttempts(lock)).toBe(0);
    lock.release();
  });

  it('a lock left by an earlier process with this pid (a restarted container) is stale', () => {
    writeFileSync(lockPath, holderRecord(process.pid));
    const lock = new ProjectLock(lockPath);
    expect(failedAttempts(lock)).toBe(0);
    lock.release();
  });

  it('a live holder is not taken over', async () => {
    writeFileSync(lockPath, holderRecord(await liveProcess()));
    const lock = new ProjectLock(lockPath);
    expect(() => lock.acquire('test', { timeoutMs: 300, onWait: () => undefined })).toThrow(ExpectedError);
    expect(JSON.parse(readFileSync(lockPath, 'utf8')).purpose).toBe('import big.jsonl');
  });

  it('leaves no temp or aside files behind', () => {
    writeFileSync(lockPath, '');
    aged(lockPath);
    const lock = new ProjectLock(lockPath);
    lock.acquire('test');
    lock.release();
    expect(readdirSync(dir)).toEqual([]);
  });
});

describe('waiting for a long writer (issue 13 #7)', () => {
  it('waits longer than 15 s by default, and the limit is the user’s to set', () => {
    const saved = process.env.LOTS_LOCK_WAIT_S;
    try {
      delete process.env.LOTS_LOCK_WAIT_S;
      expect(defaultLockWaitMs()).toBeGreaterThanOrEqual(10 * 60_000);
      process.env.LOTS_LOCK_WAIT_S = '90';
      expect(defaultLockWaitMs()).toBe(90_000);
    } finally {
      if (saved === undefined) delete process.env.LOTS_LOCK_WAIT_S;
      else process.env.LOTS_LOCK_WAIT_S = saved;
    }
  });

  it('says who it is waiting for, then fails with PROJECT_LOCKED naming the limit', async () => {
    const pid = await liveProcess();
    writeFileSync(lockPath, holderRecord(pid));
    const waits: LockWait[] = [];
    const lock = new ProjectLock(lockPath);
    let error: unknown;
    try {
      lock.acquire('append scores', { timeoutMs: 1600, onWait: (w) => waits.push(w) });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ExpectedError);
    expect((error as ExpectedError).code).toBe('PROJECT_LOCKED');
    expect((error as Error).message).toContain(`process ${pid}`);
    expect((error as Error).message).toContain('LOTS_LOCK_WAIT_S');
    expect(waits.length).toBeGreaterThanOrEqual(1);
    expect(waits[0]!.holder?.pid).toBe(pid);
    expect(waits[0]!.message).toMatch(/^waiting for the project lock: process \d+ .*import big\.jsonl.*will wait up to 1\.6 s/);
  });

  it('a synchronous writer in another process waits for the holder and then gets the lock', async () => {
    const pid = await liveProcess();
    writeFileSync(lockPath, holderRecord(pid));
    const script = join(dir, 'waiter.ts');
    writeFileSync(
      script,
      `import { ProjectLock } from ${JSON.stringify(join(process.cwd(), 'electron/engine/store/lock.ts'))};
const lock = new ProjectLock(process.argv[2]);
console.log('ready');
console.log('failed attempts ' + lock.acquire('waiter', { timeoutMs: 20_000 }));
lock.release();
`,
    );
    const child = spawn(process.execPath, ['--import', 'tsx', script, lockPath], { stdio: ['ignore', 'pipe', 'pipe'] });
    children.push(child);
    let out = '';
    let err = '';
    const ready = new Promise<void>((resolve) =>
      child.stdout.on('data', (c: Buffer) => {
        out += c.toString();
        if (out.includes('ready')) resolve();
      }),
    );
    child.stderr.on('data', (c: Buffer) => (err += c.toString()));
    await ready;
    await new Promise((r) => setTimeout(r, 2000));
    unlinkSync(lockPath); // the holder finishes
    const code = await new Promise<number>((r) => child.once('exit', (c) => r(c ?? 1)));
    expect(code).toBe(0);
    expect(Number(out.match(/failed attempts (\d+)/)?.[1])).toBeGreaterThan(0);
    expect(err).toContain('waiting for the project lock');
  });

  it('a second handle in the same process fails at once instead of freezing the process', () => {
    const a = new ProjectLock(lockPath);
    const b = new ProjectLock(lockPath);
    a.acquire('first');
    // Refused before any wait: a wait would end in "gave up after waiting", not this message.
    expect(() => b.acquire('second', { timeoutMs: 5000 })).toThrow(/already writing/);
    a.release();
    b.acquire('second');
    b.release();
  });

  it('the async acquisition keeps the event loop running and gets the lock when the holder is done', async () => {
    writeFileSync(lockPath, holderRecord(await liveProcess()));
    const lock = new ProjectLock(lockPath);
    let ticks = 0;
    const timer = setInterval(() => ticks++, 20);
    setTimeout(() => unlinkSync(lockPath), 600);
    const waits: LockWait[] = [];
    await lock.acquireAsync('async', { timeoutMs: 10_000, onWait: (w) => waits.push(w) });
    clearInterval(timer);
    expect(ticks).toBeGreaterThan(15);
    expect(lock.held).toBe(true);
    lock.release();
  });

  it('the async acquisition waits for another handle of this process, then gets the lock', async () => {
    const a = new ProjectLock(lockPath);
    const b = new ProjectLock(lockPath);
    a.acquire('first');
    setTimeout(() => a.release(), 300);
    await b.acquireAsync('second', { timeoutMs: 5000, onWait: () => undefined });
    expect(JSON.parse(readFileSync(lockPath, 'utf8')).purpose).toBe('second');
    b.release();
  });

  it('the async acquisition can be cancelled', async () => {
    writeFileSync(lockPath, holderRecord(await liveProcess()));
    const lock = new ProjectLock(lockPath);
    const ac = new AbortController();
    setTimeout(() => ac.abort(new Error('cancelled by the user')), 200);
    await expect(lock.acquireAsync('async', { signal: ac.signal, onWait: () => undefined })).rejects.toThrow('cancelled by the user');
    expect(lock.held).toBe(false);
  });

  it('the web host keeps serving while a CLI import holds the lock, and its import then goes through', async () => {
    const project = join(dir, 'p');
    ProjectStore.create(project);
    const service = new StudioService({ transport: 'web', configDir: mkdtempSync(join(tmpdir(), 'lots-config-')) });
    await service.openProject({ dir: project });
    const traces = join(dir, 'native.jsonl');
    copyFileSync(join(process.cwd(), 'tests/fixtures/formats/native.jsonl'), traces);
    const projectLock = join(project, '.lock');
    writeFileSync(projectLock, holderRecord(await liveProcess(), 'import other.jsonl'));

    let ticks = 0;
    let released = false;
    const timer = setInterval(() => ticks++, 10);
    setTimeout(() => {
      released = true;
      unlinkSync(projectLock); // the CLI import finishes
    }, 1500);
    const report = await service.importTraces({ paths: [traces] });
    clearInterval(timer);
    // The import waited for the holder, and the event loop kept running meanwhile (a blocking wait lets no timer fire).
    expect(released).toBe(true);
    expect(ticks).toBeGreaterThan(10);
    expect(report.files[0]!.added).toBeGreaterThan(0);
    expect(existsSync(projectLock)).toBe(false);
  });
});
