// The benchmark's request texts as a router sees them (paper D.1): no family name occurs in a request,
// which the paper verifies before clustering, and the two pairs of families that share a tool chain
// (table_total/table_filter, sensor_mean/sensor_convert) share no request wording once the scene's
// values are taken out — each family has its own templates, as TGB's have.
import { describe, expect, it } from 'vitest';
import { FAMILY_NAMES } from '../../../shared/benchmark/family';
import { generateBenchmark } from '../../../shared/benchmark/generate';

const traces = generateBenchmark({ seed: 'request-text', fit: 40, eval: 40 });
const requestsOf = (family: string) => traces.filter((t) => t.task === family).map((t) => t.turns[0]!.request);

/** A request with the scene's values (numbers, ids, quoted titles, table and category names, units) masked. */
function wording(request: string): string {
  return request
    .replace(/"[^"]*"/g, '"_"')
    .replace(/\b(inventory|stock_ledger|warehouse_items|store_inventory|hardware|office|kitchen|garden)\b/g, '_')
    .replace(/\b[A-Z]{2}-\d+\b/g, '_')
    .replace(/°F|psi|km\/h/g, '_')
    .replace(/\d+(\.\d+)?/g, '_');
}

describe('benchmark request texts', () => {
  it('never name a family', () => {
    for (const t of traces) {
      for (const family of FAMILY_NAMES) {
        expect(t.turns[0]!.request).not.toContain(family);
        expect(t.turns[0]!.request.toLowerCase()).not.toContain(family.replace('_', ' '));
      }
    }
  });

  it('give each family of a shared tool chain its own templates', () => {
    for (const [a, b] of [
      ['table_total', 'table_filter'],
      ['sensor_mean', 'sensor_convert'],
    ] as const) {
      const left = new Set(requestsOf(a).map(wording));
      const right = new Set(requestsOf(b).map(wording));
      expect(left.size).toBeGreaterThan(1);
      expect(right.size).toBeGreaterThan(1);
      expect([...left].filter((w) => right.has(w))).toEqual([]);
      // Nor does one family's wording contain the other's opening words.
      const opening = (w: string) => w.split(' ').slice(0, 4).join(' ');
      expect([...left].map(opening).filter((o) => [...right].some((w) => opening(w) === o))).toEqual([]);
    }
  });
});
