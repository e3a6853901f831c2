// Teacher-forced log-probs of a sequence's frozen tokens on one llama.cpp context sequence.
//
// naive: clear the sequence, evaluate everything, read each frozen token's probability from the
//   full-vocabulary distribution. The reference the optimized path is checked against.
// optimized: keep what the KV cache already holds and evaluate only from the first token that
//   differs (the cache is truncated there — never cut in the middle: llama.cpp would shift the later
//   cells without recomputing them). With the fast read (node-llama-cpp built from its patched
//   sources, build/fast-scorer.mjs) each scored position reads exactly log p(f) = l_f − logsumexp(l)
//   in one pass over the logits: no sampler, no sort, no second pass. Without it (the prebuilt
//   binary) it falls back to what the sampler API allows: at the scored positions ask for the greedy token g and its
//   probability p(g) (`confidence`: no vocabulary copy to JS). Where g is the frozen token f that is
//   exact. Where it is not, re-evaluate from the first such position asking there for the top-K
//   distribution (a short list): its entries keep exact logit ratios, so
//   p(f) = p(g) · P_K(f) / P_K(g) = p(g) · exp(l_f − l_g). Only a frozen token outside the top K
//   needs the full distribution (a third, rare pass).
import type { ControlledEvaluateInputItem, ControlledEvaluateIndexOutput, LlamaContextSequence, Token } from 'node-llama-cpp';

import { commonPrefixLength, type ScoringSequence } from './span';
import { ExpectedError } from '../../../shared/api/errors';

/** Smallest positive float32: a probability that underflowed still has a finite log. */
const MIN_PROBABILITY = 1.401298464324817e-45;
const LOG_MIN_PROBABILITY = Math.log(MIN_PROBABILITY);

/** Size of the short list read where the greedy token is not the frozen one. */
const TOP_K = 40;

/** Sampler settings under which node-llama-cpp returns the top-K logits, unscaled, as probabilities
 * normalised over those K (temperature 1 divides by one; top-p 1 and min-p 0 cut nothing). */
const TOP_K_OPTIONS = { temperature: 1, topK: TOP_K, topP: 1, minP: 0, seed: 1 } as const;

export type EvaluationMode = 'naive' | 'optimized';

export interface EvaluationStats {
  /** Tokens decoded (each evaluation of a token counts, re-evaluations included). */
  tokensEvaluated: number;
  /** Scored positions answered by `confidence` (greedy token == frozen token). */
  confidencePositions: number;
  /** Scored positions answered from the top-K list (greedy token != frozen token). */
  topKPositions: number;
  /** Scored positions that needed the full distribution. */
  probabilityPositions: number;
  /** Re-evaluations from a position where the greedy token was not the frozen one. */
  repairs: number;
  /** Tokens those re-evaluations decoded (in tokensEvaluated too): tokensEvaluated − repairTokens is what
   * the plan's order decoded, the figure set against the prefix-tree minimum. */
  repairTokens: number;
  /** Scored positions read in one pass over the logits (the fast read). */
  fastPositions: number;
  /** Prefix tokens taken over from another sequence's KV cells instead of being evaluated. */
  sharedTokens: number;
}

export function emptyStats(): EvaluationStats {
  return {
    tokensEvaluated: 0,
    confidencePositions: 0,
    topKPositions: 0,
    probabilityPositions: 0,
    repairs: 0,
    repairTokens: 0,
    fastPositions: 0,
    sharedTokens: 0,
  };
}

export function addStats(into: EvaluationStats, from: EvaluationStats): void {
  for (const key of Object.keys(into) as (keyof EvaluationStats)[]) into[key] += from[key];
}

export function diffStats(after: EvaluationStats, before: EvaluationStats): EvaluationStats {
  const out = emptyStats();
  for (const key of Object.keys(out) as (keyof EvaluationStats)[]) out[key] = after[key] - before[key];
  return out;
}

/** How scored tokens are read: one pass over the logits, the sampler's greedy token and confidence
 * (with repairs from a top-K list), or the full distribution (the naive reference). */
export type OutputPath = 'fast read' | 'confidence' | 'full distribution';

/** 'auto': the fast read where the binding has it, else confidence; 'confidence': always the sampler path. */
export type ScoringRead = 'auto' | 'confidence';

