// What the label-using searches (TTO†, Beam†) share: a candidate menu's fitting accuracy, served through
// `SelectionContext.serveFit` once per distinct set of tools, with the cost of every candidate counted
// (the requests served and their prompt tokens: the paper's Table 20 "TTO/Beam selection").
import type { SelectionContext, SelectionCost } from './method';

export class FitMeasure {
  private readonly seen = new Map<string, number>();
  private promptTokens = 0;
  private calls = 0;
  private readonly started = performance.now();

  constructor(private readonly ctx: SelectionContext) {}

  /** Fitting accuracy of a menu (its tools in any order). */
  async accuracy(menu: readonly string[]): Promise<number> {
    const key = canonicalKey(menu);
    const known = this.seen.get(key);
    if (known !== undefined) return known;
    this.ctx.signal?.throwIfAborted();
    const served = await this.ctx.serveFit!(menu, this.ctx.signal);
    this.promptTokens += served.requests.reduce((a, r) => a + r.promptTokens, 0);
    this.calls += served.requests.length;
    this.seen.set(key, served.accuracy);
    return served.accuracy;
  }

  get candidates(): number {
    return this.seen.size;
  }

  cost(): SelectionCost {
    return { per: 'fit', promptTokens: this.promptTokens, calls: this.calls, candidates: this.seen.size, seconds: (performance.now() - this.started) / 1000 };
  }
}

export function canonicalKey(menu: readonly string[]): string {
  return [...new Set(menu)].sort().join(',');
}

/** Tools in code-unit order: the tie-break of every search step, so a search is deterministic. */
export function byName(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

export function fitAccuracyText(x: number): string {
  return x.toFixed(2);
}
