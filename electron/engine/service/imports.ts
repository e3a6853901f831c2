// Trace import from files on disk (paths) or contents read in the page (drag-drop, a browser picker),
// through the engine's importer (every supported format, auto-detected). Contents are written to a
// temporary file first so both paths stream through the same reader.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { ImportFileReport } from '../../../shared/api/types';
import { assertRegularFile, readTraceFile, type ReadProgress, type ReadSummary } from '../import';
import type { LockWait } from '../store/lock';

import type { ProjectStore, TraceImport } from '../store';
import { ExpectedError } from '../../../shared/api/errors';

/** Rejected lines listed per file; the rest are counted (a 1 GB file of bad lines must not flood the UI). */
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
  const last = (name.split(/[\\/]/).pop() ?? '').replace(/[\u0000-\u001f\u007f]/g, '').trim().slice(0, 200);
  return last === '' || last === '.' || last === '..' ? 'upload' : last;
}

/** The sources of an import; every temp folder made for contents is removed by the source's cleanup
 * (or here, when writing one fails), never left behind. */
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
}

/** The error a cancelled import rejects with. */
export function importCancelled(what: string): ExpectedError {
  return new ExpectedError('CANCELLED', `import cancelled: nothing of ${what} was imported`);
}

export async function importSource(store: ProjectStore, source: TraceSource, options: ImportSourceOptions = {}): Promise<ImportFileReport> {
  const { signal, onWait, onProgress } = options;
  const rejected: { line: number; message: string }[] = [];
  let moreRejected = 0;
  const conflicts: { id: string; message: string }[] = [];
  let summary: ReadSummary | undefined;
  const reject = (line: number, message: string) => {
    if (rejected.length < MAX_LISTED) rejected.push({ line, message });
    else moreRejected++;
  };
  // Waits (without blocking the host's event loop) while another process writes to the project; a
  // device, a pipe or a folder is refused before the lock is taken (it would never finish).
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
    for await (const e of readTraceFile(source.path, { displayName: source.name, ...(signal ? { signal } : {}), ...(onProgress ? { onProgress } : {}) })) {
      if (e.kind === 'error') reject(e.error.line, e.error.message);
      else if (e.kind === 'trace') {
        if (imp.add(e.trace) === 'conflict') {
          const message = `trace id "${e.trace.id}" is already in the project with different content; give it another id or import into another project`;
          conflicts.push({ id: e.trace.id, message: `${source.name}:${e.line}: ${message}` });
        }
      } else if (e.kind === 'summary') summary = e.summary;
    }
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
  if (summary?.fatal) reject(0, summary.fatal);
  return {
    file: source.name,
    format: summary?.format ?? 'not recognised',
    added: counts.added,
    duplicates: counts.duplicates,
    conflicts,
    rejected,
    moreRejected,
  };
}
