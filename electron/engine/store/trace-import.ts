// An import in progress: traces streamed to a temporary traces file, checked against what the project
// holds, and renamed into place (with their meta and index files) on commit. Holds the project's write
// lock from beginImport until commit or abort.
import { closeSync, fsyncSync, openSync, renameSync, rmSync } from 'node:fs';
import { basename, dirname } from 'node:path';
import type { Trace } from '../../../shared/trace/schema';
import { fsyncDir, uniqueTempName, writeAll, writeError, writeFileAtomic, writeJsonAtomic } from './atomic';
import { entryOf, sidecarLines, sidecarPath, traceHash, type TraceEntry } from './trace-index';
import type { ImportSummary, ProjectStore } from './project-store';

/** Why a trace was rejected: its id is held with other content (the one wording of the CLI, the API and the import summary). */
export function traceIdConflictMessage(id: string): string {
  return `trace id "${id}" is already in the project with different content; give it another id or import into another project`;
}

/** An import in progress; holds the project's write lock until commit() or abort(). Traces stream to a
 * temporary file (memory stays bounded by the id index), renamed into place on commit. */
export class TraceImport {
  private readonly pending = new Map<string, TraceEntry>();
  private readonly summary: ImportSummary;
  private readonly path: string;
  private readonly tmp: string;
  private fd: number;
  private buffer: string[] = [];
  private bufferBytes = 0;
  /** Bytes of the traces file so far (written and buffered): where the next line starts. */
  private size = 0;
  private done = false;

  constructor(
    private readonly store: ProjectStore,
    source: string,
  ) {
    this.summary = { file: '', source, added: 0, duplicates: 0, conflicts: [] };
    this.path = store.nextTraceFile();
    this.tmp = uniqueTempName(this.path);
    this.fd = openSync(this.tmp, 'w');
  }

  /** Returns what happened to the trace: added, a duplicate of one already held, or a conflicting id. */
  add(trace: Trace): 'added' | 'duplicate' | 'conflict' {
    const hash = traceHash(trace);
    const known = this.store.knownTrace(trace.id)?.hash ?? this.pending.get(trace.id)?.hash;
    if (known !== undefined) {
      if (known === hash) {
        this.summary.duplicates++;
        return 'duplicate';
      }
      this.summary.conflicts.push({ id: trace.id, message: traceIdConflictMessage(trace.id) });
      return 'conflict';
    }
    const line = JSON.stringify(trace);
    const bytes = Buffer.byteLength(line);
    this.pending.set(trace.id, entryOf(trace, basename(this.path), this.size, bytes, this.store.tools, hash));
    this.size += bytes + 1;
    this.buffer.push(line, '\n');
    this.bufferBytes += line.length + 1;
    if (this.bufferBytes > 1 << 20) this.flush();
    this.summary.added++;
    return 'added';
  }

  get counts(): Readonly<ImportSummary> {
    return this.summary;
  }

  /**
   * Everything that can fail comes before the commit point — the rename of the traces file into place:
   * the last bytes written (all of them), fsynced, and the meta file written. A failure before it
   * removes the temp file and commits nothing; the activity log entry after it is best effort (the
   * import is complete; a failure to log it is a warning).
   */
  commit(): ImportSummary {
    if (this.done) return this.summary;
    this.done = true;
    try {
      let meta: string | undefined;
      let sidecar: string | undefined;
      try {
        this.flush();
        fsyncSync(this.fd);
        closeSync(this.fd);
        this.fd = -1;
        if (this.summary.added > 0) {
          meta = this.path.replace(/\.jsonl$/, '.meta.json');
          writeJsonAtomic(meta, {
            source: this.summary.source,
            importedAt: this.store.now().toISOString(),
            added: this.summary.added,
            duplicates: this.summary.duplicates,
            conflicts: this.summary.conflicts.length,
          });
          sidecar = sidecarPath(this.path);
          writeFileAtomic(sidecar, linesOf(sidecarLines(basename(this.path), this.size, [...this.pending], this.store.tools)));
          renameSync(this.tmp, this.path);
          fsyncDir(dirname(this.path));
        }
      } catch (e) {
        this.closeQuietly();
        rmSync(this.tmp, { force: true });
        if (meta) rmSync(meta, { force: true });
        if (sidecar) rmSync(sidecar, { force: true });
        throw writeError(this.tmp, e);
      }
      if (this.summary.added > 0) {
        this.summary.file = this.path;
        this.store.finishImport(this.path, this.pending);
        this.store.logActivityAfterCommit(
          {
            kind: 'import',
            message: `imported ${this.summary.added} traces from ${basename(this.summary.source)}`,
            data: { source: this.summary.source, added: this.summary.added, duplicates: this.summary.duplicates, conflicts: this.summary.conflicts.length },
          },
          'the import was committed',
        );
      } else rmSync(this.tmp, { force: true });
      return this.summary;
    } finally {
      this.store.lock.release();
    }
  }

  abort(): void {
    if (this.done) return;
    this.done = true;
    try {
      this.closeQuietly();
      rmSync(this.tmp, { force: true });
    } finally {
      this.store.lock.release();
    }
  }

  private closeQuietly(): void {
    if (this.fd < 0) return;
    try {
      closeSync(this.fd);
    } catch {
      /* closed already */
    }
    this.fd = -1;
  }

  /** Writes the buffered traces, all of them (or throws: the caller aborts, nothing is committed). */
  private flush(): void {
    if (this.buffer.length === 0) return;
    try {
      writeAll(this.fd, this.buffer.join(''));
    } catch (e) {
      throw writeError(this.tmp, e);
    }
    this.buffer = [];
    this.bufferBytes = 0;
  }
}

function* linesOf(lines: Iterable<string>): Generator<string> {
  for (const line of lines) yield line + '\n';
}
