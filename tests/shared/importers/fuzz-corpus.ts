// Seeded mutation of realistic records, shared by the pure fuzz test and the streaming (bytes) fuzz test.
import { readFileSync } from 'node:fs';
import type { FormatId } from '../../../shared/importers';
import { fixturePath } from './helpers';
import { mulberry32 } from '../../../shared/lots/prng';
export const rng = mulberry32;

type Json = unknown;

/** A way to make one trace's worth of lines with a given unique id. */
export interface Corpus {
  format: FormatId;
  units: Array<(uid: string) => string[]>;
}

function jsonl(name: string): Json[] {
  return readFileSync(fixturePath(name), 'utf8')
    .split('\n')
    .filter((l) => l.trim())
    .map((l) => JSON.parse(l) as Json);
}

function json(name: string): Json {
  return JSON.parse(readFileSync(fixturePath(name), 'utf8')) as Json;
}

function withId(v: Json, uid: string): string {
  return JSON.stringify({ ...(v as object), id: uid });
}

/** Replace every occurrence of a trace id inside a record (spans carry it on each span). */
function rekey(v: Json, from: string, to: string): string {
  return JSON.stringify(v).split(JSON.stringify(from)).join(JSON.stringify(to));
}

export function corpora(): Corpus[] {
  const otelLines = jsonl('otel-genai.jsonl') as Array<{
    resourceSpans: Array<{ resource: Json; scopeSpans: Array<{ scope: Json; spans: Array<{ traceId: string }> }> }>;
  }>;
  const mainSpans = otelLines.flatMap((l) => l.resourceSpans[0]!.scopeSpans[0]!.spans).filter((s) => s.traceId === '5b8efff798038103d269b633813fc60c');
  const otelBatch = {
    resourceSpans: [
      { resource: otelLines[0]!.resourceSpans[0]!.resource, scopeSpans: [{ scope: otelLines[0]!.resourceSpans[0]!.scopeSpans[0]!.scope, spans: mainSpans }] },
    ],
  };
  const phoenix = jsonl('phoenix-spans.jsonl');
  const gta = json('gta/dataset.json') as Record<string, Json>;
  const gtaPred = json('gta/predictions/qwen2.5-7b-instruct/gta_bench.json') as Record<string, Json>;
  return [
    { format: 'native', units: jsonl('native.jsonl').map((v) => (uid: string) => [withId(v, uid)]) },
    { format: 'openai', units: [...jsonl('openai-chat.jsonl'), ...jsonl('openai-responses.jsonl')].map((v) => (uid: string) => [withId(v, uid)]) },
    { format: 'anthropic', units: jsonl('anthropic.jsonl').map((v) => (uid: string) => [withId(v, uid)]) },
    {
      format: 'bfcl',
      units: jsonl('bfcl/result/demo-model-FC/multi_turn/BFCL_v4_multi_turn_base_result.json')
        .slice(0, 2)
        .map((v) => (uid: string) => [withId(v, uid)]),
    },
    { format: 'gta', units: [...Object.values(gta), ...Object.values(gtaPred)].map((v) => (uid: string) => [withId(v, uid)]) },
    { format: 'sharegpt', units: [...jsonl('hermes.jsonl'), ...(json('llama-factory.json') as Json[])].map((v) => (uid: string) => [withId(v, uid)]) },
    { format: 'otel', units: [(uid: string) => [rekey(otelBatch, '5b8efff798038103d269b633813fc60c', uid)]] },
    { format: 'openinference', units: [(uid: string) => phoenix.map((s) => rekey(s, '4bf92f3577b34da6a3ce929d0e0e4736', uid))] },
    { format: 'langfuse', units: [(uid: string) => [rekey(json('langfuse-trace.json'), 'lf-trace-7', uid)]] },
  ];
}

const WRONG: Json[] = [0, -1, 3.5, '', 'fuzz', true, false, null, [], {}, [1, 'a'], { x: 1 }];

/** All [container, key] slots of a JSON value, iteratively. */
function slots(v: Json): Array<[Record<string, Json> | Json[], string | number]> {
  const out: Array<[Record<string, Json> | Json[], string | number]> = [];
  const stack: Json[] = [v];
  while (stack.length) {
    const x = stack.pop();
    if (Array.isArray(x)) x.forEach((c, i) => (out.push([x, i]), stack.push(c)));
    else if (x && typeof x === 'object') {
      for (const k of Object.keys(x)) {
        out.push([x as Record<string, Json>, k]);
        stack.push((x as Record<string, Json>)[k]);
      }
    }
  }
  return out;
}

export const MUTATIONS = [
  'truncate',
  'wrong-type',
  'delete-key',
  'bad-id',
  'huge-string',
  'deep-nesting',
  'not-an-object',
  'lone-surrogate',
  'duplicate',
] as const;
export type Mutation = (typeof MUTATIONS)[number];

/** Mutate one JSON line; returns the new line(s). `budget` caps the huge strings. */
export function mutate(line: string, kind: Mutation, rand: () => number, budget: { huge: number }): string[] {
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rand() * xs.length)]!;
  if (kind === 'truncate') return [line.slice(0, 1 + Math.floor(rand() * (line.length - 1)))];
  if (kind === 'duplicate') return [line, line];
  if (kind === 'not-an-object') return [JSON.stringify(pick(WRONG))];
  const v = JSON.parse(line) as Json;
  const all = slots(v);
  if (all.length === 0) return [line];
  if (kind === 'wrong-type') {
    const [c, k] = pick(all);
    (c as Record<string, Json>)[k as string] = pick(WRONG);
  } else if (kind === 'delete-key') {
    const objs = all.filter(([c]) => !Array.isArray(c));
    if (objs.length) {
      const [c, k] = pick(objs);
      delete (c as Record<string, Json>)[k as string];
    }
  } else if (kind === 'bad-id') {
    const ids = all.filter(([, k]) => typeof k === 'string' && /id$/i.test(k));
    const [c, k] = ids.length ? pick(ids) : pick(all);
    (c as Record<string, Json>)[k as string] = `fuzz-nomatch-${Math.floor(rand() * 1e6)}`;
  } else if (kind === 'huge-string' || kind === 'lone-surrogate') {
    const strings = all.filter(([c, k]) => typeof (c as Record<string, Json>)[k as string] === 'string');
    const [c, k] = strings.length ? pick(strings) : pick(all);
    if (kind === 'huge-string' && budget.huge > 0) {
      budget.huge--;
      (c as Record<string, Json>)[k as string] = '<tool_call>{"name": "x", '.repeat(1 + Math.floor(rand() * 40_000));
    } else (c as Record<string, Json>)[k as string] = '\ud800 broken \udfff';
  } else if (kind === 'deep-nesting') {
    const [c, k] = pick(all);
    (c as Record<string, Json>)[k as string] = '__DEEP__';
    const d = 250 + Math.floor(rand() * 5000);
    return [JSON.stringify(v).replace('"__DEEP__"', '['.repeat(d) + '{"role":"tool"}' + ']'.repeat(d))];
  }
  return [JSON.stringify(v)];
}
