import { describe, expect, it } from 'vitest';
import type { Trace } from '../../../shared/trace/schema';
import { collectToolDefinitions, definitionsFor } from '../../../shared/export/definitions';
import { exportSpace, fileStem } from '../../../shared/export/export';
import type { ExportableSpace } from '../../../shared/export/space';

const trace = (id: string, tools: Trace['tools']): Trace => ({ v: 1, id, tools, turns: [{ request: 'q', steps: [], answer: 'a' }] });

const traces = [
  trace('t1', [
    { name: 'Calculator', description: 'old text', parameters: { type: 'object', properties: { expr: { type: 'string' } } } },
    { name: 'DocRetrieve', description: 'Fetch a document' },
  ]),
  trace('t2', [
    {
      name: 'Calculator',
      description: 'Evaluate an arithmetic expression',
      parameters: { type: 'object', properties: { expression: { type: 'string' } }, required: ['expression'] },
    },
  ]),
];

const space: ExportableSpace = {
  task: 'fx settle/2',
  version: 3,
  tools: ['Calculator', 'DocRetrieve'],
  deferred: [],
  rule: { kind: 'topk', k: 2 },
  note: 'kept the chain',
  scores: [
    { tool: 'Calculator', mean: 0.5, n: 4 },
    { tool: 'DocRetrieve', mean: 0.25, n: 2 },
    { tool: 'Barcode', mean: -0.1, n: 3 },
  ],
  run: 'import:scores',
};

describe('tool definitions', () => {
  it('takes the latest definition seen for each name', () => {
    const defs = collectToolDefinitions(traces);
    expect(defs.get('Calculator')!.description).toBe('Evaluate an arithmetic expression');
    expect([...defs.keys()].sort()).toEqual(['Calculator', 'DocRetrieve']);
  });

  it('names every kept tool without a definition', () => {
    const defs = collectToolDefinitions(traces);
    expect(() => definitionsFor(['Calculator', 'Ghost', 'Phantom'], defs)).toThrow(expect.objectContaining({ code: 'MISSING_TOOL_DEFINITION' }));
    expect(() => definitionsFor(['Calculator', 'Ghost', 'Phantom'], defs)).toThrow(/"Ghost", "Phantom"/);
    expect(() => exportSpace('openai', { ...space, tools: ['Ghost'] }, { definitions: defs })).toThrow(/"Ghost"/);
  });
});

describe('exportSpace', () => {
  const definitions = collectToolDefinitions(traces);

  it("space: our JSON with task, version, tools, rule, note and the kept tools' scores", () => {
    const out = exportSpace('space', space);
    expect(out.filename).toBe('fx_settle_2.space.json');
    expect(JSON.parse(out.text)).toEqual({
      format: 'lots-space',
      v: 1,
      task: 'fx settle/2',
      version: 3,
      status: 'approved',
      tools: ['Calculator', 'DocRetrieve'],
      deferred: [],
      rule: { kind: 'topk', k: 2 },
      note: 'kept the chain',
      scores: { Calculator: { mean: 0.5, n: 4 }, DocRetrieve: { mean: 0.25, n: 2 } },
      run: 'import:scores',
    });
    expect(JSON.parse(exportSpace('space', { ...space, version: null }).text).status).toBe('proposed');
  });

  it('openai: [{type:"function", function:{name, description, parameters}}]', () => {
    const tools = JSON.parse(exportSpace('openai', space, { definitions }).text);
    expect(tools).toEqual([
      {
        type: 'function',
        function: {
          name: 'Calculator',
          description: 'Evaluate an arithmetic expression',
          parameters: { type: 'object', properties: { expression: { type: 'string' } }, required: ['expression'] },
        },
      },
      { type: 'function', function: { name: 'DocRetrieve', description: 'Fetch a document', parameters: { type: 'object', properties: {} } } },
    ]);
  });

  it('anthropic: [{name, description, input_schema}]', () => {
    const tools = JSON.parse(exportSpace('anthropic', space, { definitions }).text);
    expect(tools[0]).toEqual({
      name: 'Calculator',
      description: 'Evaluate an arithmetic expression',
      input_schema: { type: 'object', properties: { expression: { type: 'string' } }, required: ['expression'] },
    });
    expect(tools[1]).toEqual({ name: 'DocRetrieve', description: 'Fetch a document', input_schema: { type: 'object', properties: {} } });
  });

  it('mcp: an allowedTools object; names: one per line', () => {
    expect(JSON.parse(exportSpace('mcp', space).text)).toEqual({
      task: 'fx settle/2',
      version: 3,
      names: 'as-recorded',
      allowedTools: ['Calculator', 'DocRetrieve'],
      deferredTools: [],
    });
    expect(exportSpace('names', space).text).toBe('Calculator\nDocRetrieve\n');
    expect(exportSpace('names', { ...space, tools: [] }).text).toBe('');
  });

  it('file stems are safe', () => {
    expect(fileStem('../../etc')).toBe('etc');
    expect(fileStem('')).toBe('task');
  });
});

describe('HTML report', () => {
  const nasty = '<script>alert("x")</script>&\'';
  const html = exportSpace(
    'report',
    { ...space, task: nasty, note: nasty, tools: [nasty, 'Calculator'] },
    {
      report: {
        ranking: [
          { tool: nasty, mean: 0.5, n: 4, lo: 0.2, hi: 0.8, topKShare: 0.97 },
          { tool: 'Calculator', mean: -0.25, n: 2, lo: -0.5, hi: 0 },
          { tool: 'Barcode', mean: -1, n: 1 },
        ],
        budget: [
          { k: 1, accuracy: 0.5, surrogate: -2 },
          { k: 2, accuracy: 0.9, surrogate: -1 },
          { k: 3, accuracy: 0.8, surrogate: -1.5 },
        ],
        chosenK: 2,
        requests: 12,
        generatedAt: '2025-01-01T00:00:00Z',
      },
    },
  ).text;

  it('escapes every piece of user data', () => {
    expect(html).not.toContain('<script>');
    expect(html).toContain('&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;&amp;&#39;');
  });

  it('is one self-contained page with the ranking, both charts, kept tools and note', () => {
    expect(html.startsWith('<!doctype html>')).toBe(true);
    expect(html).not.toMatch(/<(script|link|img)\b/);
    expect(html).not.toMatch(/https?:\/\//);
    expect(html.match(/<svg /g)).toHaveLength(2);
    expect(html).toContain('0.200 – 0.800');
    expect(html).toContain('97%');
    expect(html).toContain('K = 2');
    expect(html).toContain('approved version 3');
    expect(html).toContain('12 requests');
    expect(html).toContain('@media print');
    // Two kept rows highlighted, one not.
    expect(html.match(/<tr class="kept">/g)).toHaveLength(2);
  });

  it('renders without a budget curve or ranking', () => {
    const bare = exportSpace('report', { ...space, version: null, tools: [] }).text;
    expect(bare).toContain('proposed (not approved yet)');
    expect(bare).toContain('No tool has a score yet.');
    expect(bare.match(/<svg /g)).toBeNull();
  });
});
