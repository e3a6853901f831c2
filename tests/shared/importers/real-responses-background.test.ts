// OpenAI Responses requests made in background mode, recorded against the real API (pydantic-ai's
// cassette `test_background_mode_with_tool_vcr.yaml`; tests/fixtures/real/SOURCE.md): each
// `POST /v1/responses` is answered at once with `status: "queued"` and no output. The second request
// sends the tool result back; before issue 38 item 5 its turn took the call made before it as the frozen
// target. Counted here from the JSON and compared with the import.
import { describe, expect, it } from 'vitest';
import { importText } from '../../../shared/importers';
import { expectConsistent, jsonLines, pairs, readReal } from './helpers';

const NAME = 'background-mode-with-tool.jsonl';
const text = readReal('openai-responses', NAME);

type J = Record<string, unknown>;
const records = jsonLines<{
  request: { background?: boolean; input: J[]; tools: Array<{ name: string }>; previous_response_id?: string };
  response: { status: string; output: J[] };
}>(text);

function count() {
  let calls = 0;
  let observations = 0;
  let requests = 0;
  let answers = 0;
  let pending = 0;
  for (const r of records) {
    const items = [...r.request.input, ...r.response.output];
    const ids = new Set(items.filter((i) => i.type === 'function_call').map((i) => i.call_id));
    calls += ids.size;
    observations += items.filter((i) => i.type === 'function_call_output' && ids.has(i.call_id)).length;
    requests += r.request.input.filter((i) => i.role === 'user').length;
    answers += r.response.output.filter((o) => o.type === 'message').length;
    if ((r.response.status === 'queued' || r.response.status === 'in_progress') && r.response.output.length === 0) pending++;
  }
  return { traces: records.length, requests, calls, observations, answers, pending, menus: records.map((r) => r.request.tools.map((t) => t.name)) };
}

describe('Responses requests in background mode, answered "queued" (real cassette)', () => {
  const expected = count();
  const r = importText(text, { file: NAME });
  const all = r.traces.map((t) => t.trace);

  it('the file is what the test is about: background requests, every answer queued with no output, one sending a tool result', () => {
    expect(records.every((x) => x.request.background === true && x.request.previous_response_id === undefined)).toBe(true);
    expect(expected.pending).toBe(records.length);
    expect(records.some((x) => x.request.input.at(-1)!.type === 'function_call_output')).toBe(true);
  });

  it('imports one trace per request with its menu, calls and results as counted from the JSON', () => {
    expect(r.format).toBe('openai');
    expect(r.errors).toEqual([]);
    expect(all).toHaveLength(expected.traces);
    all.forEach(expectConsistent);
    expect(all.map((t) => t.tools.map((d) => d.name))).toEqual(expected.menus);
    expect(all.flatMap((t) => t.turns)).toHaveLength(expected.requests);
    expect(all.flatMap((t) => t.turns.flatMap((u) => u.steps.flatMap((s) => (s.kind === 'call' ? s.calls : []))))).toHaveLength(expected.calls);
    const p = all.flatMap((t) => pairs(t));
    expect(p).toHaveLength(expected.observations);
    expect(p.every((x) => x.pairing === 'id')).toBe(true);
  });

  it('a queued answer is no answer: the call made before it is not the target, and the summary counts it unanswered', () => {
    const last = all.map((t) => t.turns.at(-1)!);
    expect(last.every((u) => u.target === undefined && u.answer === '')).toBe(true);
    expect(all.map((t) => t.meta?.responseStatus)).toEqual(records.map((x) => x.response.status));
    expect(r.stats.callTargetTurns).toBe(0);
    expect(r.stats.unansweredTurns).toBe(expected.pending);
    expect(all.flatMap((t) => t.turns.filter((u) => u.answer !== ''))).toHaveLength(expected.answers);
  });
});

// The same cassette with its three `GET /v1/responses/{id}` polls kept, each written as the response body
// it returned (as a log of `client.responses.retrieve` holds them), after the request that created it.
describe('background responses created and then retrieved in one file (real cassette with its polls)', () => {
  const POLLS = 'background-mode-with-tool.polls.jsonl';
  const pollText = readReal('openai-responses', POLLS);
  const lines = jsonLines<J>(pollText);
  const bodyOf = (l: J) => (l.request ? (l.response as J) : l);
  const created = lines.filter((l) => l.request);
  const polls = lines.filter((l) => !l.request);
  /** Each created response's states in file order, and its last state's output. */
  const states = created.map((c) => lines.map(bodyOf).filter((b) => b.id === bodyOf(c).id));
  const finals = states.map((s) => s.at(-1)!);
  const r = importText(pollText, { file: POLLS });
  const all = r.traces.map((t) => t.trace);

  it('the file is what the test is about: every poll retrieves a response an earlier line created', () => {
    expect(polls.length).toBeGreaterThan(0);
    expect(polls.every((p) => p.object === 'response' && created.some((c) => bodyOf(c).id === p.id))).toBe(true);
    expect(finals.every((f) => f.status === 'completed' && (f.output as J[]).length > 0)).toBe(true);
  });

  it('a retrieval updates the response its request created: one trace per request, answered by the last state', () => {
    expect(r.errors).toEqual([]);
    expect(all).toHaveLength(created.length);
    all.forEach(expectConsistent);
    expect(all.every((t) => t.turns.every((u) => u.request !== ''))).toBe(true);
    expect(all.map((t) => t.meta?.responseStates)).toEqual(states.map((s) => s.map((b) => b.status)));
    expect(r.stats.foldedRecords).toBe(polls.length);
    finals.forEach((f, i) => {
      const turn = all[i]!.turns.at(-1)!;
      const out = f.output as J[];
      const message = out.find((o) => o.type === 'message') as { content: Array<{ text: string }> } | undefined;
      if (message) {
        expect(turn.answer).toBe(message.content.map((c) => c.text).join(''));
        expect(turn.target).toBeUndefined();
      } else {
        expect(turn.target).toBe('call');
        const last = turn.steps.at(-1)!;
        expect(last.kind === 'call' && last.calls.map((c) => c.id)).toEqual(out.filter((o) => o.type === 'function_call').map((o) => o.call_id));
      }
    });
    expect(r.stats.unansweredTurns).toBe(0);
  });
});
