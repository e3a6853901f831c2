// Use case "import": trace files on disk (paths) or contents read in a page without a path (a browser's
// drag-drop or picker), through the engine's reader (every supported format, auto-detected), into a
// project. The one import loop of the CLI (`lots import`) and the API (importTraces): it returns what
// happened per file and reports lines as they are rejected through callbacks; the caller formats them.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { ImportFileReport } from '../../../shared/api/types';
import type { BfclJoin, FormatId } from '../../../shared/importers/types';
import type { LineError } from '../../../shared/trace/validate';
import { assertRegularFile, emptySummary, importCancelled, readTraceFile, type ReadProgress, type ReadSummary } from '../import';
import type { LockWait } from '../store/lock';
import { ExpectedError, serializeError } from '../../../shared/api/errors';
import type { ImportJobHandle } from '../jobs/import-job';
import { traceIdConflictMessage, type ProjectStore, type TraceImport } from '../store';

/** Rejected lines listed per file in the report; the rest are counted (a 1 GB file of bad lines must not flood the UI). */
const MAX_LISTED = 200;

export interface TraceSource {
  /** The name problems are reported under. */
  name: string;
  path: string;
  cleanup?: () => void;
}

/**
 * A file name from a client, made safe to create in a temp folder: only its last path component (either
 * slash), without control characters (NUL included); empty, `.` and `..` become `upload`. The name is
 * still how problems are reported, so it stays recognisable.
 */
export function safeUploadName(name: string): string {
  const last = (name.split(/[\\/]/).pop() ?? '')
    .replace(/[\u0000-\u001f\u007f]/g, '')
    .trim()
    .slice(0, 200);
  return last === '' || last === '.' || last === '..' ? 'upload' : last;
}

/** The sources of an import: paths as they are, contents (only a browser sends those: it has no path)
 * written to a temp folder so both stream through the same reader. Every temp folder is removed by the
 * source's cleanup (or here, when writing one fails), never left behind. */
export function sourcesOf(input: { paths?: string[]; files?: { name: string; text: string }[] }): TraceSource[] {
  const sources: TraceSource[] = (input.paths ?? []).map((p) => ({ name: p, path: resolve(p) }));
  try {
    for (const f of input.files ?? []) {
      const dir = mkdtempSync(join(tmpdir(), 'lots-upload-'));
      const cleanup = () => rmSync(dir, { recursive: true, force: true });
      const name = safeUploadName(f.name);
      const path = join(dir, name);
      try {
        writeFileSync(path, f.text, { flag: 'wx' });
      } catch (e) {
        cleanup();
        throw e;
      }
      sources.push({ name, path, cleanup });
    }
  } catch (e) {
    for (const s of sources) s.cleanup?.();
    throw e;
  }
  return sources;
}

export interface ImportSourceOptions {
  /** Cancels the import: nothing of this source is committed, the lock is released, the promise rejects with CANCELLED. */
  signal?: AbortSignal;
  /** While another writer holds the project lock: who, since when, how long this import will wait. */
  onWait?: (wait: LockWait) => void;
  onProgress?: (progress: ReadProgress) => void;
  /** Every rejected line, as it is read (the report lists only the first few hundred). */
  onRejected?: (error: LineError) => void;
  /** Every trace whose id the project holds with other content (rejected); `message` is the one wording of it. */
  onConflict?: (conflict: { line: number; id: string; message: string }) => void;
  /** How to read the file (default: auto-detected format, the format's own task label). */
  read?: { format?: FormatId | 'auto'; taskField?: string; bfcl?: BfclJoin };
}

/** What one file's import did: the report the API returns, and the reader's summary (format, sizes, pairing). */
export interface ImportedFile {
  report: ImportFileReport;
  summary: ReadSummary;
}

export async function importSource(store: ProjectStore, source: TraceSource, options: ImportSourceOptions = {}): Promise<ImportedFile> {
  const { signal, onWait, onProgress, onRejected, onConflict } = options;
  const rejected: { line: number; message: string }[] = [];
  let moreRejected = 0;
  const conflicts: { id: string; message: string }[] = [];
  let summary: ReadSummary | undefined;
  const addedTasks = new Map<string, number>();
  const reject = (line: number, message: string) => {
    if (rejected.length < MAX_LISTED) rejected.push({ line, message });
    else moreRejected++;
  };
  // Waits (without blocking the event loop) while another process writes to the project; a device, a
  // pipe or a folder is refused before the lock is taken (it would never finish).
  let imp: TraceImport;
  try {
    if (signal?.aborted) throw importCancelled(source.name);
    assertRegularFile(source.path, source.name);
    imp = await store.beginImportAsync(source.path, { ...(signal ? { signal } : {}), ...(onWait ? { onWait } : {}) });
  } catch (e) {
    source.cleanup?.();
    throw signal?.aborted ? importCancelled(source.name) : e;
  }
  try {
    const reading = { ...options.read, displayName: source.name, ...(signal ? { signal } : {}), ...(onProgress ? { onProgress } : {}) };
    for await (const e of readTraceFile(source.path, reading)) {
      if (e.kind === 'error') {
        reject(e.error.line, e.error.message);
        onRejected?.(e.error);
      } else if (e.kind === 'trace') {
        const added = imp.add(e.trace);
        // Tasks are counted over the traces this import adds: a duplicate (in the file or the project) is not "without a task".
        if (added === 'added') addedTasks.set(e.trace.task ?? '', (addedTasks.get(e.trace.task ?? '') ?? 0) + 1);
        if (added === 'conflict') {
          const message = traceIdConflictMessage(e.trace.id);
          conflicts.push({ id: e.trace.id, message: `${source.name}:${e.line}: ${message}` });
          onConflict?.({ line: e.line, id: e.trace.id, message });
        }
      } else if (e.kind === 'summary') summary = e.summary;
    }
    // (Cancelled after the last record was read: still dropped, as the user asked.)
    if (signal?.aborted) throw importCancelled(source.name);
  } catch (e) {
    imp.abort();
    source.cleanup?.();
    throw signal?.aborted ? importCancelled(source.name) : e;
  }
  let counts: ReturnType<typeof imp.commit>;
  try {
    counts = imp.commit();
  } finally {
    source.cleanup?.();
  }
  // The reader always ends with a summary; the fallback only keeps the types honest.
  const s: ReadSummary = summary ?? emptySummary(source.name, 0);
  if (s.fatal) reject(0, s.fatal);
  s.tasks = Object.fromEntries([...addedTasks.entries()].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0])));
  return {
    report: {
      file: source.name,
      format: s.format ?? 'not recognised',
      added: counts.added,
      duplicates: counts.duplicates,
      conflicts,
      rejected,
      moreRejected,
      ...(s.tasks[''] ? { unlabelled: s.tasks[''] } : {}),
      ...(s.taskFieldGuess ? { taskFieldGuess: s.taskFieldGuess } : {}),
      ...(s.foldedRecords ? { folded: s.foldedRecords } : {}),
    },
    summary: s,
  };
}

