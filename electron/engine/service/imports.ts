// Trace import from files on disk (paths) or contents read in the page (drag-drop, a browser picker),
// through the engine's importer (every supported format, auto-detected). Contents are written to a
// temporary file first so both paths stream through the same reader.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join, resolve } from 'node:path';
import type { ImportFileReport } from '../../../shared/api/types';
import { readTraceFile, type ReadSummary } from '../import';
import type { ProjectStore } from '../store';

/** Rejected lines listed per file; the rest are counted (a 1 GB file of bad lines must not flood the UI). */
const MAX_LISTED = 200;

export interface TraceSource {
  /** The name problems are reported under. */
  name: string;
  path: string;
  cleanup?: () => void;
}

export function sourcesOf(input: { paths?: string[]; files?: { name: string; text: string }[] }): TraceSource[] {
  const sources: TraceSource[] = (input.paths ?? []).map((p) => ({ name: p, path: resolve(p) }));
  for (const f of input.files ?? []) {
    const dir = mkdtempSync(join(tmpdir(), 'lots-upload-'));
    const name = basename(f.name);
    const path = join(dir, name);
    writeFileSync(path, f.text);
    sources.push({ name, path, cleanup: () => rmSync(dir, { recursive: true, force: true }) });
  }
  return sources;
}

export async function importSource(store: ProjectStore, source: TraceSource): Promise<ImportFileReport> {
  const rejected: { line: number; message: string }[] = [];
  let moreRejected = 0;
  const conflicts: { id: string; message: string }[] = [];
  let summary: ReadSummary | undefined;
  const reject = (line: number, message: string) => {
    if (rejected.length < MAX_LISTED) rejected.push({ line, message });
    else moreRejected++;
  };
  // Waits (without blocking the host's event loop) while another process writes to the project.
  const imp = await store.beginImportAsync(source.path).catch((e: unknown) => {
    source.cleanup?.();
    throw e;
  });
  try {
    for await (const e of readTraceFile(source.path, { displayName: source.name })) {
      if (e.kind === 'error') reject(e.error.line, e.error.message);
      else if (e.kind === 'trace') {
        if (imp.add(e.trace) === 'conflict') {
          const message = `trace id "${e.trace.id}" is already in the project with different content; give it another id or import into another project`;
          conflicts.push({ id: e.trace.id, message: `${source.name}:${e.line}: ${message}` });
        }
      } else if (e.kind === 'summary') summary = e.summary;
    }
  } catch (e) {
    imp.abort();
    source.cleanup?.();
    throw e;
  }
  const counts = imp.commit();
  source.cleanup?.();
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
