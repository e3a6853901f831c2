// Where a gateway's traces go: into the project as import batches, through the store's own import
// (TraceImport), so `lots update` folds live traffic as it folds imported files. Serving never waits for
// this: traces queue in memory and are committed in one batch every so often (and when the gateway
// stops), each commit waiting for the project lock without blocking the event loop; a commit that
// cannot get the lock in time keeps its traces queued for the next try. What still cannot be committed
// when the gateway stops is written to a file `lots import` reads, and the path is said.
//
// A kill -9 must not lose the queue: each trace is also appended to the session's journal in the
// project (gateways/<source>.jsonl: native traces, one a line, fsynced before the next request is
// served), which a commit rewrites down to what is still queued and a clean stop removes. A gateway
// starting on the project commits the journals of gateways that are gone (killed, or their machine
// rebooted) as batches labelled with their own sessions, and says how many traces it recovered and how
// many lines it could not read back; a journal is native JSONL, so `lots import` reads one too. A
// project folder moved or removed while serving is not written into again (a write would make a stray
// folder that is no project): the traces stay queued, and at the stop go to the file that is said.
import { closeSync, existsSync, fsyncSync, ftruncateSync, openSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync, writeSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { gatewayLiveness } from '../../../shared/project/gateways';
import { TraceSchema, type Trace } from '../../../shared/trace/schema';
import type { ProjectStore } from '../store';
import { processAlive } from '../store/lock';

/** Whether the store's folder is (still) a project: a gateway writes nothing into a folder that is not. */
export function isStillProject(store: ProjectStore): boolean {
  return existsSync(join(store.dir, 'project.json'));
}

/** A journal's file name: the import source it is labelled with, `.jsonl`. */
const JOURNAL = /^(gateway-(?:openai|mcp)-([\w.-]+))\.jsonl$/;

export interface Recovered {
  /** The sessions whose journals were committed. */
  sessions: string[];
  traces: number;
  /** Lines of those journals that could not be read back (a line torn by the kill). */
  lost: number;
}

export interface RecorderOptions {
  /** How the batches are labelled in the project (`lots update` shows it). */
  source: string;
  /** Commit queued traces this often (default 10 minutes), and … */
  commitEveryMs?: number;
  /** … as soon as this many are queued (default 500). */
  commitAtTraces?: number;
  /** How long one commit waits for the lock while serving (default 5 s; then it retries later). */
  lockWaitMs?: number;
  /** How long the last commit, when stopping, waits for the lock (default 120 s). */
  closeLockWaitMs?: number;
  /** A line for the operator (a commit, a wait, a failure). */
  log?: (line: string) => void;
  /** Keep the journal (default true). */
  journal?: boolean;
}

export interface CommitResult {
  added: number;
  file?: string;
}

export class TraceRecorder {
  private queue: Trace[] = [];
  private chain: Promise<unknown> = Promise.resolve();
  private readonly timer: NodeJS.Timeout;
  private closed = false;
  /** Trace files this recorder committed, in order. */
  readonly files: string[] = [];
  committed = 0;
  /** When the last commit that added traces finished. */
  lastCommitAt?: string;
  /** Called after each commit that added traces (the gateway's status record is rewritten then). */
  onCommit?: () => void;
  /** What the start recovered from the journals of gateways that were killed. */
  recovered?: Recovered;
  /** The journal's path (gateways/<source>.jsonl in the project). */
  readonly journalPath: string;
  private journalFd: number | undefined;
  /** Traces journaled but not queued: an answer that waits for the request continuing it (the continuation replaces it, by id). */
  private readonly waiting = new Map<string, Trace>();
  private said = new Set<string>();

  constructor(
    private readonly store: ProjectStore,
    private readonly options: RecorderOptions,
  ) {
    this.journalPath = join(store.dir, 'gateways', `${options.source}.jsonl`);
    this.timer = setInterval(() => this.commitLater(), options.commitEveryMs ?? 600_000);
    this.timer.unref();
    if (options.journal !== false)
      this.chain = this.recover().catch((e: unknown) =>
        this.once(`could not recover earlier journals (${e instanceof Error ? e.message : String(e)}); they stay for the next start`),
      );
  }

  /** A line said once per distinct text (a moved project, a full disk: not one per request). */
  private once(line: string): void {
    if (this.said.has(line)) return;
    this.said.add(line);
    this.options.log?.(`gateway: ${line}`);
  }

  /** Commits the journals of gateways that are gone; see the file's comment. */
  private async recover(): Promise<void> {
    const dir = join(this.store.dir, 'gateways');
    let names: string[];
    try {
      names = readdirSync(dir);
    } catch {
      return;
    }
    const records = new Map(this.store.listGateways().map((r) => [r.id, r]));
    const now = new Date();
    for (const name of names.sort()) {
      const m = JOURNAL.exec(name);
      if (!m || m[1] === this.options.source) continue;
      const [, source, session] = m as unknown as [string, string, string];
      const record = records.get(session);
      if (record && record.pid !== process.pid) {
        const alive = record.hostname === hostname() ? processAlive(record.pid) : undefined;
        if (gatewayLiveness(record, now, alive) === 'running') continue; // a gateway serving now: its journal is its own
      }
      const path = join(dir, name);
      // The last line of an id wins: an open exchange is journaled as it stood, then as its chain.
      const byId = new Map<string, Trace>();
      let lost = 0;
      for (const line of readFileSync(path, 'utf8').split('\n')) {
        if (line.trim() === '') continue;
        try {
          const parsed = TraceSchema.safeParse(JSON.parse(line));
          if (parsed.success) {
            byId.delete(parsed.data.id);
            byId.set(parsed.data.id, parsed.data);
          } else lost++;
        } catch {
          lost++;
        }
      }
      const traces = [...byId.values()];
      const imp = await this.store.beginImportAsync(source, { timeoutMs: this.options.lockWaitMs ?? 5000 });
      let summary;
      try {
        for (const t of traces) imp.add(t);
        summary = imp.commit();
      } catch (e) {
        imp.abort();
        throw e;
      }
      rmSync(path, { force: true });
      const r = (this.recovered ??= { sessions: [], traces: 0, lost: 0 });
      r.sessions.push(session);
      r.traces += traces.length;
      r.lost += lost;
      this.options.log?.(
        `gateway: recovered ${traces.length} trace(s) from the journal of gateway session ${session}, which stopped without committing them` +
          ` (${summary.added} added${summary.file ? ` into ${summary.file}` : ''}, ${summary.duplicates} already in the project); ${lost} line(s) could not be read back`,
      );
    }
  }

  /** Appends a trace to the journal, durably (fsync) before the gateway goes on. */
  private journal(trace: Trace): void {
    if (this.options.journal === false) return;
    if (!isStillProject(this.store)) {
      this.once(`the project folder ${this.store.dir} is no longer a project (moved or removed?): nothing is written there; traces stay in memory`);
      return;
    }
    try {
      this.journalFd ??= openSync(this.journalPath, 'a');
      const line = Buffer.from(JSON.stringify(trace) + '\n');
      let at = 0;
      while (at < line.length) at += writeSync(this.journalFd, line, at);
      fsyncSync(this.journalFd);
    } catch (e) {
      this.once(`could not journal a trace in ${this.journalPath} (${e instanceof Error ? e.message : String(e)}); it is kept in memory until the next commit`);
    }
  }

  /** The journal rewritten down to what is still queued (atomically: a kill in between leaves the old one, whose traces are then deduplicated by id). */
  private trimJournal(): void {
    if (this.journalFd === undefined) return;
    try {
      const keep = [...this.waiting.values(), ...this.queue];
      if (keep.length === 0) {
        ftruncateSync(this.journalFd, 0);
        fsyncSync(this.journalFd);
        return;
      }
      const tmp = `${this.journalPath}.${process.pid}.tmp`;
      const fd = openSync(tmp, 'w');
      try {
        writeFileSync(fd, keep.map((t) => JSON.stringify(t) + '\n').join(''));
        fsyncSync(fd);
      } finally {
        closeSync(fd);
      }
      renameSync(tmp, this.journalPath);
      closeSync(this.journalFd);
      this.journalFd = openSync(this.journalPath, 'a');
    } catch (e) {
      this.once(
        `could not trim the journal ${this.journalPath} (${e instanceof Error ? e.message : String(e)}); a later start commits it again, deduplicated by trace id`,
      );
    }
  }

  /** Closes and removes the journal (everything in it is committed). */
  private removeJournal(): void {
    if (this.journalFd !== undefined) closeSync(this.journalFd);
    this.journalFd = undefined;
    if (this.options.journal !== false) rmSync(this.journalPath, { force: true });
  }

  get pending(): number {
    return this.queue.length;
  }

  /** Journal a trace that is not to be committed yet (an exchange still open): a kill -9 then keeps it as it stands. A later `add` of the same id replaces it. */
  provisional(trace: Trace): void {
    const parsed = TraceSchema.safeParse(trace);
    if (!parsed.success) return; // said when it is added for good
    this.waiting.set(trace.id, parsed.data);
    this.journal(parsed.data);
  }

  /** Queue a trace (checked against the native schema first: a trace that does not validate is a bug, said and dropped). */
  add(trace: Trace): void {
    const parsed = TraceSchema.safeParse(trace);
    if (!parsed.success) {
      this.options.log?.(`gateway: trace ${trace.id} not recorded (it does not validate: ${parsed.error.issues[0]?.message ?? 'invalid'})`);
      return;
    }
    this.queue.push(parsed.data);
    this.waiting.delete(parsed.data.id);
    this.journal(parsed.data);
    if (!this.closed && this.queue.length >= (this.options.commitAtTraces ?? 500)) this.commitLater();
  }

  /** A commit nobody waits for: its failure is logged (commitNow) and its traces stay queued. */
  private commitLater(): void {
    this.commit().catch(() => undefined);
  }

  /** Commit what is queued now, as one batch (one at a time; a failure keeps the traces queued). */
  commit(lockWaitMs = this.options.lockWaitMs ?? 5000): Promise<CommitResult> {
    const run = this.chain.then(() => this.commitNow(lockWaitMs));
    this.chain = run.catch(() => undefined);
    return run;
  }

  private async commitNow(timeoutMs: number): Promise<CommitResult> {
    if (this.queue.length === 0) return { added: 0 };
    const batch = this.queue;
    this.queue = [];
    try {
      if (!isStillProject(this.store))
        throw new Error(`the project folder ${this.store.dir} is no longer a project (moved or removed?): nothing is written there`);
      const imp = await this.store.beginImportAsync(this.options.source, {
        timeoutMs,
        onWait: (w) => this.options.log?.(`gateway: recording waits for the project lock: ${w.message}`),
      });
      try {
        for (const t of batch) imp.add(t);
      } catch (e) {
        imp.abort();
        throw e;
      }
      const summary = imp.commit();
      this.trimJournal();
      this.committed += summary.added;
      if (summary.file) this.files.push(summary.file);
      if (summary.added > 0) {
        this.lastCommitAt = new Date().toISOString();
        this.options.log?.(`gateway: recorded ${summary.added} trace(s) into ${summary.file} (a new batch of the project)`);
        this.onCommit?.();
      }
      return { added: summary.added, ...(summary.file ? { file: summary.file } : {}) };
    } catch (e) {
      this.queue = [...batch, ...this.queue];
      this.options.log?.(`gateway: could not record ${batch.length} trace(s) yet (${e instanceof Error ? e.message : String(e)}); will retry`);
      throw e;
    }
  }

  /**
   * Stop: commit everything queued, waiting longer for the lock. What cannot be committed is written to
   * a JSONL file (native traces) and its path returned, for `lots import`.
   */
  async close(): Promise<{ committed: number; leftIn?: string }> {
    this.closed = true;
    clearInterval(this.timer);
    try {
      await this.commit(this.options.closeLockWaitMs ?? 120_000);
    } catch {
      const path = join(tmpdir(), `lots-gateway-${this.options.source.replace(/[^\w.-]+/g, '_')}-${process.pid}.jsonl`);
      writeFileSync(path, this.queue.map((t) => JSON.stringify(t) + '\n').join(''));
      this.options.log?.(
        `gateway: ${this.queue.length} trace(s) could not be recorded; they are in ${path} (import them with \`lots import ${path} --project …\`)`,
      );
      this.queue = [];
      if (this.journalFd !== undefined) closeSync(this.journalFd);
      this.journalFd = undefined;
      return { committed: this.committed, leftIn: path };
    }
    if (this.queue.length === 0 && this.waiting.size === 0) this.removeJournal();
    return { committed: this.committed };
  }
}
