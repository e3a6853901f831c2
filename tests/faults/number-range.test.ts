// Issue 13 #10: numbers out of range changed silently — `1e309` was stored as null, `1e-400` as 0, and
// integers beyond 2^53 were rounded. Such a record is now rejected, reported `file:line: path: …` with the
// rule and the way to keep the value (quote it); the other records import (exit 1).
import { mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { outOfRangeNumbers } from '../../shared/importers/number-range';
import { importText } from '../../shared/importers';
import { makeLineTraces } from '../e2e/fixtures';
import { runCli } from '../cli/io';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'lots-numbers-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe('outOfRangeNumbers', () => {
  it('finds overflow, underflow and unsafe integers, with their paths', () => {
    const text =
      '{"a": 1e309, "b": [1, -1e309, {"c": 1e-400}], "d": 12345678901234567891, "e": "1e309 in a string", "1e999": 0, "f": [[], {}, -99999999999999999]}';
    const found = outOfRangeNumbers(text);
    expect(found.map((f) => [f.path, f.literal])).toEqual([
      ['a', '1e309'],
      ['b[1]', '-1e309'],
      ['b[2].c', '1e-400'],
      ['d', '12345678901234567891'],
      ['f[2]', '-99999999999999999'],
    ]);
    expect(found[0]!.why).toMatch(/Infinity, stored as null/);
    expect(found[2]!.why).toMatch(/would become 0/);
    expect(found[3]!.why).toMatch(/cannot be stored exactly \(it would become 12345678901234567000\)/);
  });

  it('leaves numbers that parse exactly (or as closely as any decimal) alone', () => {
    expect(
      outOfRangeNumbers('[1e308, -1.7976931348623157e308, 5e-324, 9007199254740991, -9007199254740991, 0e-999, 0.000, 1.5e300, 123.4567890123456789, 1e20]'),
    ).toEqual([]);
    expect(outOfRangeNumbers('{"x": "12345678901234567891", "y": "1e-400"}')).toEqual([]);
    expect(outOfRangeNumbers('1e309').map((f) => f.path)).toEqual(['(record)']);
    // Nanosecond timestamps (OTLP) are read as numbers by the span importers anyway: not reported.
    expect(outOfRangeNumbers('{"startTimeUnixNano": 1700000000123456789, "end_time_unix_nano": 1700000000223456789}')).toEqual([]);
    expect(outOfRangeNumbers('{"startTimeUnixNano": 1e400}').map((f) => f.path)).toEqual(['startTimeUnixNano']);
  });
});

function nativeLine(id: string, meta: string): string {
  const t = { ...makeLineTraces({ task: 't', requests: 1, tools: 3, seed: id.length })[0]!, id, meta: { n: 0 } };
  return JSON.stringify(t).replace('"meta":{"n":0}', `"meta":{"n":${meta}}`);
}

describe('lots import', () => {
  it('rejects records with out-of-range numbers as file:line: path: …, imports the rest, exits 1', async () => {
    const file = join(dir, 'in.jsonl');
    writeFileSync(
      file,
      [
        nativeLine('ok1', '42'),
        nativeLine('big', '1e309'),
        nativeLine('tiny', '1e-400'),
        nativeLine('int', '12345678901234567891'),
        nativeLine('ok2', '1e308'),
      ].join('\n') + '\n',
    );
    const project = join(dir, 'p');
    const r = await runCli(['import', file, '--project', project]);
    expect(r.code).toBe(1);
    expect(r.err).toContain(`${file}:2: meta.n: the number 1e309 is beyond the largest number that can be stored`);
    expect(r.err).toContain(`${file}:3: meta.n: the number 1e-400 is closer to 0`);
    // An integer beyond 2^53 where nothing scores it (meta) keeps its record, as its source text (issue 38).
    expect(r.err).not.toContain(`${file}:4:`);
    expect(r.err).toMatch(/the record is rejected so that no value changes silently — write the number as a string \("1e309"\) to keep it exactly/);
    const stored = readdirSync(join(project, 'traces'))
      .filter((f) => f.endsWith('.jsonl'))
      .flatMap((f) =>
        readFileSync(join(project, 'traces', f), 'utf8')
          .trim()
          .split('\n'),
      )
      .map((l) => JSON.parse(l) as { id: string; meta: { n: unknown } });
    expect(stored.map((t) => [t.id, t.meta.n])).toEqual([
      ['ok1', 42],
      ['int', '12345678901234567891'],
      ['ok2', 1e308],
    ]);
  });

  it('names the line of the number inside a pretty-printed document', () => {
    const text = JSON.stringify([JSON.parse(nativeLine('a', '1')), JSON.parse(nativeLine('b', '2'))], null, 2).replace('"n": 2', '"n": 1e400');
    const r = importText(text, { file: 'doc.json' });
    expect(r.traces.map((t) => t.trace.id)).toEqual(['a']);
    const line = text.split('\n').findIndex((l) => l.includes('1e400')) + 1;
    expect(r.errors).toEqual([expect.objectContaining({ file: 'doc.json', line, message: expect.stringMatching(/^meta\.n: the number 1e400/) })]);
  });
});

describe('integers beyond 2^53 (issue 38)', () => {
  const chat = (args: string, seed = '17') =>
    `{"seed": ${seed}, "messages": [{"role": "user", "content": "pay"}, {"role": "assistant", "tool_calls": [{"id": "c1", "type": "function", "function": {"name": "pay", "arguments": ${args}}}]}, {"role": "tool", "tool_call_id": "c1", "content": "ok"}, {"role": "assistant", "content": "done"}]}`;

  it('keep a record whose big integer nothing scores (a Together AI seed), and keep the digits as text', () => {
    const r = importText(chat('"{}"', '12345678901234567891'), { file: 'together.jsonl' });
    expect(r.errors).toEqual([]);
    expect(r.traces).toHaveLength(1);
  });

  it('keep arguments holding one as the text the model wrote (a JSON string of arguments)', () => {
    const r = importText(chat(JSON.stringify('{"card": 9876543210123456}')), { file: 'a.jsonl' });
    expect(r.errors).toEqual([]);
    const step = r.traces[0]!.trace.turns[0]!.steps[0]!;
    expect(step.kind === 'call' && step.calls[0]!.arguments).toBe('{"card": 9876543210123456}');
  });

  it('reject a record whose call arguments hold one as a number, naming the field', () => {
    const r = importText(chat('{"card": 9876543210123456}'), { file: 'b.jsonl' });
    expect(r.traces).toEqual([]);
    expect(r.errors[0]!.message).toMatch(/^turns\[0\]\.steps\[0\]\.calls\[0\]\.arguments\.card: the number 9876543210123456 .*call's arguments/);
  });

  it('keep the digits exactly where the trace keeps text (an observation)', () => {
    const line = `{"messages": [{"role": "user", "content": "x"}, {"role": "assistant", "tool_calls": [{"id": "c1", "type": "function", "function": {"name": "f", "arguments": "{}"}}]}, {"role": "tool", "tool_call_id": "c1", "content": [{"type": "text", "text": {"id": 12345678901234567891}}]}, {"role": "assistant", "content": "ok"}]}`;
    const r = importText(line, { file: 'c.jsonl' });
    expect(r.errors).toEqual([]);
    const obs = r.traces[0]!.trace.turns[0]!.steps[1]!;
    expect(obs.kind === 'observation' && obs.content).toContain('{"id":12345678901234567891}');
  });
});
