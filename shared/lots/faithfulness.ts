// The faithfulness check (ContextCite's test, applied to a task ranking): remove the ranking's top-K
// tools from a request together and see how far the frozen answer's likelihood falls, next to what the
// single-tool scores add up to (the additive surrogate) and to the fall when K of the request's
// scoreable tools drawn at random go instead. A ranking that found what the answers rely on shows a
// joint drop well above the random one. Pure: which tools to remove, and the summary; the engine
// evaluates the likelihoods.
import { fsum } from './fsum';
import { fnv1a, mulberry32, sampleDistinct } from './prng';

export interface RemovalSets {
  /** The request's top-K, in ranking order. */
  top: string[];
  /** `draws` K-subsets of the request's scoreable tools, each sorted by name. */
  random: string[][];
}

/**
 * The sets removed on one scored turn for budget `k`: its top-K is the K best-ranked tools among the
 * ones scoreable there (a tool the ranking does not know comes last, by name), so both the top-K and the
 * random draws remove exactly K tools with evidence. Null when the turn has fewer than K scoreable tools.
 */
export function faithfulnessSets(ranking: readonly string[], scoreable: readonly string[], k: number, draws: number, rng: () => number): RemovalSets | null {
  if (k < 1 || scoreable.length < k) return null;
  const here = new Set(scoreable);
  const order = ranking.filter((t) => here.has(t));
  const known = new Set(order);
  for (const t of [...scoreable].sort()) if (!known.has(t)) order.push(t);
  const random: string[][] = [];
  for (let d = 0; d < draws; d++) random.push(sampleDistinct(scoreable, k, rng).sort());
  return { top: order.slice(0, k), random };
}

/** A reproducible stream for one (seed, request, turn, K) whatever else is checked in the same run. */
export function faithfulnessRng(seed: number, ...parts: ReadonlyArray<string | number>): () => number {
  // FNV-1a over the parts, mixed with the seed: mulberry32 wants one 32-bit seed.
  return mulberry32(fnv1a(parts.join('\u0000'), 0x811c9dc5 ^ (seed >>> 0)));
}

/** One turn's measurements at budget k (drops in nats of mean log-prob per answer token). */
export interface TurnFaithfulness {
  k: number;
  /** L(y|h) − L(y|h^{−TopK}). */
  joint: number;
  /** Σ_{s∈TopK} I(s) on this turn (stored single-tool scores). */
  additive: number;
  /** L(y|h) − L(y|h^{−R}) for each random draw R. */
  random: number[];
}

/** One request at budget k: its turns averaged, as multi-turn scores are. */
export interface RequestFaithfulness {
  trace: string;
  k: number;
  joint: number;
  additive: number;
  /** Mean over the draws. */
  random: number;
  turns: number;
}

export function requestFaithfulness(trace: string, turns: readonly TurnFaithfulness[]): RequestFaithfulness[] {
  const byK = new Map<number, TurnFaithfulness[]>();
  for (const t of turns) {
    let list = byK.get(t.k);
    if (!list) byK.set(t.k, (list = []));
    list.push(t);
  }
  return [...byK]
    .sort((a, b) => a[0] - b[0])
    .map(([k, list]) => ({
      trace,
      k,
      joint: mean(list.map((t) => t.joint)),
      additive: mean(list.map((t) => t.additive)),
      random: mean(list.map((t) => mean(t.random))),
      turns: list.length,
    }));
}

export interface FaithfulnessSummary {
  k: number;
  /** Requests measured at this K (those with at least K scoreable tools on a scored turn). */
  n: number;
  joint: number;
  additive: number;
  random: number;
  /** Share of those requests whose top-K drop exceeds their mean random drop. */
  beatsRandom: number;
}

/** Means over requests, per K. A K of `ks` that no request could measure (none has K scoreable tools)
 * is kept with n = 0, so a check at too large a K says so instead of vanishing. */
export function summarizeFaithfulness(requests: readonly RequestFaithfulness[], ks: readonly number[] = []): FaithfulnessSummary[] {
  const byK = new Map<number, RequestFaithfulness[]>(ks.map((k) => [k, []]));
  for (const r of requests) {
    let list = byK.get(r.k);
    if (!list) byK.set(r.k, (list = []));
    list.push(r);
  }
  return [...byK]
    .sort((a, b) => a[0] - b[0])
    .map(([k, list]) => ({
      k,
      n: list.length,
      joint: mean(list.map((r) => r.joint)),
      additive: mean(list.map((r) => r.additive)),
      random: mean(list.map((r) => r.random)),
      beatsRandom: list.length === 0 ? 0 : list.filter((r) => r.joint > r.random).length / list.length,
    }));
}

/** The check in one plain sentence (drops are in nats of mean log-probability per answer token). */
export function faithfulnessVerdict(p: Pick<FaithfulnessSummary, 'k' | 'n' | 'joint' | 'random'>): string {
  if (p.n === 0) return `No request has ${p.k} tools with evidence to remove, so K = ${p.k} cannot be checked: choose a smaller K.`;
  const top = p.k === 1 ? 'the top tool' : `the top ${p.k} tools together`;
  const random = p.k === 1 ? 'a random tool' : `${p.k} random tools`;
  if (p.joint <= 0) return `Removing ${top} does not lower the answer's likelihood: this ranking is not what the model relied on.`;
  if (p.random <= 0) return `Removing ${top} lowers the answer's log-likelihood by ${p.joint.toFixed(3)} per token; removing ${random} does not lower it.`;
  const times = p.joint / p.random;
  const verdict = times >= 2 ? 'the ranking found what the answers rely on' : times > 1 ? 'only somewhat better than chance' : 'no better than chance';
  return `Removing ${top} lowers the answer's log-likelihood by ${p.joint.toFixed(3)} per token, ${times.toFixed(1)}× the drop from removing ${random}: ${verdict}.`;
}

function mean(values: readonly number[]): number {
  return values.length === 0 ? 0 : fsum(values) / values.length;
}
