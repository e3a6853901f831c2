// A space in the shapes agents consume: OpenAI and Anthropic `tools` arrays, an MCP allow-list, plain names.
import type { ToolDef } from '../trace/schema';

/** Both APIs expect an object schema; a tool recorded without one takes no arguments. */
const NO_ARGUMENTS = { type: 'object', properties: {} } as const;

export interface OpenAITool {
  type: 'function';
  function: { name: string; description?: string; parameters: Record<string, unknown> };
}

export interface AnthropicTool {
  name: string;
  description?: string;
  input_schema: Record<string, unknown>;
}

export function toOpenAITools(defs: readonly ToolDef[]): OpenAITool[] {
  return defs.map((d) => ({
    type: 'function',
    function: {
      name: d.name,
      ...(d.description !== undefined ? { description: d.description } : {}),
      parameters: d.parameters ?? { ...NO_ARGUMENTS },
    },
  }));
}

export function toAnthropicTools(defs: readonly ToolDef[]): AnthropicTool[] {
  return defs.map((d) => ({
    name: d.name,
    ...(d.description !== undefined ? { description: d.description } : {}),
    input_schema: d.parameters ?? { ...NO_ARGUMENTS },
  }));
}

/**
 * MCP allow-list: `{"task": …, "version": …, "allowedTools": [names]}`. `allowedTools` is the option name the
 * Claude Agent SDK uses to restrict which (MCP) tools an agent may call; other clients (e.g. an
 * OpenAI Agents SDK `tool_filter.allowed_tool_names`) take the same list. Names are written exactly as the
 * traces recorded them (an MCP client that prefixes names, `mcp__server__tool`, records them prefixed).
 */
export interface McpAllowList {
  task: string;
  version: number | null;
  allowedTools: string[];
}

export function toMcpAllowList(task: string, version: number | null, tools: readonly string[]): McpAllowList {
  return { task, version, allowedTools: [...tools] };
}

/** One tool name per line, with a final newline. */
export function toNameList(tools: readonly string[]): string {
  return tools.map((t) => `${t}\n`).join('');
}
