// One entry point for every export format: the text to write, a file name and a MIME type.
import type { ToolDef } from '../trace/schema';
import { definitionsFor } from './definitions';
import { toAnthropicTools, toMcpAllowList, toNameList, toOpenAIResponsesTools, toOpenAITools } from './formats';
import { ExpectedError } from '../api/errors';
import type { SpaceExportFormat } from '../api/export-formats';
import { renderSpaceReport, type ReportInput } from './space-report';
import { buildSpaceFile, type ExportableSpace } from './space';

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
  /** mcp-claude: the MCP server's name in the agent's config, for `mcp__<server>__<tool>` names. */
  mcpServer?: string;
}

const json = (value: unknown) => JSON.stringify(value, null, 2) + '\n';

export function exportSpace(format: SpaceExportFormat, space: ExportableSpace, context: ExportContext = {}): ExportedSpace {
  const base = fileStem(space.task);
  const all = new Map(context.definitions ?? []);
  const defs = () => {
    const found = definitionsFor([...space.tools, ...space.deferred], all);
    return { pinned: found.slice(0, space.tools.length), deferred: found.slice(space.tools.length) };
  };
  const states = { pinned: space.tools, deferred: space.deferred };
  switch (format) {
    case 'space':
      return { format, text: json(buildSpaceFile(space)), filename: `${base}.space.json`, mime: 'application/json' };
    case 'openai':
      return { format, text: json(toOpenAITools(defs())), filename: `${base}.openai-tools.json`, mime: 'application/json' };
    case 'openai-responses':
      return { format, text: json(toOpenAIResponsesTools(defs())), filename: `${base}.openai-responses-tools.json`, mime: 'application/json' };
    case 'anthropic':
      return { format, text: json(toAnthropicTools(defs())), filename: `${base}.anthropic-tools.json`, mime: 'application/json' };
    case 'mcp':
      return { format, text: json(toMcpAllowList(space.task, space.version, states)), filename: `${base}.mcp-allow.json`, mime: 'application/json' };
    case 'mcp-claude': {
      const server = context.mcpServer?.trim();
      const unprefixed = [...space.tools, ...space.deferred].filter((t) => !t.startsWith('mcp__'));
      if (!server && unprefixed.length > 0) {
        throw new ExpectedError(
          'INVALID_INPUT',
          `the mcp-claude format writes names as the Claude Agent SDK matches them, mcp__<server>__<tool>, and needs the MCP server's name (its key in the agent's mcpServers config) for ${unprefixed.length === 1 ? `"${unprefixed[0]}"` : `${unprefixed.length} tools`}: give it (--mcp-server NAME), or export --format mcp for the names as recorded`,
        );
      }
      return {
        format,
        text: json(toMcpAllowList(space.task, space.version, states, server || '')),
        filename: `${base}.mcp-allow.claude.json`,
        mime: 'application/json',
      };
    }
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
