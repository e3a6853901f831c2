// Where a gateway's traces go: into the project as import batches, through the store's own import
// (TraceImport), so `lots update` folds live traffic as it folds imported files. Serving never waits for
// this: traces queue in memory and are committed in one batch every so often (and when the gateway
// stops), each commit waiting for the project lock without blocking the event loop; a commit that
// cannot get the lock in time keeps its traces queued for the next try. What still cannot be committed
// when the gateway stops is written to a file `lots import` reads, and the path is said.
import { writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { TraceSchema, type Trace } from '../../../shared/trace/schema';
import type { ProjectStore } from '../store';

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

  constructor(
    private readonly store: ProjectStore,
    private readonly options: RecorderOptions,
  ) {
    this.timer = setInterval(() => this.commitLater(), options.commitEveryMs ?? 600_000);
    this.timer.unref();
  }

  get pending(): number {
    return this.queue.length;
  }

  /** Queue a trace (checked against the native schema first: a trace that does not validate is a bug, said and dropped). */
  add(trace: Trace): void {
    const parsed = TraceSchema.safeParse(trace);
    if (!parsed.success) {
      this.options.log?.(`gateway: trace ${trace.id} not recorded (it does not validate: ${parsed.error.issues[0]?.message ?? 'invalid'})`);
      return;
    }
    this.queue.push(parsed.data);
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
      return { committed: this.committed, leftIn: path };
    }
    return { committed: this.committed };
  }
}
