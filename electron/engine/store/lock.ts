// A write lock shared by every process that opens a project (the UI host, the CLI, scoring workers).
// Readers never lock; every mutation (import, score append, space accept) holds the lock.
//
// The lock file records its holder. It is written in full to a private temp file and then linked into
// place, so a lock file is never seen half-written, and a failed write (a full disk) leaves no lock
// behind. A lock that cannot be a live one is stale and is taken over: its holder process is gone, it
// was left by an earlier process that had this process's pid, or it is empty or not a lock record at
// all (left by a crash or a full disk).
//
// Waiting: the synchronous `acquire`/`run` (the CLI, worker processes) sleep between attempts; the
// asynchronous `acquireAsync`/`runAsync` (the web host, the desktop app's main process) poll with
// timers and never block an event loop. Either way a writer that holds the lock for long makes the
// others wait, saying so (`setLockWaitReporter`; stderr by default), up to a limit (LOTS_LOCK_WAIT_S,
// default 10 minutes) after which they fail with PROJECT_LOCKED.
//
// Within one process the lock is one writer at a time too (two imports of one host once shared it
// and lost an import): a lock path is held by one acquisition, whichever ProjectLock instance made it.
// Only a call nested in the holder re-enters — inside a synchronous `run`'s function, or in the async
// context of a `runAsync` — and everyone else waits (async) or is refused at once (sync: a synchronous
// wait for its own event loop could never end).
import { AsyncLocalStorage } from 'node:async_hooks';
import { randomBytes } from 'node:crypto';
import {
  closeSync,
  existsSync,
  fstatSync,
  linkSync,
  openSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  unlinkSync,
  writeFileSync,
  writeSync,
  type Stats,
} from 'node:fs';
import { hostname } from 'node:os';
import { setTimeout as delay } from 'node:timers/promises';
import { errorCode, ExpectedError, isFsError } from '../../../shared/api/errors';

export interface LockHolder {
  pid: number;
  host: string;
  since: string;
  purpose: string;
}

/** What a waiting writer knows, reported while it waits. */
export interface LockWait {
  path: string;
  /** Undefined when the lock file is being written by another process right now. */
  holder?: LockHolder;
  waitedMs: number;
  limitMs: number;
  /** One line for a person: who holds the lock, for how long this writer has waited and will wait. */
  message: string;
}

export interface AcquireOptions {
  /** Give up after this long (default: `defaultLockWaitMs()`). */
  timeoutMs?: number;
  /** Called after a second of waiting, then every 10 s (default: the process's lock-wait reporter). */
  onWait?: (wait: LockWait) => void;
  /** Async acquisition only: stop waiting (the promise rejects with the signal's reason). */
  signal?: AbortSignal;
}

const DEFAULT_WAIT_MS = 10 * 60_000;

/** How long a writer waits for another by default: LOTS_LOCK_WAIT_S seconds, else 10 minutes. */
export function defaultLockWaitMs(): number {
  const s = Number(process.env.LOTS_LOCK_WAIT_S);
  return Number.isFinite(s) && s >= 0 ? s * 1000 : DEFAULT_WAIT_MS;
}

let reporter: (wait: LockWait) => void = (wait) => {
  process.stderr.write(`lots: ${wait.message}\n`);
};

/** Where waits are reported when an acquisition names no `onWait`; returns a function restoring the previous one. */
export function setLockWaitReporter(report: (wait: LockWait) => void): () => void {
  const previous = reporter;
  reporter = report;
  return () => {
    reporter = previous;
  };
}

/** An empty or unparsable lock younger than this may be one an older LOTS Studio is writing in place. */
const HALF_WRITTEN_GRACE_MS = 1000;
const FIRST_REPORT_MS = 1000;
const REPORT_EVERY_MS = 10_000;

/** Lock files this process holds (through any ProjectLock instance): path → the one acquisition holding it. */
const heldHere = new Map<string, { purpose: string; since: string; depth: number }>();
/** Paths whose synchronous `run` function is executing now (a lock call meanwhile is nested in it). */
const syncFrames = new Map<string, number>();
/** Paths held by the `runAsync` whose async context this is. */
const asyncFrames = new AsyncLocalStorage<ReadonlySet<string>>();

