// The API's exports: the use case of engine/views/export-space.ts in the API's shapes, and writing a
// rendered export where the user chose.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ExportAll, ExportFormat, ExportText } from '../../../shared/api/types';
import type { ProjectStore } from '../store';
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

export function writeText(path: string, text: string): { path: string } {
  writeFileSync(path, text);
  return { path };
}

/** Every approved space in one format; with `dir`, each written there under its file name. */
export function exportAll(store: ProjectStore, index: ProjectIndex, format: ExportFormat, dir?: string, mcpServer?: string): ExportAll {
  const all = exportAllApproved(store, index, { format, ...(mcpServer !== undefined ? { mcpServer } : {}) });
  if (dir !== undefined) mkdirSync(dir, { recursive: true });
  const files = all.exported.map((e) => {
    const path = dir !== undefined ? join(dir, e.filename) : null;
    if (path !== null) writeFileSync(path, e.text);
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
  return { format, files, skipped: all.skipped };
}
