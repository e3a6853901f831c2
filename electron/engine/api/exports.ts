// The API's exports: the use case of engine/views/export-space.ts in the API's shapes, and writing a
// rendered export where the user chose.
import { writeFileSync } from 'node:fs';
import type { ExportFormat, ExportText } from '../../../shared/api/types';
import type { ProjectStore } from '../store';
import { exportTaskSpace } from '../views/export-space';
import type { ProjectIndex } from '../read-model/project-index';

export function renderExport(store: ProjectStore, index: ProjectIndex, task: string, format: ExportFormat, version?: number): ExportText {
  const out = exportTaskSpace(store, index, { task, format, ...(version !== undefined ? { version } : {}) });
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
