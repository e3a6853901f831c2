import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { importText } from '../../../shared/importers';
import { canonicalJson } from '../../../shared/trace/canonical';
import type { Trace } from '../../../shared/trace/schema';
import { fixturePath, importFixture, traces } from './helpers';

/** Native export: one trace per line, as the Studio writes it. */
function exportNative(list: Trace[]): string {
  return list.map((t) => JSON.stringify(t)).join('\n') + '\n';
}

const FIXTURES = [
  'openai-chat.jsonl',
  'openai-responses.jsonl',
  'anthropic.jsonl',
  'bfcl/result/demo-model-FC/multi_turn/BFCL_v4_multi_turn_base_result.json',
  'otel-genai.jsonl',
  'phoenix-otlp.json',
  'phoenix-spans.jsonl',
  'langfuse-trace.json',
  'langfuse-observations.jsonl',
  'gta/dataset.json',
  'gta/predictions/qwen2.5-7b-instruct/gta_bench.json',
  'hermes.jsonl',
  'llama-factory.json',
];

describe('native round trip', () => {
  it('native → import → export native is identical, record by record', () => {
    const text = readFileSync(fixturePath('native.jsonl'), 'utf8');
    const r = importFixture('native.jsonl');
    expect(r.format).toBe('native');
    expect(r.errors).toEqual([]);
    const original = text
      .split('\n')
      .filter((l) => l.trim())
      .map((l) => canonicalJson(JSON.parse(l)));
    const exported = exportNative(traces(r))
      .trim()
      .split('\n')
      .map((l) => canonicalJson(JSON.parse(l)));
    expect(exported).toEqual(original);
  });

  it('keeps every step kind, pairing, error flag, gold, correctness, split and meta as written', () => {
    const [trip, tgb] = traces(importFixture('native.jsonl'));
    expect(trip!.turns[1]!.steps.map((s) => s.kind)).toEqual(['call', 'observation', 'message', 'call', 'observation', 'message']);
    expect(trip!.turns[1]!.steps[1]).toEqual({
      kind: 'observation',
      callId: 'c3',
      name: 'get_weather',
      content: 'Error: timeout',
      isError: true,
      pairing: 'position',
    });
    expect(trip!.turns[0]).toMatchObject({ gold: '18 °C, 14:05', correct: true });
    expect(trip!.meta).toEqual({ source: 'hand-written', tags: ['demo', 'weather'], nested: { a: [1, 2, { b: null }] } });
    expect(tgb!.turns[0]!.steps[0]!.kind).toBe('lines');
    expect(tgb!.split).toBe('eval');
  });

  it.each(FIXTURES)('%s: imported traces export to native and re-import identically', (name) => {
    const first = traces(importFixture(name));
    expect(first.length).toBeGreaterThan(0);
    const again = importText(exportNative(first), { file: 'exported.jsonl' });
    expect(again.format).toBe('native');
    expect(again.errors).toEqual([]);
    expect(traces(again as never).map(canonicalJson)).toEqual(first.map(canonicalJson));
  });

  it('applies schema defaults to a minimal native record, and exporting that is a fixed point', () => {
    const r = importText('{"v":1,"id":"m","turns":[{"request":"q","answer":"a"}]}\n', { file: 'm.jsonl' });
    const [t] = r.traces.map((x) => x.trace);
    expect(t).toEqual({ v: 1, id: 'm', tools: [], turns: [{ request: 'q', steps: [], answer: 'a' }] });
    const again = importText(exportNative([t!]), { file: 'm2.jsonl' }).traces[0]!.trace;
    expect(canonicalJson(again)).toBe(canonicalJson(t));
  });

  it('reports invalid native records with file:line and the field', () => {
    const r = importText(
      [
        '{"v":1,"id":"ok","turns":[{"request":"q","answer":"a"}]}',
        '{"v":1,"id":"bad","turns":[]}',
        '{"v":2,"id":"x","turns":[{"request":"","answer":""}]}',
        '{"v":1,"id":"y","turns":[{"request":"","steps":[{"kind":"observation","callId":"nope","name":"t","content":""}],"answer":""}]}',
      ].join('\n'),
      { file: 'n.jsonl', format: 'native' },
    );
    expect(r.traces.map((t) => t.trace.id)).toEqual(['ok']);
    expect(r.errors.map((e) => e.line)).toEqual([2, 3, 4]);
    expect(r.errors.every((e) => e.file === 'n.jsonl')).toBe(true);
    expect(r.errors[0]!.message).toMatch(/^turns: a trace needs at least one turn/);
    expect(r.errors[1]!.message).toMatch(/^v: unsupported trace version/);
    expect(r.errors[2]!.message).toMatch(/^turns\[0\]\.steps\[0\]\.callId: observation refers to call "nope"/);
  });

  it('drops secret-named keys from native meta', () => {
    const r = importText(
      '{"v":1,"id":"s","turns":[{"request":"q","answer":"a"}],"meta":{"run":"r1","headers":{"Authorization":"Bearer sk-1"},"api_key":"sk-2"}}',
      { file: 's.jsonl' },
    );
    expect(r.traces[0]!.trace.meta).toEqual({ run: 'r1', headers: {} });
  });
});
