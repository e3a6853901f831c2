// A write lock shared by every process that opens a project (the UI host, the CLI, scoring workers).
// Readers never lock; every mutation (import, score append, space accept) holds the lock briefly.
// The lock file records its holder; a lock whose holder process is gone is taken over (stale).
import { closeSync, openSync, readFileSync, unlinkSync, writeSync } from 'node:fs';
import { hostname } from 'node:os';
import { EngineError } from './errors';

export interface LockHolder {
  pid: number;
  host: string;
  since: string;
  purpose: string;
}

const sleepArray = new Int32Array(new SharedArrayBuffer(4));
function sleepSync(ms: number): void {
  Atomics.wait(sleepArray, 0, 0, ms);
}

function holderAlive(holder: LockHolder): boolean {
  if (holder.host !== hostname()) return true; // cannot tell across machines: assume alive
  try {
    process.kill(holder.pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function readHolder(path: string): LockHolder | undefined {
  try {
    return JSON.parse(readFileSync(path, 'utf8')) as LockHolder;
  } catch {
    return undefined;
  }
}

/** Run `fn` holding the project's write lock; waits up to `timeoutMs` for another holder. Re-entrant per process. */
export class ProjectLock {
  private depth = 0;

  constructor(private readonly path: string) {}

  run<T>(purpose: string, fn: () => T, timeoutMs = 15_000): T {
    this.acquire(purpose, timeoutMs);
    try {
      return fn();
    } finally {
      this.release();
    }
  }

  async runAsync<T>(purpose: string, fn: () => Promise<T>, timeoutMs = 15_000): Promise<T> {
    this.acquire(purpose, timeoutMs);
    try {
      return await fn();
    } finally {
      this.release();
    }
  }

  acquire(purpose: string, timeoutMs = 15_000): void {
    if (this.depth > 0) {
      this.depth++;
      return;
    }
    const deadline = Date.now() + timeoutMs;
    for (let attempt = 0; ; attempt++) {
      try {
        const fd = openSync(this.path, 'wx');
        const holder: LockHolder = { pid: process.pid, host: hostname(), since: new Date().toISOString(), purpose };
        writeSync(fd, JSON.stringify(holder));
        closeSync(fd);
        this.depth = 1;
        return;
      } catch (e) {
        if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
      }
      const holder = readHolder(this.path);
      if (holder && !holderAlive(holder)) {
        try {
          unlinkSync(this.path);
        } catch {
          /* another process took it over first */
        }
        continue;
      }
      if (Date.now() > deadline) {
        const who = holder ? `process ${holder.pid} on ${holder.host} (${holder.purpose}, since ${holder.since})` : 'another process';
        throw new EngineError('PROJECT_LOCKED', `the project is busy: ${who} holds ${this.path}. Wait for it to finish, or delete the lock file if that process is gone.`);
      }
      sleepSync(Math.min(5 + attempt * 5, 50));
    }
  }

  release(): void {
    if (this.depth === 0) return;
    this.depth--;
    if (this.depth === 0) {
      try {
        unlinkSync(this.path);
      } catch {
        /* already gone */
      }
    }
  }
}
