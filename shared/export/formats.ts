// A space in the shapes agents consume, with its three states (shared/project/spaces.ts): pinned tools
// documented in full, deferred ones in the target API's own deferral or the paper's documentation
// demotion, hidden ones left out. Each tool keeps its recorded schema and `strict` flag.
import type { ToolDef } from '../trace/schema';
import { demotedTool } from '../trace/demote';

/** Both APIs expect an object schema; a tool recorded without one takes no arguments. */
const NO_ARGUMENTS = { type: 'object', properties: {} } as const;

/** A space's tool definitions by state, in space order. */
export interface StatedDefinitions {
  pinned: readonly ToolDef[];
  deferred: readonly ToolDef[];
}

export interface OpenAITool {
  type: 'function';
  function: { name: string; description?: string; parameters?: Record<string, unknown>; strict?: boolean };
}

/**
 * Chat Completions `tools`: pinned tools in full; deferred ones demoted (the paper's documentation demotion,
 * Appendix B.1: every tool stays callable, only the selected ones keep their full documentation) — name and
 * a short description, no parameter schema. Chat Completions has no deferral of its own.
 */
export function toOpenAITools({ pinned, deferred }: StatedDefinitions): OpenAITool[] {
  return [
    ...pinned.map((d): OpenAITool => ({
      type: 'function',
      function: {
        name: d.name,
        ...(d.description !== undefined ? { description: d.description } : {}),
        parameters: d.parameters ?? { ...NO_ARGUMENTS },
        ...(d.strict !== undefined ? { strict: d.strict } : {}),
      },
    })),
    ...deferred.map((d): OpenAITool => ({ type: 'function', function: demotedTool(d) })),
  ];
}

/** A Responses API function tool (flat), deferred ones with `defer_loading: true`. */
export interface ResponsesFunctionTool {
  type: 'function';
  name: string;
  description?: string;
  parameters: Record<string, unknown>;
  /** The Responses API enforces strict schemas unless told otherwise: a tool recorded without the flag gets
   * false, the Chat Completions default, so the same schema is accepted as it was there. */
  strict: boolean;
  defer_loading?: true;
}
export type ResponsesTool = ResponsesFunctionTool | { type: 'tool_search' };

/** Responses API `tools`: every tool with its schema, deferred ones `defer_loading: true`, plus `tool_search` when any is deferred. */
export function toOpenAIResponsesTools(defs: StatedDefinitions): ResponsesTool[] {
  const one = (d: ToolDef, deferred: boolean): ResponsesFunctionTool => ({
    type: 'function',
    name: d.name,
    ...(d.description !== undefined ? { description: d.description } : {}),
    parameters: d.parameters ?? { ...NO_ARGUMENTS },
    strict: d.strict ?? false,
    ...(deferred ? { defer_loading: true as const } : {}),
  });
  return [
    ...defs.pinned.map((d) => one(d, false)),
    ...defs.deferred.map((d) => one(d, true)),
    ...(defs.deferred.length > 0 ? [{ type: 'tool_search' as const }] : []),
  ];
}

/** The Messages API wants an object schema; the recorded one is written as it is (our importers keep tools' schemas verbatim). */
type AnthropicInputSchema = { type: 'object' } & Record<string, unknown>;

export interface AnthropicTool {
  name: string;
  description?: string;
  input_schema: AnthropicInputSchema;
  strict?: boolean;
  defer_loading?: true;
}
/** Anthropic's tool search tool (BM25 over names and descriptions); needed when any tool is deferred. */
export const ANTHROPIC_TOOL_SEARCH = { type: 'tool_search_tool_bm25_20251119', name: 'tool_search_tool_bm25' } as const;
export type AnthropicToolEntry = AnthropicTool | typeof ANTHROPIC_TOOL_SEARCH;

/** Messages API `tools`: every tool with its schema, deferred ones `defer_loading: true`, plus the tool search tool when any is deferred. */
export function toAnthropicTools({ pinned, deferred }: StatedDefinitions): AnthropicToolEntry[] {
  const one = (d: ToolDef, defer: boolean): AnthropicTool => ({
    name: d.name,
    ...(d.description !== undefined ? { description: d.description } : {}),
    input_schema: (d.parameters ?? { ...NO_ARGUMENTS }) as AnthropicInputSchema,
    ...(d.strict !== undefined ? { strict: d.strict } : {}),
    ...(defer ? { defer_loading: true as const } : {}),
  });
  return [...pinned.map((d) => one(d, false)), ...deferred.map((d) => one(d, true)), ...(deferred.length > 0 ? [ANTHROPIC_TOOL_SEARCH] : [])];
}

/**
 * MCP allow-list. `allowedTools` is every tool the agent may call — pinned and deferred (a deferred tool
 * stays callable) — the option name the Claude Agent SDK uses to restrict tools; other clients take the same
 * list (an OpenAI Agents SDK `tool_filter.allowed_tool_names`). `deferredTools` lists the deferred ones apart,
 * for a client that loads them on demand (tool search); a hidden tool is in neither list. `names` says
 * which name form the lists use: as the traces recorded them, or the Claude Agent SDK's
 * `mcp__<server>__<tool>` (a recorded name that already has that form is kept as is).
 */
export interface McpAllowList {
  task: string;
  version: number | null;
  names: 'as-recorded' | 'claude-agent-sdk';
  /** With names "claude-agent-sdk": the MCP server's name in the agent's `mcpServers` config. */
  server?: string;
  allowedTools: string[];
  deferredTools: string[];
}

export function toMcpAllowList(
  task: string,
  version: number | null,
  states: { pinned: readonly string[]; deferred: readonly string[] },
  server?: string,
): McpAllowList {
  const name = (t: string) => (server === undefined || t.startsWith('mcp__') ? t : claudeMcpName(server, t));
  return {
    task,
    version,
    names: server === undefined ? 'as-recorded' : 'claude-agent-sdk',
    ...(server !== undefined ? { server } : {}),
    allowedTools: [...states.pinned, ...states.deferred].map(name),
    deferredTools: states.deferred.map(name),
  };
}

/** The name the Claude Agent SDK (and Claude Code) gives a tool of an MCP server: `mcp__<server>__<tool>`. */
export function claudeMcpName(server: string, tool: string): string {
  return `mcp__${server}__${tool}`;
}

/** One tool name per line, with a final newline: the pinned tools. */
export function toNameList(tools: readonly string[]): string {
  return tools.map((t) => `${t}\n`).join('');
}

// The demoted form lives beside ToolDef (shared/trace/demote.ts): the benchmark's menus use it too.
export { demotedTool, shortDescription } from '../trace/demote';