/** Whether this context's binding has the fast read (node-llama-cpp built from its patched sources). */
export function hasFastRead(context: { supportsTokenLogprob?: boolean }): boolean {
  return context.supportsTokenLogprob === true;
}

export class SequenceRunner {
  readonly stats = emptyStats();

  /** The fast read: exact log-probs in one pass over the logits, and prefixes shared between sequences. */
  readonly fast: boolean;

  /** `read: 'confidence'` keeps the sampler path even where the fast read exists (the tests of that path). */
  constructor(
    readonly sequence: LlamaContextSequence,
    options: { read?: ScoringRead } = {},
  ) {
    this.fast = options.read !== 'confidence' && hasFastRead(sequence.context);
  }

  /** The path the optimized mode reads scored tokens with on this runner. */
  get outputPath(): OutputPath {
    return this.fast ? 'fast read' : 'confidence';
  }

  /**
   * Before scoring `s` here: take over from `source` (a runner of the same context) the longest prefix
   * of `s` its cache holds, when that is longer than what this sequence already holds, by sharing KV
   * cells instead of evaluating them. Only with the fast read, and never for models whose cache keeps
   * only recent cells (SWA without a full cache, hybrid, recurrent).
   */
  async shareFrom(source: SequenceRunner, s: ScoringSequence): Promise<void> {
    if (!this.fast || source === this || this.sequence.needsCheckpoints) return;
    const input = s.tokens.slice(0, s.end - 1);
    const firstOutput = s.start - 1;
    const own = Math.min(commonPrefixLength(this.sequence.contextTokens, input), firstOutput);
    const theirs = Math.min(commonPrefixLength(source.sequence.contextTokens, input), firstOutput);
    if (theirs <= own) return;
    await this.sequence.shareTokensFrom(source.sequence, theirs);
    this.stats.sharedTokens += theirs;
  }

  /** Log-probs of tokens[start..end), in order. `label` names the trace in errors. */
  async logprobs(s: ScoringSequence, mode: EvaluationMode, label: string): Promise<number[]> {
    if (s.start < 1) throw new Error(`${label}: a scored token needs a context before it`);
    if (s.end - 1 > this.sequence.contextSize) {
      throw new ExpectedError(
        'CONTEXT_OVERFLOW',
        `${label} needs ${s.end} tokens but the scoring context holds ${this.sequence.contextSize}; ` +
          'score it with a model (or --context) that has room for it, or shorten the trace.',
      );
    }
    return mode === 'naive' ? this.naive(s, label) : this.optimized(s, label);
  }

  private async naive(s: ScoringSequence, label: string): Promise<number[]> {
    await this.sequence.clearHistory();
    const input = s.tokens.slice(0, s.end - 1);
    const items: ControlledEvaluateInputItem[] = input.map((tok, pos) => (pos >= s.start - 1 ? [tok, { generateNext: { probabilities: true } }] : tok));
    const out = await this.evaluate(items, label);
    const result: number[] = [];
    for (let pos = s.start - 1; pos < s.end - 1; pos++) {
      result.push(logOf(out[pos]?.next.probabilities?.get(s.tokens[pos + 1]!)));
      this.stats.probabilityPositions++;
    }
    return result;
  }