export interface ImportTracesOptions extends Omit<ImportSourceOptions, 'onRejected' | 'onConflict'> {
  /** Starting source `index` (0-based). */
  onFile?: (index: number, source: TraceSource) => void;
  /** Source `index` was imported (committed). */
  onImported?: (index: number, file: ImportedFile) => void;
  onRejected?: (source: TraceSource, error: LineError) => void;
  onConflict?: (source: TraceSource, conflict: { line: number; id: string; message: string }) => void;
}

export interface ImportTracesResult {
  /** The files imported, in order (each committed on its own). */
  files: ImportedFile[];
  /** Set when a file could not be imported (cancelled: CANCELLED, or failed): that file is not imported,
   * the files before it are kept, the ones after it are not started. */
  stopped?: { file: string; error: unknown; notStarted: number };
}

/** Import the sources one after the other; every source's temp folder is removed, reached or not. */
export async function importTraces(store: ProjectStore, sources: readonly TraceSource[], options: ImportTracesOptions = {}): Promise<ImportTracesResult> {
  const { onFile, onImported, onRejected, onConflict, ...rest } = options;
  const files: ImportedFile[] = [];
  try {
    for (const [i, source] of sources.entries()) {
      onFile?.(i, source);
      let file: ImportedFile;
      try {
        file = await importSource(store, source, {
          ...rest,
          ...(onRejected ? { onRejected: (e) => onRejected(source, e) } : {}),
          ...(onConflict ? { onConflict: (c) => onConflict(source, c) } : {}),
        });
      } catch (error) {
        return { files, stopped: { file: source.name, error, notStarted: sources.length - i - 1 } };
      }
      files.push(file);
      onImported?.(i, file);
    }
    return { files };
  } finally {
    for (const source of sources) source.cleanup?.();
  }
}

/** Whether an import stopped because it was cancelled (not because it failed). */
export function isCancelled(error: unknown): boolean {
  return error instanceof ExpectedError && error.code === 'CANCELLED';
}

/** What the import job of the Studio is told (jobs/import-job.ts's handle): its signal, the file started, progress, the end. */
export type ImportJobReporter = Pick<ImportJobHandle, 'signal' | 'file' | 'note' | 'progress' | 'finish'>;

/**
 * The Studio's import (the API's importTraces) as a job: the same loop as `lots import`, told to `job`.
 * Cancelled: the job ends "cancelled" naming the traces kept from the files before, and CANCELLED is
 * thrown with that message; failed: the job ends "failed" saying whether anything was kept, and the
 * error is thrown as it came; done: "imported N trace(s) from …". `changed` runs once the project holds
 * new traces (after the end when done, before it when stopped with files kept).
 */
export async function importTracesAsJob(
  store: ProjectStore,
  sources: readonly TraceSource[],
  job: ImportJobReporter,
  options: { taskField?: string; changed: () => void },
): Promise<ImportFileReport[]> {
  const result = await importTraces(store, sources, {
    signal: job.signal,
    ...(options.taskField ? { read: { taskField: options.taskField } } : {}),
    onFile: (i, source) => job.file(i, source.name),
    onWait: (wait) => job.note(wait.message),
    onProgress: (p) => job.progress(p),
  });
  const files: ImportFileReport[] = result.files.map((f) => f.report);
  const added = files.reduce((n, f) => n + f.added, 0);
  if (result.stopped) {
    const e = result.stopped.error;
    if (files.length > 0) options.changed();
    if (isCancelled(e)) {
      const message =
        files.length > 0 ? `${(e as Error).message}; kept ${added} trace(s) imported before from ${files.map((f) => f.file).join(', ')}` : (e as Error).message;
      job.finish('cancelled', message);
      throw files.length > 0 ? new ExpectedError('CANCELLED', message) : e;
    }
    const { code, message } = serializeError(e);
    job.finish('failed', files.length > 0 ? `failed; kept ${added} trace(s) imported before` : 'failed; nothing of it was imported', { code, message });
    throw e;
  }
  job.finish('done', `imported ${added} trace(s) from ${files.map((f) => f.file).join(', ')}`);
  options.changed();
  return files;
}
