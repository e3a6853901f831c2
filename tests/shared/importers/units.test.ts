import { describe, expect, it } from 'vitest';
import { assembleTrace } from '../../../shared/importers/assemble';
import type { ConvItem } from '../../../shared/importers/conversation';
import { layoutDocument, splitConcatenatedJson } from '../../../shared/importers/document';
import { detectFormat, importText, lookupPath, resolveFormatName } from '../../../shared/importers';
import { parsePythonCall, parsePythonLiteral, splitPythonCallList } from '../../../shared/importers/python-literal';
import { extractTagged } from '../../../shared/importers/tags';
import { pairs, shape } from './helpers';

function assemble(items: ConvItem[]) {
  return assembleTrace({ idPrefix: 't', format: 'test', items });
}

describe('assembleTrace', () => {
  it('renames a reused source call id and pairs later results with the latest call that used it', () => {
    const r = assemble([
      { role: 'user', text: 'q1' },
      { role: 'assistant', text: '', calls: [{ id: 'call_0', name: 'a' }] },
      { role: 'tool', results: [{ callId: 'call_0', content: 'A1' }] },
      { role: 'assistant', text: 'x', calls: [] },
      { role: 'user', text: 'q2' },
      { role: 'assistant', text: '', calls: [{ id: 'call_0', name: 'b' }] },
      { role: 'tool', results: [{ callId: 'call_0', content: 'B1' }] },
      { role: 'assistant', text: 'y', calls: [] },
    ]);
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    const ids = r.trace.turns.flatMap((t) => t.steps.flatMap((s) => (s.kind === 'call' ? s.calls.map((c) => c.id) : [])));
    expect(ids).toEqual(['call_0', 'call_0#2']);
    expect(pairs(r.trace).map((p) => [p.call, p.content])).toEqual([
      ['a', 'A1'],
      ['b', 'B1'],
    ]);
  });

  it('rejects a result whose id pairs with nothing, saying where', () => {
    const r = assemble([
      { role: 'user', text: 'q' },
      { role: 'assistant', text: '', calls: [{ id: 'c1', name: 'a' }] },
      { role: 'tool', results: [{ callId: 'c9', content: 'x', where: 'messages[2]' }] },
    ]);
    expect(r).toEqual({ ok: false, message: expect.stringMatching(/^messages\[2\]: tool result refers to call id "c9"/) });
  });

  it('pairs by position, falls back to name and order when the name disagrees, and rejects an unknown name', () => {
    const base: ConvItem[] = [
      { role: 'user', text: 'q' },
      { role: 'assistant', text: '', calls: [{ name: 'a' }, { name: 'b' }] },
    ];
    const ok = assemble([
      ...base,
      {
        role: 'tool',
        results: [
          { name: 'b', content: 'B', pairing: 'position' },
          { content: 'A', pairing: 'position' },
        ],
      },
    ]);
    expect(ok.ok && pairs(ok.trace).map((p) => [p.call, p.content, p.pairing])).toEqual([
      ['b', 'B', 'name-order'],
      ['a', 'A', 'position'],
    ]);
    const bad = assemble([...base, { role: 'tool', results: [{ name: 'zzz', content: 'Z', pairing: 'position' }] }]);
    expect(bad.ok).toBe(false);
    const extra = assemble([...base, { role: 'tool', results: [{ content: '1' }, { content: '2' }, { content: '3' }] }]);
    expect(extra).toEqual({ ok: false, message: expect.stringMatching(/no open call to answer/) });
  });

  it('keeps consecutive user messages in one turn and takes the last assistant text as the answer', () => {
    const r = assemble([
      { role: 'system', text: 'sys' },
      { role: 'user', text: 'q' },
      { role: 'user', text: 'more detail' },
      { role: 'assistant', text: 'thinking aloud', calls: [] },
      { role: 'assistant', text: '', calls: [{ name: 'a' }] },
      { role: 'tool', results: [{ content: 'A' }] },
      { role: 'assistant', text: '', calls: [] },
      { role: 'assistant', text: 'final', calls: [] },
    ]);
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.trace.system).toBe('sys');
    expect(r.trace.turns).toHaveLength(1);
    expect(shape(r.trace.turns[0]!.steps)).toEqual(['msg user', 'msg assistant', 'call a', 'obs a']);
    expect(r.trace.turns[0]!.answer).toBe('final');
  });

  it('leaves the answer empty when a turn ends on tool output', () => {
    const r = assemble([
      { role: 'user', text: 'q' },
      { role: 'assistant', text: '', calls: [{ name: 'a' }] },
      { role: 'tool', results: [{ content: 'A' }] },
    ]);
    expect(r.ok && r.trace.turns[0]!.answer).toBe('');
  });

  it('rejects a record with nothing in it', () => {
    expect(assemble([])).toEqual({ ok: false, message: expect.stringMatching(/nothing to import/) });
  });
});