/** Whether a lock call for `path` now is nested in the acquisition holding it. */
function nestedInHolder(path: string): boolean {
  return (syncFrames.get(path) ?? 0) > 0 || (asyncFrames.getStore()?.has(path) ?? false);
}

function holderHere(path: string): LockHolder | undefined {
  const h = heldHere.get(path);
  return h && { pid: process.pid, host: hostname(), since: h.since, purpose: h.purpose };
}

const sleepArray = new Int32Array(new SharedArrayBuffer(4));
function sleepSync(ms: number): void {
  Atomics.wait(sleepArray, 0, 0, ms);
}

function holderAlive(holder: LockHolder): boolean {
  if (holder.host !== hostname()) return true; // cannot tell across machines: assume alive
  return processAlive(holder.pid);
}

/** Whether a process of this machine with this pid exists (one of another user counts: EPERM). */
export function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return isFsError(e, 'EPERM');
  }
}

function parseHolder(text: string): LockHolder | undefined {
  let v: unknown;
  try {
    v = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (typeof v !== 'object' || v === null) return undefined;
  const h = v as Partial<LockHolder>;
  if (typeof h.pid !== 'number' || !Number.isInteger(h.pid) || h.pid <= 0 || typeof h.host !== 'string') return undefined;
  return { pid: h.pid, host: h.host, since: typeof h.since === 'string' ? h.since : '?', purpose: typeof h.purpose === 'string' ? h.purpose : '?' };
}

type Inspection = { state: 'gone' } | { state: 'stale'; stat: Stats; reason: string } | { state: 'held'; holder?: LockHolder };

function sameFile(a: Stats, b: Stats): boolean {
  return a.dev === b.dev && a.ino === b.ino && a.size === b.size && a.mtimeMs === b.mtimeMs;
}

function describeHolder(holder: LockHolder | undefined): string {
  if (!holder) return 'another process';
  if (holder.pid === process.pid && holder.host === hostname()) return `this process (pid ${holder.pid}: ${holder.purpose}, since ${holder.since})`;
  return `process ${holder.pid} on ${holder.host} (${holder.purpose}, since ${holder.since})`;
}

function minutes(ms: number): string {
  return ms >= 60_000 ? `${Math.round(ms / 6_000) / 10} min` : `${Math.round(ms / 100) / 10} s`;
}

/** Counts a wait, reports it now and then, and fails it at the deadline. */
class Waiting {
  private readonly start = Date.now();
  private nextReport = this.start + FIRST_REPORT_MS;
  private attempts = 0;

  constructor(
    private readonly path: string,
    private readonly limitMs: number,
    private readonly onWait: (wait: LockWait) => void,
  ) {}

  /** After a failed attempt: throws at the deadline, else reports when due; returns the pause before the next attempt. */
  failedAttempt(holder: LockHolder | undefined, maxPauseMs: number): number {
    const now = Date.now();
    const waited = now - this.start;
    if (waited >= this.limitMs) {
      throw new ExpectedError(
        'PROJECT_LOCKED',
        `the project is busy: ${describeHolder(holder)} holds ${this.path}; gave up after waiting ${minutes(waited)}. ` +
          'Try again when it has finished (LOTS_LOCK_WAIT_S sets how long to wait), or delete the lock file if that process is gone.',
      );
    }
    if (now >= this.nextReport) {
      this.nextReport = now + REPORT_EVERY_MS;
      const message = `waiting for the project lock: ${describeHolder(holder)} is writing to the project (${this.path}); waited ${minutes(waited)}, will wait up to ${minutes(this.limitMs)}`;
      try {
        this.onWait({ path: this.path, ...(holder ? { holder } : {}), waitedMs: waited, limitMs: this.limitMs, message });
      } catch {
        /* a broken reporter must not break the write */
      }
    }
    this.attempts++;
    return Math.min(5 + this.attempts * 5, maxPauseMs, Math.max(1, this.limitMs - waited));
  }
}

/**
 * Run `fn` holding the project's write lock; waits for another holder (see the top of this file).
 * Re-entrant for calls nested in the holder.
 */
export class ProjectLock {
  constructor(private readonly path: string) {}

  run<T>(purpose: string, fn: () => T, options?: number | AcquireOptions): T {
    this.acquire(purpose, options);
    syncFrames.set(this.path, (syncFrames.get(this.path) ?? 0) + 1);
    try {
      return fn();
    } finally {
      const n = syncFrames.get(this.path)! - 1;
      if (n > 0) syncFrames.set(this.path, n);
      else syncFrames.delete(this.path);
      this.release();
    }
  }

  /** Like `run`, waiting for the lock without blocking the event loop; `fn`'s async context is nested in the holder. */
  async runAsync<T>(purpose: string, fn: () => Promise<T>, options?: number | AcquireOptions): Promise<T> {
    await this.acquireAsync(purpose, options);
    try {
      const outer = asyncFrames.getStore();
      return await asyncFrames.run(new Set([...(outer ?? []), this.path]), fn);
    } finally {
      this.release();
    }
  }

  /** Whether this process holds the lock (through any instance). */
  get held(): boolean {
    return heldHere.has(this.path);
  }

  /** Synchronous: sleeps between attempts (fine in the CLI and in worker processes, never in a host).
   * Returns how many attempts failed before it got the lock (0: at once). */
  acquire(purpose: string, options?: number | AcquireOptions): number {
    const here = heldHere.get(this.path);
    if (here) {
      if (nestedInHolder(this.path)) {
        here.depth++;
        return 0;
      }
      // Another write of this very process holds it, and only this event loop can let it go: a
      // synchronous wait could never end.
      throw new ExpectedError(
        'PROJECT_LOCKED',
        `the project is busy: this process is already writing to it (${here.purpose}, since ${here.since}); try again when that has finished.`,
      );
    }
    const o = normalise(options);
    const waiting = new Waiting(this.path, o.timeoutMs ?? defaultLockWaitMs(), o.onWait ?? reporter);
    for (let failed = 0; ; failed++) {
      const attempt = this.attempt(purpose);
      if (attempt.ok) return failed;
      sleepSync(waiting.failedAttempt(attempt.holder, 50));
    }
  }

  /**
   * Asynchronous: polls with timers, so the event loop keeps serving while another writer — of another
   * process, or of this one — finishes. Resolves to how many attempts failed before it got the lock.
   */
  async acquireAsync(purpose: string, options?: number | AcquireOptions): Promise<number> {
    const here = heldHere.get(this.path);
    if (here && nestedInHolder(this.path)) {
      here.depth++;
      return 0;
    }
    const o = normalise(options);
    const waiting = new Waiting(this.path, o.timeoutMs ?? defaultLockWaitMs(), o.onWait ?? reporter);
    for (let failed = 0; ; failed++) {
      o.signal?.throwIfAborted();
      // Checked and taken in one synchronous step: two waiters of this process never both get it.
      const attempt = heldHere.has(this.path) ? { ok: false as const, holder: holderHere(this.path) } : this.attempt(purpose);
      if (attempt.ok) return failed;
      const pause = waiting.failedAttempt(attempt.holder, 250);
      try {
        await delay(pause, undefined, o.signal ? { signal: o.signal } : undefined);
      } catch (e) {
        throw o.signal?.aborted ? o.signal.reason : e;
      }
    }
  }

  release(): void {
    const here = heldHere.get(this.path);
    if (!here) return;
    if (--here.depth > 0) return;
    heldHere.delete(this.path);
    try {
      unlinkSync(this.path);
    } catch {
      /* already gone */
    }
  }

  /** One try, taking over a stale lock on the way. */
  private attempt(purpose: string): { ok: true } | { ok: false; holder?: LockHolder } {
    const since = new Date().toISOString();
    const record = JSON.stringify({ pid: process.pid, host: hostname(), since, purpose } satisfies LockHolder);
    for (let tries = 0; tries < 5; tries++) {
      if (this.create(record)) {
        heldHere.set(this.path, { purpose, since, depth: 1 });
        return { ok: true };
      }
      const seen = this.inspect();
      if (seen.state === 'held') return { ok: false, ...(seen.holder ? { holder: seen.holder } : {}) };
      if (seen.state === 'stale') this.takeOver(seen.stat);
    }
    return { ok: false };
  }

  /** Writes the holder record and puts it in place; false when a lock file is already there. */
  private create(record: string): boolean {
    const tmp = `${this.path}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
    try {
      try {
        writeFileSync(tmp, record, { flag: 'wx' });
      } catch (e) {
        throw lockWriteError(this.path, e);
      }
      try {
        linkSync(tmp, this.path);
        return true;
      } catch (e) {
        const code = errorCode(e);
        if (code === 'EEXIST') return false;
        if (code === 'EPERM' || code === 'ENOTSUP' || code === 'EOPNOTSUPP' || code === 'ENOSYS' || code === 'EXDEV' || code === 'EMLINK')
          return this.createInPlace(record);
        throw lockWriteError(this.path, e);
      }
    } finally {
      rmSync(tmp, { force: true });
    }
  }

  /** For file systems without hard links: create exclusively and write; a failed write removes the file. */
  private createInPlace(record: string): boolean {
    let fd: number;
    try {
      fd = openSync(this.path, 'wx');
    } catch (e) {
      if (isFsError(e, 'EEXIST')) return false;
      throw lockWriteError(this.path, e);
    }
    try {
      const data = Buffer.from(record);
      for (let off = 0; off < data.length;) off += writeSync(fd, data, off, data.length - off);
      closeSync(fd);
      return true;
    } catch (e) {
      try {
        closeSync(fd);
      } catch {
        /* closed already */
      }
      rmSync(this.path, { force: true });
      throw lockWriteError(this.path, e);
    }
  }

  private inspect(): Inspection {
    let fd: number;
    try {
      fd = openSync(this.path, 'r');
    } catch (e) {
      if (isFsError(e, 'ENOENT')) return { state: 'gone' };
      let stat: Stats;
      try {
        stat = statSync(this.path);
      } catch {
        return { state: 'gone' };
      }
      return { state: 'stale', stat, reason: `unreadable (${errorCode(e) ?? 'error'})` };
    }
    let stat: Stats;
    let text: string;
    try {
      stat = fstatSync(fd);
      try {
        text = readFileSync(fd, 'utf8');
      } catch (e) {
        return { state: 'stale', stat, reason: `unreadable (${errorCode(e) ?? 'error'})` };
      }
    } finally {
      closeSync(fd);
    }
    const holder = parseHolder(text);
    if (!holder) {
      if (Date.now() - stat.mtimeMs < HALF_WRITTEN_GRACE_MS) return { state: 'held' };
      return { state: 'stale', stat, reason: text.length === 0 ? 'empty' : 'not a lock record' };
    }
    if (holder.host === hostname() && holder.pid === process.pid) {
      // Ours (held meanwhile), or left by an earlier process that had this pid (a restarted container).
      return heldHere.has(this.path) ? { state: 'held', holder } : { state: 'stale', stat, reason: 'left by an earlier process with this pid' };
    }
    return holderAlive(holder) ? { state: 'held', holder } : { state: 'stale', stat, reason: `process ${holder.pid} is gone` };
  }

  /** Moves the stale lock aside; if what was moved is not what was judged stale (taken meanwhile), puts it back. */
  private takeOver(judged: Stats): void {
    const aside = `${this.path}.${process.pid}.${randomBytes(4).toString('hex')}.stale`;
    try {
      renameSync(this.path, aside);
    } catch {
      return; // gone already: another process took it over first
    }
    try {
      if (!sameFile(statSync(aside), judged)) {
        try {
          linkSync(aside, this.path);
        } catch {
          if (!existsSync(this.path)) renameSync(aside, this.path);
        }
      }
    } finally {
      rmSync(aside, { force: true });
    }
  }
}

function normalise(options: number | AcquireOptions | undefined): AcquireOptions {
  return typeof options === 'number' ? { timeoutMs: options } : (options ?? {});
}

/** An fs error while taking the lock, as an expected error naming the lock; anything else is a bug (returned as it is). */
function lockWriteError(path: string, e: unknown): Error {
  if (!isFsError(e)) return e as Error;
  const why =
    e.code === 'ENOSPC'
      ? 'no space left on the device'
      : e.code === 'EDQUOT'
        ? 'disk quota exceeded'
        : e.code === 'EROFS'
          ? 'the file system is read-only'
          : e.message;
  return new ExpectedError(e.code, `cannot take the project lock ${path}: ${why} (${e.code}); nothing was written`, { cause: e });
}
