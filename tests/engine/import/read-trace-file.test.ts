import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { readTraceFile } from '../../../electron/engine/import';
import { chatRecord, collect, tempDir } from './helpers';

const tmp = tempDir();
afterAll(() => tmp.cleanup());

function file(name: string, content: string | Buffer): string {
  const path = join(tmp.dir, name);
  writeFileSync(path, content);
  return path;
}

describe('readTraceFile: JSON Lines', () => {
  it('yields the format first, then traces and errors with their lines, and a summary last', async () => {
    const path = file('a.jsonl', [chatRecord('r1'), '', '{not json', chatRecord('r2'), '   '].join('\n') + '\n');
    const c = await collect(path, { displayName: 'a.jsonl' });
    expect(c.events[0]).toMatchObject({ kind: 'format', format: 'openai', detected: true });
    expect(c.traces.map((t) => [t.trace.id, t.line])).toEqual([
      ['r1', 1],
      ['r2', 4],
    ]);
    expect(c.errors).toEqual([{ file: 'a.jsonl', line: 3, message: expect.stringMatching(/^not valid JSON/) }]);
    expect(c.summary).toMatchObject({
      file: 'a.jsonl',
      format: 'openai',
      mode: 'jsonl',
      records: 3,
      traces: 2,
      rejected: 1,
      pairing: { id: 2, position: 0, 'name-order': 0 },
    });
    expect(c.summary.tasks).toEqual({ '': 2 });
    expect(c.summary.fatal).toBeUndefined();
  });

  it('reports a line that is not UTF-8 and keeps the others', async () => {
    const bad = Buffer.concat([Buffer.from(chatRecord('r2', 'caf')), Buffer.from([0xc3, 0x28])]);
    const path = file('utf8.jsonl', Buffer.concat([Buffer.from(chatRecord('r1') + '\n'), bad, Buffer.from('\n' + chatRecord('r3') + '\n')]));
    const c = await collect(path, { displayName: 'utf8.jsonl' });
    expect(c.traces.map((t) => t.trace.id)).toEqual(['r1', 'r3']);
    expect(c.errors).toEqual([{ file: 'utf8.jsonl', line: 2, message: expect.stringMatching(/not valid UTF-8/) }]);
  });

  it('rejects an over-long line without buffering it, then carries on', async () => {
    const long = JSON.stringify({ id: 'big', messages: [{ role: 'user', content: 'x'.repeat(200_000) }] });
    const path = file('long.jsonl', [chatRecord('r1'), long, chatRecord('r3')].join('\n'));
    const c = await collect(path, { maxLineBytes: 100_000, displayName: 'long.jsonl' });
    expect(c.traces.map((t) => [t.trace.id, t.line])).toEqual([
      ['r1', 1],
      ['r3', 3],
    ]);
    expect(c.errors).toEqual([{ file: 'long.jsonl', line: 2, message: expect.stringMatching(/MB long, above the limit/) }]);
  });

  it('reads CRLF line endings and a byte order mark', async () => {
    const path = file('crlf.jsonl', Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(`${chatRecord('r1')}\r\n${chatRecord('r2')}\r\n`)]));
    const c = await collect(path);
    expect(c.errors).toEqual([]);
    expect(c.traces.map((t) => t.trace.id)).toEqual(['r1', 'r2']);
  });

  it('uses the format given instead of detecting it', async () => {
    const path = file('given.jsonl', chatRecord('r1'));
    const c = await collect(path, { format: 'anthropic' });
    expect(c.events[0]).toEqual({ kind: 'format', format: 'anthropic', reason: 'given with --format anthropic', detected: false });
    expect(c.traces).toEqual([]);
    expect(c.errors[0]!.message).toMatch(/messages\[1\]\.content|role/);
  });

  it('says when a file holds no records, or when its format is unknown', async () => {
    expect((await collect(file('empty.jsonl', '\n\n'))).summary.fatal).toMatch(/holds no records/);
    const unknown = await collect(file('unknown.jsonl', '{"a":1}\n{"b":2}\n'), { displayName: 'unknown.jsonl' });
    expect(unknown.summary.fatal).toMatch(/^unknown\.jsonl: could not recognise the format/);
    expect(unknown.summary.traces).toBe(0);
  });

  it('reports progress up to the whole file', async () => {
    const path = file('progress.jsonl', Array.from({ length: 50 }, (_, i) => chatRecord(`p${i}`)).join('\n'));
    const seen: number[] = [];
    const c = await collect(path, { onProgress: (p) => seen.push(p.bytesRead) });
    expect(c.traces).toHaveLength(50);
    expect(seen[seen.length - 1]).toBe(c.summary.bytes);
  });

  it('stops when cancelled', async () => {
    const path = file('cancel.jsonl', Array.from({ length: 20 }, (_, i) => chatRecord(`c${i}`)).join('\n'));
    const ac = new AbortController();
    ac.abort();
    await expect(collect(path, { signal: ac.signal })).rejects.toMatchObject({ name: 'AbortError' });
  });
});