describe('detectFormat', () => {
  it('explains its choice and refuses what it cannot recognise', () => {
    const d = detectFormat([{ v: 1, id: 'a', turns: [] }]);
    expect(d.ok && d.detection.format).toBe('native');
    expect(d.ok && d.detection.reason).toMatch(/1 of the first 1 record\(s\), read to detect the format, match/);
    const none = detectFormat([{ foo: 1, bar: 2 }]);
    expect(none.ok).toBe(false);
    expect(!none.ok && none.message).toMatch(/top-level keys: foo, bar/);
  });

  it('tells Anthropic from OpenAI by content blocks, and plain chat defaults to OpenAI', () => {
    const anthropic = detectFormat([{ messages: [{ role: 'user', content: [{ type: 'tool_result', tool_use_id: 'x', content: 'y' }] }] }]);
    expect(anthropic.ok && anthropic.detection.format).toBe('anthropic');
    const plain = detectFormat([
      {
        messages: [
          { role: 'user', content: 'hi' },
          { role: 'assistant', content: 'hello' },
        ],
      },
    ]);
    expect(plain.ok && plain.detection.format).toBe('openai');
  });

  it('resolves format names and aliases', () => {
    expect(resolveFormatName('Phoenix')).toBe('openinference');
    expect(resolveFormatName('openai-responses')).toBe('openai');
    expect(resolveFormatName('hermes')).toBe('sharegpt');
    expect(resolveFormatName('auto')).toBe('auto');
    expect(resolveFormatName('csv')).toBeUndefined();
  });

  it('stops with a fatal problem instead of rejecting every line one by one', () => {
    const r = importText('{"a":1}\n{"b":2}\n', { file: 'x.jsonl' });
    expect(r.fatal).toMatch(/^x\.jsonl: could not recognise the format/);
    expect(r.traces).toEqual([]);
  });
});

describe('layoutDocument', () => {
  it('finds each element of a pretty-printed array with its line', () => {
    const text = '[\n  {"a": "x,]}"},\n  {"b": [1, 2]}\n]\n';
    const l = layoutDocument(text);
    expect(l?.kind).toBe('array');
    expect(l?.parts.map((p) => [text.slice(p.start, p.end), p.line])).toEqual([
      ['{"a": "x,]}"}', 2],
      ['{"b": [1, 2]}', 3],
    ]);
  });

  it('finds the keys and values of a keyed object', () => {
    const text = '{\n "0": {"x": 1},\n "1": {"y": "\\"}"}\n}';
    expect(layoutDocument(text)?.parts.map((p) => [p.key, text.slice(p.start, p.end), p.line])).toEqual([
      ['0', '{"x": 1}', 2],
      ['1', '{"y": "\\"}"}', 3],
    ]);
  });

  it('returns null for JSON Lines, truncated documents and trailing garbage', () => {
    expect(layoutDocument('{"a":1}\n{"b":2}\n')).toBeNull();
    expect(layoutDocument('[{"a":1},\n{"b":')).toBeNull();
    expect(layoutDocument('[1] x')).toBeNull();
  });

  it('splits concatenated JSON values', () => {
    expect(splitConcatenatedJson(' {"a":"}"} [1] {"b":{}} ')).toEqual(['{"a":"}"}', '[1]', '{"b":{}}']);
  });
});

describe('Python literals and calls', () => {
  it('parses literals the Hermes reference parser accepts', () => {
    expect(parsePythonLiteral("{'name': 'get_time', 'arguments': {'city': 'Paris', 'n': -1.5e2, 'ok': True, 'x': None, 't': (1, 2), 's': \"it's\"}}")).toEqual({
      ok: true,
      value: { name: 'get_time', arguments: { city: 'Paris', n: -150, ok: true, x: null, t: [1, 2], s: "it's" } },
    });
    expect(parsePythonLiteral("{'a': 1")).toEqual({ ok: false });
    expect(parsePythonLiteral('['.repeat(5000) + ']'.repeat(5000))).toEqual({ ok: false });
  });

  it('parses BFCL decoded calls with keyword arguments only', () => {
    expect(parsePythonCall("mv(source='log.txt',destination='archive')")).toEqual({ name: 'mv', arguments: { source: 'log.txt', destination: 'archive' } });
    expect(parsePythonCall('pwd()')).toEqual({ name: 'pwd', arguments: {} });
    expect(parsePythonCall('Math.mean(numbers=[1, 2.5])')).toEqual({ name: 'Math.mean', arguments: { numbers: [1, 2.5] } });
    expect(parsePythonCall("ls('a')")).toBeNull();
    expect(splitPythonCallList("[cat(file_name='a, b'), wc(file_name='x')]")).toEqual(["cat(file_name='a, b')", "wc(file_name='x')"]);
  });
});

describe('tags and paths', () => {
  it('extracts tagged blocks linearly, including an unclosed last tag', () => {
    expect(extractTagged('a<t>1</t>b<t>2', 't')).toEqual({ blocks: ['1', '2'], rest: 'ab' });
    const big = 'x'.repeat(1_000_000) + '<tool_call>';
    expect(extractTagged(big, 'tool_call').blocks).toEqual(['']);
  });

  it('follows dotted paths through objects, flattened keys and JSON strings', () => {
    expect(lookupPath({ metadata: { task: 'a' } }, 'metadata.task')).toBe('a');
    expect(lookupPath({ 'metadata.task': 'b' }, 'metadata.task')).toBe('b');
    expect(lookupPath({ metadata: '{"task":"c"}' }, 'metadata.task')).toBe('c');
    expect(lookupPath({ list: [{ t: 'd' }] }, 'list.0.t')).toBe('d');
    expect(lookupPath({ a: 1 }, 'b.c')).toBeUndefined();
  });
});

describe('secrets in messages', () => {
  it('masks credentials quoted from a record in an error message', () => {
    const r = importText(
      JSON.stringify({ id: 'multi_turn_base_9', result: 'Error during inference: Incorrect API key provided: sk-proj-abcdef1234. Use Bearer abcdefghij' }),
      { file: 'r.json' },
    );
    expect(r.format).toBe('bfcl');
    expect(r.errors[0]!.message).toMatch(/\[redacted\]/);
    expect(r.errors[0]!.message).not.toMatch(/sk-proj-abcdef|abcdefghij/);
  });
});
