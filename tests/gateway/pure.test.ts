// The gateway's pure parts (shared/gateway/): the menu cut, a stream put back together from chunks split
// anywhere, an agent's chain of requests matched to the answer it continues, where a body stops being
// JSON, and the router's nearest task.
import { describe, expect, it } from 'vitest';
import { cutToSpace, metadataTask, parseChatRequest } from '../../shared/gateway/chat-request';
import { OpenExchanges } from '../../shared/gateway/conversations';
import { jsonErrorOffset, lineColumn } from '../../shared/gateway/json-where';
import { SseAssembler } from '../../shared/gateway/sse';
import { fitTaskRouter } from '../../shared/gateway/task-router';
import { chatRequest } from './fixture';

describe('cutToSpace', () => {
  it("keeps the space's tools in the request's order, never adds one, and drops a tool_choice naming a hidden tool", () => {
    const body = chatRequest('x', { tool_choice: { type: 'function', function: { name: 'WebSearch' } } });
    const cut = cutToSpace(body, ['ExchangeRate', 'Calculator', 'NotInTheRequest']);
    expect(cut.shown).toEqual(['Calculator', 'ExchangeRate']);
    expect(cut.hidden).toEqual(['DocRetrieve', 'WebSearch']);
    expect(cut.droppedToolChoice).toBe(true);
    expect(cut.body.tool_choice).toBeUndefined();
    expect(cut.hiddenChars).toBe(JSON.stringify((body.tools as unknown[])[1]).length + JSON.stringify((body.tools as unknown[])[3]).length);
    expect(body.tools).toHaveLength(4); // the client's request is not modified
  });

  it('sends no menu at all when the space hides every tool, and leaves the menu alone without a space', () => {
    const none = cutToSpace(chatRequest('x', { tool_choice: 'auto', parallel_tool_calls: true }), ['Other']);
    expect(none.body).not.toHaveProperty('tools');
    expect(none.body).not.toHaveProperty('tool_choice');
    expect(none.body).not.toHaveProperty('parallel_tool_calls');
    expect(cutToSpace(chatRequest('x'), undefined)).toMatchObject({ shown: ['Calculator', 'DocRetrieve', 'ExchangeRate', 'WebSearch'], hidden: [] });
  });

  it('reads metadata.lots_task and refuses bodies without messages', () => {
    expect(metadataTask({ metadata: { lots_task: ' fx ' } })).toBe('fx');
    expect(metadataTask({ metadata: { lots_task: 3 } })).toBeUndefined();
    expect(parseChatRequest([])).toEqual({ ok: false, message: 'the request body must be a JSON object (a Chat Completions request), got an array' });
    expect(parseChatRequest({ messages: [], tools: {} })).toMatchObject({ ok: false, message: '"tools" must be an array when given, got object' });
  });
});

describe('SseAssembler', () => {
  it('puts text, tool calls by index and usage back together from chunks split anywhere', () => {
    const events = [
      { id: 'c1', model: 'm', choices: [{ delta: { role: 'assistant', content: 'Hel' } }] },
      { choices: [{ delta: { content: 'lo' } }] },
      { choices: [{ delta: { tool_calls: [{ index: 0, id: 'a', function: { name: 'Calc', arguments: '{"x"' } }] } }] },
      { choices: [{ delta: { tool_calls: [{ index: 1, id: 'b', function: { name: 'Web', arguments: '{}' } }] } }] },
      { choices: [{ delta: { tool_calls: [{ index: 0, function: { arguments: ':1}' } }] }, finish_reason: 'tool_calls' }] },
      { choices: [], usage: { prompt_tokens: 7 } },
    ];
    const text = events.map((e) => `data: ${JSON.stringify(e)}\r\n\r\n`).join('') + 'data: [DONE]\n\n';
    const sse = new SseAssembler();
    for (let i = 0; i < text.length; i += 7) sse.push(text.slice(i, i + 7));
    expect(sse.result()).toEqual({
      message: {
        role: 'assistant',
        content: 'Hello',
        tool_calls: [
          { id: 'a', type: 'function', function: { name: 'Calc', arguments: '{"x":1}' } },
          { id: 'b', type: 'function', function: { name: 'Web', arguments: '{}' } },
        ],
      },
      finishReason: 'tool_calls',
      usage: { prompt_tokens: 7 },
      model: 'm',
      id: 'c1',
      done: true,
    });
  });
});

describe('OpenExchanges', () => {
  const user = { role: 'user', content: 'q' };
  const call = { role: 'assistant', content: null, tool_calls: [{ id: 'c', type: 'function', function: { name: 'T', arguments: '{"a": 1}' } }] };
  it('finds the open exchange a request continues, comparing what a trace keeps (arguments parsed, empty content as null)', () => {
    const open = new OpenExchanges<string>();
    open.add([user, call], { id: 't1', value: 'first', at: 0 });
    const echoed = { ...call, content: '', tool_calls: [{ ...call.tool_calls[0], function: { name: 'T', arguments: '{"a":1}' } }] };
    expect(open.take([user, { role: 'user', content: 'other' }])).toBeUndefined();
    expect(open.take([user, echoed, { role: 'tool', tool_call_id: 'c', content: 'r' }])).toMatchObject({ id: 't1' });
    expect(open.size).toBe(0);
  });
  it('gives up exchanges idle too long', () => {
    const open = new OpenExchanges<string>();
    open.add([user, call], { id: 'a', value: 'a', at: 10 });
    open.add([{ role: 'user', content: 'z' }, call], { id: 'b', value: 'b', at: 50 });
    expect(open.expired(20).map((e) => e.id)).toEqual(['a']);
    expect(open.drain().map((e) => e.id)).toEqual(['b']);
  });
});

describe('jsonErrorOffset', () => {
  it('finds where a text stops being JSON, and nothing in valid JSON', () => {
    for (const good of ['{}', ' [1, -2.5e3, "a\\u00e9", true, null, {"k": []}] ', '"x"']) expect(jsonErrorOffset(good), good).toBeUndefined();
    expect(jsonErrorOffset('{"a": [}')).toBe(7);
    expect(jsonErrorOffset('{"a": 1')).toBe(7);
    expect(jsonErrorOffset('{"a": 01}')).toBe(7);
    expect(jsonErrorOffset('[1] x')).toBe(4);
    expect(jsonErrorOffset('"\\uZZ"')).toBe(3);
    expect(lineColumn('{\n  "a": ]', 9)).toEqual({ line: 2, column: 8 });
  });
});

describe('fitTaskRouter', () => {
  it('sends a request to the task whose requests it resembles most', () => {
    const route = fitTaskRouter([
      { task: 'fx', text: 'convert 100 EUR to USD at the exchange rate' },
      { task: 'fx', text: 'exchange rate of yen to dollars' },
      { task: 'docs', text: 'search the handbook for the vacation policy' },
    ])!;
    expect(route('what is the exchange rate of EUR to GBP').task).toBe('fx');
    expect(route('find the policy in the handbook').task).toBe('docs');
    expect(route.threshold).toEqual({ from: 'none', samples: 2 }); // too few requests to choose one from
    expect(fitTaskRouter([])).toBeUndefined();
  });
});
