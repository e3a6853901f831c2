// Use case "export": a task's space rendered in an export format or as the one-page report (the rendering
// is views/export-space.ts, a read), and written where the user chose — one file, or every approved space
// into a folder — atomically, with an activity entry. `lots export` (--out and --all) and the API (the
// Export view) both call these. It lives in api/ rather than usecases/ because it renders through views/, which
// usecases/ may not import.
import { mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { ExportAll, ExportFormat, ExportText } from '../../../shared/api/types';
import type { SpaceExportFormat } from '../../../shared/api/export-formats';
import type { ProjectStore } from '../store';
import { writeFileAtomic } from '../store/atomic';
import { exportAllApproved, exportTaskSpace } from '../views/export-space';
import type { ProjectIndex } from '../read-model/project-index';

export function renderExport(store: ProjectStore, index: ProjectIndex, task: string, format: ExportFormat, version?: number, mcpServer?: string): ExportText {
  const out = exportTaskSpace(store, index, { task, format, ...(version !== undefined ? { version } : {}), ...(mcpServer !== undefined ? { mcpServer } : {}) });
  return { format, text: out.text, filename: out.filename, mime: out.mime, version: out.space.version };
}

export function renderReport(store: ProjectStore, index: ProjectIndex, task: string, run?: string): { html: string; filename: string } {
  const out = exportTaskSpace(store, index, { task, format: 'report', ...(run !== undefined ? { run } : {}) });
  return { html: out.text, filename: out.filename };
}

/**
 * Write a rendered export (or report) of `task` to `path` atomically and log it in the project's activity:
 * the one road a single export reaches the disk, from the Export view (saveExport, saveReport) and from
 * `lots export --task … --out …` (which renders with its own --run and --proposed).
 */
export function writeExport(store: ProjectStore, request: { task: string; format: SpaceExportFormat; path: string; text: string }): { path: string } {
  writeFileAtomic(request.path, request.text);
  const message =
    request.format === 'report' ? `saved the report of ${request.task} to ${request.path}` : `exported ${request.task} as ${request.format} to ${request.path}`;
  store.logActivityAfterCommit({ kind: 'export', message }, `${request.path} was written`);
  return { path: request.path };
}

/** Render one task's space and write it to `path`. */
export function saveExport(
  store: ProjectStore,
  index: ProjectIndex,
  request: { task: string; format: ExportFormat; version?: number; mcpServer?: string; path: string },
): { path: string } {
  const out = renderExport(store, index, request.task, request.format, request.version, request.mcpServer);
  return writeExport(store, { task: request.task, format: request.format, path: request.path, text: out.text });
}

/** Render the task's report and write it to `path`. */
export function saveReport(store: ProjectStore, index: ProjectIndex, request: { task: string; run?: string; path: string }): { path: string } {
  const text = renderReport(store, index, request.task, request.run).html;
  return writeExport(store, { task: request.task, format: 'report', path: request.path, text });
}

/** Every approved space in one format; with `dir`, each written there under its file name (and logged). */
export function exportAll(store: ProjectStore, index: ProjectIndex, format: ExportFormat, dir?: string, mcpServer?: string): ExportAll {
  const all = exportAllApproved(store, index, { format, ...(mcpServer !== undefined ? { mcpServer } : {}) });
  if (dir !== undefined) mkdirSync(resolve(dir), { recursive: true });
  const files = all.exported.map((e) => {
    const path = dir !== undefined ? join(resolve(dir), e.filename) : null;
    if (path !== null) writeFileAtomic(path, e.text);
    return {
      task: e.task,
      version: e.space.version!,
      filename: e.filename,
      text: e.text,
      mime: e.mime,
      pinned: e.space.tools.length,
      deferred: e.space.deferred.length,
      path,
    };
  });
  if (dir !== undefined) {
    store.logActivityAfterCommit(
      { kind: 'export', message: `exported ${files.length} approved spaces as ${format} to ${dir}` },
      `${files.length} files were written to ${dir}`,
    );
  }
  return { format, files, skipped: all.skipped };
}
