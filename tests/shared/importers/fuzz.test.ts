// Thousands of mutated records per format: the importer never throws, reports every rejected record as
// file:line: reason, and keeps every good record exactly as it imports on its own.
import { describe, expect, it } from 'vitest';
import { importText } from '../../../shared/importers';
import { canonicalJson } from '../../../shared/trace/canonical';
import { checkTraceConsistency, formatLineError } from '../../../shared/trace/validate';
import { corpora, mutate, MUTATIONS, rng } from './fuzz-corpus';

const MUTATED_LINES = 2000;
const GOOD_UNITS = 60;

describe.each(corpora())('fuzz: $format', ({ format, units }) => {
  it(`survives ${MUTATED_LINES} mutated lines and keeps every good record`, () => {
    const rand = rng(0x5eed + format.length * 7919);
    const budget = { huge: 12 };
    const lines: string[] = [];
    const good: Array<{ uid: string; lines: string[] }> = [];
    const mutatedCount = { n: 0 };
    let uidCounter = 0;
    const addGood = (): void => {
      const uid = `good-${format}-${uidCounter++}`;
      const unit = units[Math.floor(rand() * units.length)]!(uid);
      good.push({ uid, lines: unit });
      lines.push(...unit);
    };
    for (let i = 0; i < 4; i++) addGood(); // detection sees good records first
    while (mutatedCount.n < MUTATED_LINES) {
      if (good.length < GOOD_UNITS && rand() < 0.08) {
        addGood();
        continue;
      }
      const uid = `mut-${format}-${uidCounter++}`;
      const unit = units[Math.floor(rand() * units.length)]!(uid);
      // Mutate a few lines of a multi-line unit (span files), the only line otherwise.
      const targets = new Set(Array.from({ length: Math.min(unit.length, 1 + Math.floor(rand() * 3)) }, () => Math.floor(rand() * unit.length)));
      unit.forEach((l, i) => {
        if (targets.has(i)) {
          lines.push(...mutate(l, MUTATIONS[Math.floor(rand() * MUTATIONS.length)]!, rand, budget));
          mutatedCount.n++;
        } else lines.push(l);
      });
    }
    const file = `fuzz-${format}.jsonl`;
    const r = importText(lines.join('\n') + '\n', { file });

    expect(r.fatal).toBeUndefined();
    expect(r.format).toBe(format);
    // Every problem is a `file:line: reason` with a real line and no internal error.
    for (const e of r.errors) {
      expect(e.file).toBe(file);
      expect(Number.isInteger(e.line) && e.line >= 1 && e.line <= lines.length).toBe(true);
      expect(e.message.length).toBeGreaterThan(0);
      expect(e.message).not.toMatch(/internal error/);
      expect(formatLineError(e)).toBe(`${file}:${e.line}: ${e.message}`);
    }
    for (const t of r.traces) expect(checkTraceConsistency(t.trace)).toBeNull();
    // Every line that is not JSON is reported on its own line.
    const errorLines = new Set(r.errors.map((e) => e.line));
    lines.forEach((l, i) => {
      let ok = true;
      try {
        JSON.parse(l);
      } catch {
        ok = false;
      }
      if (!ok) expect(errorLines.has(i + 1)).toBe(true);
    });
    // Record formats: every line became a trace or a reported error.
    if (!['otel', 'openinference', 'langfuse'].includes(format)) {
      const traceLines = new Set(r.traces.map((t) => t.line));
      lines.forEach((_, i) => expect(traceLines.has(i + 1) || errorLines.has(i + 1)).toBe(true));
    }
    // Every good record is kept, exactly as it imports alone.
    const byId = new Map<string, string[]>();
    for (const t of r.traces) byId.set(t.trace.id, [...(byId.get(t.trace.id) ?? []), canonicalJson(t.trace)]);
    expect(good.length).toBeGreaterThan(20);
    for (const g of good) {
      const alone = importText(g.lines.join('\n'), { file: 'alone.jsonl', format });
      expect(alone.errors).toEqual([]);
      expect(alone.traces).toHaveLength(1);
      const expected = canonicalJson(alone.traces[0]!.trace);
      expect(byId.get(alone.traces[0]!.trace.id)).toEqual([expected]);
    }
  });
});
