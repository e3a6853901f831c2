// Property tests (seeded, so a failure reproduces) for the identities of Theorem 1 (Appendix E.1)
// and for the determinism of the ranking.
import { describe, expect, it } from 'vitest';
import type { ScoreRow } from '../../../shared/project/scores';
import { aggregateTaskScores } from '../../../shared/lots/aggregate';
import { mulberry32, shuffle } from '../../../shared/lots/prng';
import { rankTools, type Scored } from '../../../shared/lots/rank';
import { selectTopK } from '../../../shared/lots/select';
import { surrogateCurve, surrogateValue } from '../../../shared/lots/surrogate';
import { fsum } from '../../../shared/lots/fsum';

const EPS = 1e-9;

/** A random set function F over subsets (bitmasks) of m tools, with random ties sprinkled in. */
function randomSetFunction(rng: () => number, m: number): Float64Array {
  const f = new Float64Array(1 << m);
  for (let mask = 0; mask < f.length; mask++) f[mask] = rng() < 0.1 ? -1 : -3 + 2 * rng();
  return f;
}

function popcount(x: number): number {
  let c = 0;
  for (; x; x &= x - 1) c++;
  return c;
}

function subsetsOfSize(m: number, k: number): number[] {
  const out: number[] = [];
  for (let mask = 0; mask < 1 << m; mask++) if (popcount(mask) === k) out.push(mask);
  return out;
}

const names = (m: number) => Array.from({ length: m }, (_, i) => `t${i}`);
const toolsOf = (mask: number, m: number) => names(m).filter((_, i) => mask & (1 << i));

/** Ī(s) = F(S) − F(S∖{s}) (eq. 11). */
function looScores(f: Float64Array, m: number, rng: () => number): Scored[] {
  const full = (1 << m) - 1;
  const scores = names(m).map((tool, i) => ({ tool, mean: f[full]! - f[full & ~(1 << i)]! }));
  // Force exact ties now and then, so tie-breaking is exercised.
  if (m > 2 && rng() < 0.5) scores[1]!.mean = scores[0]!.mean;
  return scores;
}

describe('Theorem 1 identities (brute force over small menus)', () => {
  const rng = mulberry32(20240601);
  for (let trial = 0; trial < 40; trial++) {
    const m = 2 + (trial % 5); // 2..6 tools
    const f = randomSetFunction(rng, m);
    const full = (1 << m) - 1;
    const scores = looScores(f, m, rng);
    const ranking = rankTools(scores);

    it(`trial ${trial} (m=${m}): top-K maximises F̂ over every |A|=K, F̂ = F at S`, () => {
      expect(surrogateValue(ranking, names(m), f[full])).toBe(f[full]!);
      for (let k = 0; k <= m; k++) {
        const top = selectTopK(ranking, k);
        const topValue = surrogateValue(ranking, top, f[full]);
        for (const mask of subsetsOfSize(m, k)) {
          expect(surrogateValue(ranking, toolsOf(mask, m), f[full])).toBeLessThanOrEqual(topValue + EPS);
        }
        expect(surrogateCurve(ranking, f[full])[k]!.value).toBeCloseTo(topValue, 12);
      }
    });

    it(`trial ${trial} (m=${m}): F̂ = F at every single deletion and within C(r,2)·β elsewhere`, () => {
      for (let i = 0; i < m; i++) {
        const mask = full & ~(1 << i);
        // Ties were forced by overwriting a score, so compare against the scores actually used.
        const expected = f[full]! - scores[i]!.mean;
        expect(surrogateValue(ranking, toolsOf(mask, m), f[full])).toBeCloseTo(expected, 12);
      }
      if (scores.some((s, i) => s.mean !== f[full]! - f[full & ~(1 << i)]!)) return; // bound needs true LOO scores
      for (let k = 0; k <= m; k++) {
        const r = m - k;
        let beta = 0;
        for (let b = 0; b <= full; b++) {
          const size = popcount(b);
          if (size < k || size > m - 2) continue;
          for (let s = 0; s < m; s++)
            for (let u = s + 1; u < m; u++) {
              if (b & (1 << s) || b & (1 << u)) continue;
              const d = f[b | (1 << s) | (1 << u)]! - f[b | (1 << s)]! - f[b | (1 << u)]! + f[b]!;
              beta = Math.max(beta, Math.abs(d));
            }
        }
        let best = -Infinity;
        for (const mask of subsetsOfSize(m, k)) {
          const approx = surrogateValue(ranking, toolsOf(mask, m), f[full]);
          expect(Math.abs(f[mask]! - approx)).toBeLessThanOrEqual(((r * (r - 1)) / 2) * beta + EPS);
          best = Math.max(best, f[mask]!);
        }
        const chosen = selectTopK(ranking, k).reduce((mask, t) => mask | (1 << Number(t.slice(1))), 0);
        expect(best - f[chosen]!).toBeLessThanOrEqual(r * (r - 1) * beta + EPS);
        expect(best - f[chosen]!).toBeGreaterThanOrEqual(0);
      }
    });
  }
});

function randomRows(rng: () => number, n: number, m: number): ScoreRow[] {
  const rows: ScoreRow[] = [];
  for (let i = 0; i < n; i++) {
    const exposed = names(m).filter(() => rng() < 0.7);
    const scores: Record<string, number> = {};
    for (const t of exposed) if (rng() < 0.6) scores[t] = rng() < 0.2 ? 0 : Math.round((rng() * 2 - 1) * 10) / 10; // coarse values → ties
    rows.push({ trace: `r${i}`, task: rng() < 0.5 ? 'a' : 'b', exposed, scores });
  }
  return rows;
}

describe('ranking determinism', () => {
  it('is the same under any permutation of the rows (and of keys within a row)', () => {
    const rng = mulberry32(7);
    for (let trial = 0; trial < 30; trial++) {
      const rows = randomRows(rng, 5 + Math.floor(rng() * 60), 2 + Math.floor(rng() * 10));
      const summary = (rs: ScoreRow[]) =>
        aggregateTaskScores(rs).map((t) => ({
          task: t.task,
          ranking: rankTools(t.tools).map((s) => [s.tool, s.mean, s.n, s.exposed]),
          unscored: t.unscored,
        }));
      const expected = summary(rows);
      for (let p = 0; p < 3; p++) {
        const permuted = shuffle(rows, rng).map((r) => ({
          ...r,
          exposed: shuffle(r.exposed, rng),
          scores: Object.fromEntries(shuffle(Object.entries(r.scores), rng)),
        }));
        expect(summary(permuted)).toEqual(expected);
      }
    }
  });
});

describe('fsum', () => {
  it('gives the correctly rounded sum whatever the order', () => {
    expect(fsum([0.1, 0.2, 0.3])).toBe(0.6);
    expect(fsum([0.3, 0.2, 0.1])).toBe(0.6);
    expect(fsum([1e100, 1, -1e100])).toBe(1);
    expect(fsum([])).toBe(0);
    const rng = mulberry32(3);
    for (let t = 0; t < 50; t++) {
      const xs = Array.from({ length: 40 }, () => (rng() - 0.5) * 10 ** Math.floor(rng() * 20 - 10));
      expect(fsum(shuffle(xs, rng))).toBe(fsum(xs));
    }
  });
});
