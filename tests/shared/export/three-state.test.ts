// Exports carry the three states (issue 44 item 7): pinned in full, deferred in each API's own form
// (defer_loading + a tool search tool; Chat Completions: the paper's documentation demotion), hidden left
// out; the recorded schema and `strict` kept; MCP names as recorded or as the Claude Agent SDK matches them.
import type Anthropic from '@anthropic-ai/sdk';
import type OpenAI from 'openai';
import { describe, expect, it } from 'vitest';
import { exportSpace } from '../../../shared/export/export';
import { shortDescription, toAnthropicTools, toOpenAIResponsesTools, toOpenAITools } from '../../../shared/export/formats';
import type { ExportableSpace } from '../../../shared/export/space';
import { anyToolDef } from '../../../shared/importers/tools';
import type { ToolDef } from '../../../shared/trace/schema';

// Menu entries as the APIs record them, read by the importers' own tool reader (strict kept).
const calc = anyToolDef({
  type: 'function',
  function: {
    name: 'Calculator',
    description: 'Evaluate an arithmetic expression. Supports + - * / and parentheses.',
    parameters: { type: 'object', properties: { expression: { type: 'string' } }, required: ['expression'], additionalProperties: false },
    strict: true,
  },
})!;
const rate = anyToolDef({
  name: 'ExchangeRate',
  description: 'Rate between two currencies, as of today. Uses the central bank feed.',
  input_schema: { type: 'object', properties: { from: { type: 'string' }, to: { type: 'string' } } },
})!;
const doc = anyToolDef({
  type: 'function',
  name: 'DocRetrieve',
  description: 'Fetch a document',
  parameters: { type: 'object', properties: { id: { type: 'string' } } },
  strict: false,
})!;
const definitions = new Map<string, ToolDef>([calc, rate, doc, { name: 'Hidden', description: 'never offered' }].map((d) => [d.name, d]));

const space: ExportableSpace = {
  task: 'fx',
  version: 2,
  tools: ['Calculator'],
  deferred: ['ExchangeRate', 'DocRetrieve'],
  rule: { kind: 'manual' },
  note: 'defer the rest',
};
const parse = (format: Parameters<typeof exportSpace>[0], extra: { mcpServer?: string } = {}) =>
  JSON.parse(exportSpace(format, space, { definitions, ...extra }).text) as unknown;

describe('three-state exports', () => {
  it("our shapes are the official SDKs' request types (checked by tsc)", () => {
    const defs = { pinned: [calc], deferred: [rate] };
    const anthropic: Anthropic.Messages.ToolUnion[] = toAnthropicTools(defs);
    const responses: OpenAI.Responses.Tool[] = toOpenAIResponsesTools(defs);
    const chat: OpenAI.Chat.Completions.ChatCompletionTool[] = toOpenAITools(defs);
    expect([anthropic.length, responses.length, chat.length]).toEqual([3, 3, 2]);
  });

  it('reads strict from the recorded menus', () => {
    expect(calc.strict).toBe(true);
    expect(doc.strict).toBe(false);
    expect(rate.strict).toBeUndefined();
  });

  it('anthropic: defer_loading on deferred tools, the tool search tool once, schemas and strict kept, hidden left out', () => {
    const tools = parse('anthropic') as Anthropic.Messages.ToolUnion[];
    expect(tools).toEqual([
      { name: 'Calculator', description: calc.description, input_schema: calc.parameters, strict: true },
      { name: 'ExchangeRate', description: rate.description, input_schema: rate.parameters, defer_loading: true },
      { name: 'DocRetrieve', description: 'Fetch a document', input_schema: doc.parameters, strict: false, defer_loading: true },
      { type: 'tool_search_tool_bm25_20251119', name: 'tool_search_tool_bm25' },
    ]);
    // Without deferred tools there is nothing to search: no search tool.
    const pinnedOnly = JSON.parse(exportSpace('anthropic', { ...space, deferred: [] }, { definitions }).text) as unknown[];
    expect(pinnedOnly).toHaveLength(1);
  });

  it('openai-responses: flat function tools, defer_loading on deferred ones, tool_search once, strict as recorded (else false)', () => {
    const tools = parse('openai-responses') as OpenAI.Responses.Tool[];
    expect(tools).toEqual([
      { type: 'function', name: 'Calculator', description: calc.description, parameters: calc.parameters, strict: true },
      { type: 'function', name: 'ExchangeRate', description: rate.description, parameters: rate.parameters, strict: false, defer_loading: true },
      { type: 'function', name: 'DocRetrieve', description: 'Fetch a document', parameters: doc.parameters, strict: false, defer_loading: true },
      { type: 'tool_search' },
    ]);
  });

  it('openai (Chat Completions): pinned in full, deferred demoted to name and short description with no schema', () => {
    const tools = parse('openai') as OpenAI.Chat.Completions.ChatCompletionTool[];
    expect(tools).toEqual([
      { type: 'function', function: { name: 'Calculator', description: calc.description, parameters: calc.parameters, strict: true } },
      { type: 'function', function: { name: 'ExchangeRate', description: 'Rate between two currencies, as of today.' } },
      { type: 'function', function: { name: 'DocRetrieve', description: 'Fetch a document' } },
    ]);
    expect(shortDescription('x'.repeat(300))).toHaveLength(120);
  });

  it('mcp: every callable tool allowed, the deferred listed apart, names as recorded or as mcp__<server>__<tool>', () => {
    expect(parse('mcp')).toEqual({
      task: 'fx',
      version: 2,
      names: 'as-recorded',
      allowedTools: ['Calculator', 'ExchangeRate', 'DocRetrieve'],
      deferredTools: ['ExchangeRate', 'DocRetrieve'],
    });
    expect(parse('mcp-claude', { mcpServer: 'finance' })).toEqual({
      task: 'fx',
      version: 2,
      names: 'claude-agent-sdk',
      server: 'finance',
      allowedTools: ['mcp__finance__Calculator', 'mcp__finance__ExchangeRate', 'mcp__finance__DocRetrieve'],
      deferredTools: ['mcp__finance__ExchangeRate', 'mcp__finance__DocRetrieve'],
    });
    expect(() => parse('mcp-claude')).toThrow(/needs the MCP server's name .*--mcp-server NAME/);
    // Names recorded in that form already need no server.
    const prefixed = { ...space, tools: ['mcp__fin__Calculator'], deferred: [] };
    expect(JSON.parse(exportSpace('mcp-claude', prefixed).text)).toMatchObject({ allowedTools: ['mcp__fin__Calculator'] });
  });

  it('space file: the deferred tools and their scores beside the pinned ones', () => {
    const file = JSON.parse(exportSpace('space', { ...space, scores: [{ tool: 'ExchangeRate', mean: 0.1, n: 3 }] }).text);
    expect(file).toMatchObject({ tools: ['Calculator'], deferred: ['ExchangeRate', 'DocRetrieve'], scores: { ExchangeRate: { mean: 0.1, n: 3 } } });
    expect(exportSpace('names', space).text).toBe('Calculator\n');
  });
});