  private async optimized(s: ScoringSequence, label: string): Promise<number[]> {
    const input = s.tokens.slice(0, s.end - 1);
    const firstOutput = s.start - 1;
    const from = Math.min(commonPrefixLength(this.sequence.contextTokens, input), firstOutput);
    await this.truncate(from);
    if (this.fast) return this.fastRead(s, input, from, label);
    const items: ControlledEvaluateInputItem[] = input
      .slice(from)
      .map((tok, k) => (from + k >= firstOutput ? [tok, { generateNext: { token: true, confidence: true } }] : tok));
    const out = await this.evaluate(items, label);
    const result: number[] = new Array<number>(s.end - s.start);
    const mismatched: Array<{ pos: number; greedy: Token; confidence: number }> = [];
    for (let pos = firstOutput; pos < s.end - 1; pos++) {
      const next = out[pos - from]?.next;
      const frozen = s.tokens[pos + 1]!;
      if (next?.token === frozen && next.confidence !== undefined) {
        result[pos - firstOutput] = logOf(next.confidence);
        this.stats.confidencePositions++;
      } else if (next?.token !== undefined && next.token !== null && next.confidence !== undefined) {
        mismatched.push({ pos, greedy: next.token, confidence: next.confidence });
      } else mismatched.push({ pos, greedy: -1 as Token, confidence: Number.NaN });
    }
    if (mismatched.length === 0) return result;

    // Greedy token != frozen token: re-evaluate from the first such position (the cache before it
    // is still valid) and read the top-K list there.
    const outside: number[] = [];
    const topK = await this.reevaluate(
      input,
      mismatched.map((m) => m.pos),
      { probabilities: true, options: TOP_K_OPTIONS },
      label,
    );
    for (const m of mismatched) {
      const list = topK.get(m.pos);
      const pf = list?.get(s.tokens[m.pos + 1]!);
      const pg = list?.get(m.greedy);
      if (pf !== undefined && pg !== undefined && pg > 0 && Number.isFinite(m.confidence)) {
        result[m.pos - firstOutput] = Math.log(Math.max(m.confidence, MIN_PROBABILITY)) + Math.log(pf) - Math.log(pg);
        this.stats.topKPositions++;
      } else outside.push(m.pos);
    }
    if (outside.length === 0) return result;
    const full = await this.reevaluate(input, outside, { probabilities: true }, label);
    for (const pos of outside) {
      result[pos - firstOutput] = logOf(full.get(pos)?.get(s.tokens[pos + 1]!));
      this.stats.probabilityPositions++;
    }
    return result;
  }

  /** One pass: log p(frozen token) = logit − logsumexp(logits) read at every scored position. */
  private async fastRead(s: ScoringSequence, input: readonly Token[], from: number, label: string): Promise<number[]> {
    const firstOutput = s.start - 1;
    const items: ControlledEvaluateInputItem[] = input
      .slice(from)
      .map((tok, k) => (from + k >= firstOutput ? [tok, { generateNext: { tokenLogprob: s.tokens[from + k + 1]! } }] : tok));
    const out = await this.evaluate(items, label);
    const result: number[] = [];
    for (let pos = firstOutput; pos < s.end - 1; pos++) {
      const lp = out[pos - from]?.next.tokenLogprob;
      if (lp === undefined || Number.isNaN(lp)) throw new Error(`${label}: llama.cpp returned no logits at position ${pos}`);
      result.push(Math.max(lp, LOG_MIN_PROBABILITY));
      this.stats.fastPositions++;
    }
    return result;
  }

  /** Truncate to the first of `positions` and evaluate the rest of `input` with `generateNext` there. */
  private async reevaluate(
    input: readonly Token[],
    positions: readonly number[],
    generateNext: { probabilities: true; options?: typeof TOP_K_OPTIONS },
    label: string,
  ): Promise<Map<number, Map<Token, number>>> {
    this.stats.repairs++;
    const redo = positions[0]!;
    const want = new Set(positions);
    await this.truncate(redo);
    const items: ControlledEvaluateInputItem[] = input.slice(redo).map((tok, k) => (want.has(redo + k) ? [tok, { generateNext }] : tok));
    this.stats.repairTokens += items.length;
    const out = await this.evaluate(items, label);
    const lists = new Map<number, Map<Token, number>>();
    for (const pos of positions) {
      const p = out[pos - redo]?.next.probabilities;
      if (p) lists.set(pos, p);
    }
    return lists;
  }

  private async truncate(from: number): Promise<void> {
    const end = this.sequence.nextTokenIndex;
    if (from < end) await this.sequence.eraseContextTokenRanges([{ start: from, end }]);
  }

  private async evaluate(items: ControlledEvaluateInputItem[], label: string): Promise<Array<ControlledEvaluateIndexOutput | undefined>> {
    this.stats.tokensEvaluated += items.length;
    return this.sequence.controlledEvaluate(items, {
      contextShift: {
        // llama.cpp would silently drop the oldest tokens; a score computed that way is wrong.
        strategy: () => {
          throw new ExpectedError('CONTEXT_OVERFLOW', `${label} does not fit in the scoring context (${this.sequence.contextSize} tokens)`);
        },
      },
    });
  }
}

function logOf(p: number | undefined): number {
  return Math.log(Math.max(p ?? 0, MIN_PROBABILITY));
}
