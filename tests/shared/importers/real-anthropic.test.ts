// Anthropic Messages requests with their responses, recorded against the real API (pydantic-ai's
// cassette of a tool call and an output tool; tests/fixtures/real/SOURCE.md), counted here from the JSON
// and compared with the import (issue 38, item 4).
import { describe, expect, it } from 'vitest';
import { importText } from '../../../shared/importers';
import { expectConsistent, jsonLines, pairs, readReal } from './helpers';

const NAME = 'tool-output.jsonl';
const text = readReal('anthropic', NAME);

type Block = { type: string; id?: string; tool_use_id?: string; name?: string };
const records = jsonLines<{ request: { messages: Array<{ role: string; content: Block[] }>; tools: Array<{ name: string }> }; response: { content: Block[] } }>(
  text,
);

function count() {
  let calls = 0;
  let observations = 0;
  let callTargets = 0;
  for (const r of records) {
    const blocks = [...r.request.messages.flatMap((m) => m.content), ...r.response.content];
    calls += blocks.filter((b) => b.type === 'tool_use').length;
    observations += blocks.filter((b) => b.type === 'tool_result').length;
    if (r.response.content.at(-1)!.type === 'tool_use') callTargets++;
  }
  return { traces: records.length, calls, observations, callTargets, menus: records.map((r) => r.request.tools.map((t) => t.name)) };
}

describe('Anthropic Messages request/response records (real cassette)', () => {
  const expected = count();
  const r = importText(text, { file: NAME });
  const all = r.traces.map((t) => t.trace);

  it('import one trace per request with its menu, calls and results paired by tool_use_id', () => {
    expect(r.format).toBe('anthropic');
    expect(r.errors).toEqual([]);
    expect(all).toHaveLength(expected.traces);
    all.forEach(expectConsistent);
    expect(all.map((t) => t.tools.map((d) => d.name))).toEqual(expected.menus);
    expect(all.flatMap((t) => t.turns.flatMap((u) => u.steps.flatMap((s) => (s.kind === 'call' ? s.calls : []))))).toHaveLength(expected.calls);
    const p = all.flatMap((t) => pairs(t));
    expect(p).toHaveLength(expected.observations);
    expect(p.every((x) => x.pairing === 'id')).toBe(true);
  });

  it("keep a response that ends in a call as the turn's call target, never as answer text", () => {
    const targets = all.filter((t) => t.turns.at(-1)!.target === 'call');
    expect(targets).toHaveLength(expected.callTargets);
    expect(all.every((t) => !(t.turns.at(-1)!.answer ?? '').includes('final_result'))).toBe(true);
  });
});