describe('readTraceFile: whole JSON documents', () => {
  it("reads a pretty-printed array element by element, with each element's line", async () => {
    const doc = '[\n' + [chatRecord('d1'), '{"broken": ', chatRecord('d3')].join(',\n') + '\n]\n';
    const path = file('doc.json', doc.replace('{"broken": ,', '{"broken": 1},').replace('{"broken": \n', '{"broken": }\n'));
    const c = await collect(path, { displayName: 'doc.json' });
    expect(c.summary.mode).toBe('document');
    expect(c.traces.map((t) => [t.trace.id, t.line])).toEqual([
      ['d1', 2],
      ['d3', 4],
    ]);
    expect(c.errors).toHaveLength(1);
    expect(c.errors[0]!.line).toBe(3);
  });

  it('reads a one-line JSON array as separate records', async () => {
    const path = file('oneline.json', `[${chatRecord('o1')},${chatRecord('o2')}]`);
    const c = await collect(path);
    expect(c.summary.mode).toBe('document');
    expect(c.traces.map((t) => t.trace.id)).toEqual(['o1', 'o2']);
  });

  it('rejects only the element holding bytes that are not UTF-8', async () => {
    const latin1 = Buffer.from(chatRecord('u2', 'caf@'));
    latin1[latin1.indexOf('@')] = 0xe9; // "café" written in Latin-1: not UTF-8
    const path = file('doc-utf8.json', Buffer.concat([Buffer.from('[\n' + chatRecord('u1') + ',\n'), latin1, Buffer.from(',\n' + chatRecord('u3') + '\n]')]));
    const c = await collect(path, { displayName: 'doc-utf8.json' });
    expect(c.traces.map((t) => t.trace.id)).toEqual(['u1', 'u3']);
    expect(c.errors).toEqual([{ file: 'doc-utf8.json', line: 3, message: expect.stringMatching(/not valid UTF-8/) }]);
  });

  it('refuses a document above the size limit with a way out', async () => {
    const path = file('big.json', '[\n' + [chatRecord('b1'), chatRecord('b2')].join(',\n') + '\n]');
    const c = await collect(path, { maxDocumentBytes: 100, displayName: 'big.json' });
    expect(c.summary.fatal).toMatch(/^big\.json:1: this looks like one JSON document .* convert it to JSON Lines/);
    expect(c.traces).toEqual([]);
  });

  it('falls back to JSON Lines when the first line is broken', async () => {
    const path = file('broken-first.jsonl', ['{"id": "x", "messages": [', chatRecord('r2'), chatRecord('r3')].join('\n'));
    const c = await collect(path, { displayName: 'broken-first.jsonl' });
    expect(c.summary.mode).toBe('jsonl');
    expect(c.traces.map((t) => t.trace.id)).toEqual(['r2', 'r3']);
    expect(c.errors.map((e) => e.line)).toEqual([1]);
  });
});

describe('readTraceFile: span grouping', () => {
  function phoenixSpan(trace: string, span: string, kind: string, attributes: Record<string, unknown>): string {
    return JSON.stringify({
      name: span,
      context: { trace_id: trace, span_id: span },
      span_kind: kind,
      parent_id: null,
      start_time: '2025-01-01T00:00:00Z',
      status_code: 'OK',
      attributes,
    });
  }
  const llm = (trace: string, q: string) =>
    phoenixSpan(trace, `${trace}-l`, 'LLM', {
      'openinference.span.kind': 'LLM',
      'llm.input_messages.0.message.role': 'user',
      'llm.input_messages.0.message.content': q,
      'llm.output_messages.0.message.role': 'assistant',
      'llm.output_messages.0.message.content': 'ok',
    });
  const tool = (trace: string) =>
    phoenixSpan(trace, `${trace}-t`, 'TOOL', { 'openinference.span.kind': 'TOOL', 'tool.name': 'get_weather', 'output.value': '18 C' });

  it('groups interleaved spans by trace id', async () => {
    const path = file('spans.jsonl', [llm('A', 'qa'), llm('B', 'qb'), tool('A'), tool('B')].join('\n'));
    const c = await collect(path);
    expect(c.summary.format).toBe('openinference');
    expect(c.traces.map((t) => [t.trace.id, t.line])).toEqual([
      ['A', 1],
      ['B', 2],
    ]);
    expect(c.traces[0]!.trace.meta?.unmatchedToolSpans).toBe(1);
  });

  it('builds a trace early when the span buffer is full, and reports a span that arrives after that', async () => {
    const filler = Array.from({ length: 30 }, (_, i) => llm(`F${i}`, 'x'.repeat(2000)));
    const path = file('far.jsonl', [llm('A', 'qa'), ...filler, tool('A')].join('\n'));
    const c = await collect(path, { spanBudgetBytes: 20_000, displayName: 'far.jsonl' });
    expect(c.traces.map((t) => t.trace.id)).toContain('A');
    expect(c.traces).toHaveLength(31);
    expect(c.errors).toEqual([
      { file: 'far.jsonl', line: 32, message: expect.stringMatching(/span "A-t" of trace "A" comes after that trace was already built/) },
    ]);
  });
});

it('readTraceFile streams: the first trace arrives before the file is fully read', async () => {
  const path = file('stream.jsonl', Array.from({ length: 3000 }, (_, i) => chatRecord(`s${i}`, 'y'.repeat(500))).join('\n'));
  let read = 0;
  let total = 0;
  let readAtFirstTrace = -1;
  for await (const e of readTraceFile(path, { onProgress: (p) => ((read = p.bytesRead), (total = p.totalBytes)) })) {
    if (e.kind === 'trace' && readAtFirstTrace < 0) readAtFirstTrace = read;
  }
  expect(total).toBeGreaterThan(2_000_000);
  expect(readAtFirstTrace).toBeGreaterThan(0);
  expect(readAtFirstTrace).toBeLessThan(total);
});

it('readTraceFile keeps the real line of a one-line document after blank lines', async () => {
  const path = file('late.json', `\n\n[${chatRecord('l1')},\n${chatRecord('l2')}]`.replace(',\n', ','));
  const c = await collect(path);
  expect(c.traces.map((t) => [t.trace.id, t.line])).toEqual([
    ['l1', 3],
    ['l2', 3],
  ]);
});
