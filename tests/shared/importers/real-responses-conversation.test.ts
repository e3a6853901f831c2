// OpenAI Responses records recorded against the real API (pydantic-ai's cassette of a tool call continued
// through the Conversations API; tests/fixtures/real/SOURCE.md): the second request sends only the tool
// output, its context is the conversation's earlier response. Counted here from the JSON and compared
// with the import (issue 38, item 4).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { importText } from '../../../shared/importers';
import { expectConsistent, pairs } from './helpers';

const NAME = 'conversation-tool-call-continuation.jsonl';
const text = readFileSync(join(__dirname, '..', '..', 'fixtures', 'real', 'openai-responses', NAME), 'utf8');

type J = Record<string, unknown>;
const records = text
  .trim()
  .split('\n')
  .map((l) => JSON.parse(l) as { request: { conversation: string; input: J[] }; response: { id: string; output: J[] } });

function count() {
  const conversations = new Set(records.map((r) => r.request.conversation));
  const calls = records.flatMap((r) => r.response.output.filter((o) => o.type === 'function_call'));
  const outputs = records.flatMap((r) => r.request.input.filter((i) => i.type === 'function_call_output'));
  const users = records.flatMap((r) => r.request.input.filter((i) => i.role === 'user'));
  const last = records.at(-1)!.response.output.find((o) => o.type === 'message') as { content: Array<{ text: string }> };
  return {
    traces: conversations.size,
    calls: calls.length,
    observations: outputs.filter((o) => calls.some((c) => c.call_id === o.call_id)).length,
    requests: users.length,
    answer: last.content.map((c) => c.text).join(''),
  };
}

describe('Responses records chained by a Conversations API conversation (real cassette)', () => {
  const expected = count();
  const r = importText(text, { file: NAME });
  const all = r.traces.map((t) => t.trace);

  it('stitch into one trace per conversation: the tool output pairs with the call of the response before it', () => {
    expect(r.format).toBe('openai');
    expect(r.errors).toEqual([]);
    expect(all).toHaveLength(expected.traces);
    all.forEach(expectConsistent);
    expect(all.flatMap((t) => t.turns.flatMap((u) => u.steps.flatMap((s) => (s.kind === 'call' ? s.calls : []))))).toHaveLength(expected.calls);
    const p = all.flatMap((t) => pairs(t));
    expect(p).toHaveLength(expected.observations);
    expect(p.every((x) => x.pairing === 'id')).toBe(true);
    expect(all.flatMap((t) => t.turns)).toHaveLength(expected.requests);
    expect(all[0]!.turns.at(-1)!.answer).toBe(expected.answer);
    expect(expected.observations).toBeGreaterThan(0);
  });
});
