// Every family's gold answer against a computation made independently from the tool lines' text
// (what a careful reader of the outputs would compute), and against the chain's final output.
import { describe, expect, it } from 'vitest';
import { generateBenchmark } from '../../../shared/benchmark/generate';
import { FAMILY_NAMES } from '../../../shared/benchmark/family';
import type { Trace } from '../../../shared/trace/schema';
import { line, round2 } from './helpers';

const traces = generateBenchmark({ seed: 'gold-check', fit: 12, eval: 12, answers: 'gold' });
const byFamily = (family: string) => traces.filter((t) => t.task === family);

function gold(t: Trace): number {
  return Number(t.turns[0]!.gold);
}

function tableRows(t: Trace): Array<{ item: string; category: string; qty: number; unit_price: number }> {
  const json = line(t, 'TableQuery').replace(/^\d+ rows from \w+: /, '');
  return JSON.parse(json);
}

function readings(t: Trace): number[] {
  const m = /readings: \[([^\]]+)\]/.exec(line(t, 'SensorAPI'))!;
  return m[1]!.split(',').map(Number);
}

function clock(s: string): number {
  const [h, m] = s.split(':').map(Number);
  return h! * 60 + m!;
}

describe('gold answers', () => {
  it('covers every family with fitting and evaluation requests', () => {
    for (const f of FAMILY_NAMES) {
      expect(byFamily(f).filter((t) => t.split === 'fit')).toHaveLength(12);
      expect(byFamily(f).filter((t) => t.split === 'eval')).toHaveLength(12);
    }
  });

  it('table_total: sum of quantity × unit price over the six rows', () => {
    for (const t of byFamily('table_total')) {
      const rows = tableRows(t);
      expect(rows).toHaveLength(6);
      const total = rows.reduce((a, r) => a + r.qty * Math.round(r.unit_price * 100), 0) / 100;
      expect(gold(t)).toBeCloseTo(round2(total), 6);
      expect(line(t, 'Calculator')).toBe(t.turns[0]!.gold);
    }
  });

  it('table_filter: the same sum over the category named in the request', () => {
    for (const t of byFamily('table_filter')) {
      const rows = tableRows(t);
      const category = rows.map((r) => r.category).find((c) => new RegExp(`\\b${c}\\b`).test(t.turns[0]!.request))!;
      const subset = rows.filter((r) => r.category === category);
      expect(subset.length).toBeGreaterThanOrEqual(2);
      expect(gold(t)).toBeCloseTo(round2(subset.reduce((a, r) => a + r.qty * r.unit_price, 0)), 6);
      expect(line(t, 'Calculator')).toBe(t.turns[0]!.gold);
    }
  });

  it('sensor_mean: mean of five readings', () => {
    for (const t of byFamily('sensor_mean')) {
      const r = readings(t);
      expect(r).toHaveLength(5);
      expect(gold(t)).toBeCloseTo(round2(r.reduce((a, b) => a + b, 0) / 5), 6);
      expect(line(t, 'Calculator')).toBe(t.turns[0]!.gold);
    }
  });

  it('sensor_convert: mean, then the requested unit conversion', () => {
    const convert: Record<string, (x: number) => number> = {
      '°C→°F': (x) => x * 1.8 + 32,
      'kPa→psi': (x) => x / 6.894757,
      'm/s→km/h': (x) => x * 3.6,
    };
    for (const t of byFamily('sensor_convert')) {
      const unit = /, (°C|kPa|m\/s)\)/.exec(line(t, 'SensorAPI'))![1]!;
      const target = /(°F|psi|km\/h)/.exec(t.turns[0]!.request)![1]!;
      const mean = readings(t).reduce((a, b) => a + b, 0) / 5;
      const expected = convert[`${unit}→${target}`]!(mean);
      // psi uses a rounded factor in the tool; two decimals still agree.
      expect(Math.abs(gold(t) - expected)).toBeLessThanOrEqual(0.011);
      expect(line(t, 'Calculator')).toBe(t.turns[0]!.gold);
    }
  });

  it('schedule_gap: minutes from the end of one event to the start of the other', () => {
    for (const t of byFamily('schedule_gap')) {
      const events: Array<{ title: string; start: string; end: string }> = JSON.parse(line(t, 'CalendarAPI').replace(/^events on [\d-]+: /, ''));
      const [a, b] = [...t.turns[0]!.request.matchAll(/"([^"]+)"/g)].map((m) => m[1]!);
      const ea = events.find((e) => e.title === a)!;
      const eb = events.find((e) => e.title === b)!;
      expect(gold(t)).toBe(clock(eb.start) - clock(ea.end));
      expect(gold(t)).toBeGreaterThan(0);
    }
  });

  it('doc_two_facts: the two retrieved catalogue prices, added or subtracted', () => {
    for (const t of byFamily('doc_two_facts')) {
      const text = line(t, 'DocRetrieve');
      const names = [...t.turns[0]!.request.matchAll(/the ((?:[A-Z][a-z]+) [a-z ]+?)(?= and| cost| than|,)/g)].map((m) => m[1]!);
      expect(names).toHaveLength(2);
      const price = (name: string) => Number(new RegExp(`the ${name} is listed at ([\\d.]+) EUR`).exec(text)![1]);
      const [p, q] = names.map(price) as [number, number];
      const expected = t.turns[0]!.request.includes('how much more') ? p - q : p + q;
      expect(gold(t)).toBeCloseTo(round2(expected), 6);
    }
  });

  it('translate_fact: the cipher figure of the retrieved note, decoded by Translate', () => {
    for (const t of byFamily('translate_fact')) {
      const note = /Archive note \(written in (\w+)\): (.+?) is ([a-z-]+) metres (tall|long|wide)\./.exec(line(t, 'DocRetrieve'))!;
      const decoded = /is (\d+) metres/.exec(line(t, 'Translate'))![1]!;
      expect(note[3]!.split('-')).toHaveLength(decoded.length);
      // The same cipher word always stands for the same digit.
      const words = note[3]!.split('-');
      words.forEach((w, i) =>
        words.forEach((v, j) => {
          if (w === v) expect(decoded[i]).toBe(decoded[j]);
        }),
      );
      expect(t.turns[0]!.gold).toBe(decoded);
      expect(t.turns[0]!.request).toContain(note[2]!);
    }
  });

  it('fx_settle: price × quantity × rate', () => {
    for (const t of byFamily('fx_settle')) {
      const inv = /Invoice (INV-\d+): (\d+) units of [a-z ]+ at ([\d.]+) (\w+) per unit/.exec(line(t, 'DocRetrieve'))!;
      const fx = /^1 (\w+) = ([\d.]+) (\w+)/.exec(line(t, 'ExchangeRate'))!;
      expect(t.turns[0]!.request).toContain(inv[1]!);
      expect(fx[1]).toBe(inv[4]);
      expect(t.turns[0]!.request).toContain(`in ${fx[3]}`);
      expect(gold(t)).toBeCloseTo(round2(Number(inv[2]) * Number(inv[3]) * Number(fx[2])), 6);
      expect(line(t, 'Calculator')).toBe(t.turns[0]!.gold);
    }
  });

  it('compute_only: the arithmetic written in the request', () => {
    for (const t of byFamily('compute_only')) {
      const expr = t.turns[0]!.request.replace(/^(Compute|What is) /, '')
        .replace(/[.?]$/, '')
        .replace(/×/g, '*')
        .replace(/−/g, '-');
      expect(expr).toMatch(/^[\d()+*\- ]+$/);
      // eslint-disable-next-line @typescript-eslint/no-implied-eval -- the oracle: JavaScript evaluates the checked arithmetic (digits, ( ) + * - only).
      expect(gold(t)).toBe(Function(`return (${expr});`)());
    }
  });

  it('no_tool: the answer is in the request itself', () => {
    for (const t of byFamily('no_tool')) {
      const r = t.turns[0]!.request;
      const list = /list: ([^?.]+)[?.]/.exec(r)![1]!.split(', ');
      expect(gold(t)).toBe(list.length);
    }
  });
});
