// One entry point for every export format: the text to write, a file name and a MIME type.
import type { ToolDef } from '../trace/schema';
import { definitionsFor } from './definitions';
import { toAnthropicTools, toMcpAllowList, toNameList, toOpenAITools } from './formats';
import { renderSpaceReport, type ReportInput } from './space-report';
import { buildSpaceFile, type ExportableSpace } from './space';

export const SPACE_EXPORT_FORMATS = ['space', 'openai', 'anthropic', 'mcp', 'names', 'report'] as const;
export type SpaceExportFormat = (typeof SPACE_EXPORT_FORMATS)[number];

export interface ExportedSpace {
  format: SpaceExportFormat;
  text: string;
  filename: string;
  mime: string;
}

export interface ExportContext {
  /** Tool definitions from the traces' menus (collectToolDefinitions); needed by openai/anthropic. */
  definitions?: ReadonlyMap<string, ToolDef>;
  /** Ranking, budget curve, … for the HTML report (its `space` is taken from the first argument). */
  report?: Omit<ReportInput, 'space'>;
}

const json = (value: unknown) => JSON.stringify(value, null, 2) + '\n';

export function exportSpace(format: SpaceExportFormat, space: ExportableSpace, context: ExportContext = {}): ExportedSpace {
  const base = fileStem(space.task);
  const defs = () => definitionsFor(space.tools, context.definitions ?? new Map());
  switch (format) {
    case 'space':
      return { format, text: json(buildSpaceFile(space)), filename: `${base}.space.json`, mime: 'application/json' };
    case 'openai':
      return { format, text: json(toOpenAITools(defs())), filename: `${base}.openai-tools.json`, mime: 'application/json' };
    case 'anthropic':
      return { format, text: json(toAnthropicTools(defs())), filename: `${base}.anthropic-tools.json`, mime: 'application/json' };
    case 'mcp':
      return { format, text: json(toMcpAllowList(space.task, space.version, space.tools)), filename: `${base}.mcp-allow.json`, mime: 'application/json' };
    case 'names':
      return { format, text: toNameList(space.tools), filename: `${base}.tools.txt`, mime: 'text/plain' };
    case 'report':
      return { format, text: renderSpaceReport({ ranking: [], ...context.report, space }), filename: `${base}.report.html`, mime: 'text/html' };
  }
}

/** A file-name-safe stem for a task label (tasks are free text). */
export function fileStem(task: string): string {
  const safe = task
    .replace(/[^A-Za-z0-9._-]+/g, '_')
    .replace(/^[._]+/, '')
    .slice(0, 60);
  return safe || 'task';
}
