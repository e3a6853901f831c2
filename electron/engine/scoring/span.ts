// Where the scored tokens are inside the full sequence (paper B.2). The answer is never tokenized on
// its own: its first token is the first position where "context + answer" and "context alone" differ
// (longest common token prefix), so a token that merges across the boundary is scored, not lost.
// A turn whose target is a call (shared/trace/target.ts) scores the serialized call: its text and calls
// in the model's own tool-call format, the same string under every context.
import type { Token } from 'node-llama-cpp';
import type { ScoreSpan, UnscoredReason } from '../../../shared/project/scores';
import type { Trace } from '../../../shared/trace/schema';
import type { TraceRenderer } from './chat-template';

/** A sequence to evaluate: tokens[start..end) are the frozen tokens whose log-probs are averaged. */
export interface ScoringSequence {
  tokens: Token[];
  start: number;
  end: number;
}

export type LocatedTarget = { sequence: ScoringSequence } | { unscored: UnscoredReason };

export function commonPrefixLength(a: readonly Token[], b: readonly Token[]): number {
  const n = Math.min(a.length, b.length);
  let i = 0;
  while (i < n && a[i] === b[i]) i++;
  return i;
}

/**
 * The answer expression (paper B.2, GTA): the first number-like span — a number with optional sign,
 * currency symbol, thousands separators, decimals or percent — else the last non-empty line.
 * Returns [start, end) character offsets, or undefined for an empty answer.
 */
export function findExpression(answer: string): [number, number] | undefined {
  const m = /[-+−]?[$€£¥]?\d(?:[\d,]*\d)?(?:\.\d+)?%?/.exec(answer);
  if (m) return [m.index, m.index + m[0].length];
  const lines = answer.split('\n');
  let offset = answer.length;
  for (let i = lines.length - 1; i >= 0; i--) {
    offset -= lines[i]!.length;
    const text = lines[i]!.trim();
    if (text) {
      const lead = lines[i]!.indexOf(text);
      return [offset + lead, offset + lead + text.length];
    }
    offset -= 1; // the newline before this line
  }
  return undefined;
}

/**
 * Render turn `turnIndex` with its frozen target and locate the scored tokens, or say why there is
 * nothing to score. The sequence is cut after the last scored token: what follows it cannot change
 * its probability. A call target is scored whole under either span (it has no answer expression).
 */
export function locateTarget(renderer: TraceRenderer, trace: Trace, turnIndex: number, span: ScoreSpan): LocatedTarget {
  const turn = trace.turns[turnIndex]!;
  const contextOnly = (): Token[] => renderer.render(trace, turnIndex, '');
  if (turn.target === 'call') {
    const full = renderer.renderCallTarget(trace, turnIndex);
    const start = commonPrefixLength(full, contextOnly());
    return start < full.length ? { sequence: { tokens: full, start, end: full.length } } : { unscored: 'no-tokens' };
  }
  const answer = turn.answer;
  if (!answer) return { unscored: 'empty-answer' };
  const full = renderer.render(trace, turnIndex, answer);
  const answerStart = commonPrefixLength(full, contextOnly());
  if (span === 'answer') return answerStart < full.length ? { sequence: { tokens: full, start: answerStart, end: full.length } } : { unscored: 'no-tokens' };
  if (span === 'answer-eot') {
    // The answer's tokens, then the token the model ends it with: a context where it would go on ("1" of
    // "12.5") gives that token a low probability, one where it would stop a high one.
    if (answerStart >= full.length || renderer.endOfAnswer.length === 0) return { unscored: 'no-tokens' };
    const tokens = [...full, ...renderer.endOfAnswer];
    return { sequence: { tokens, start: answerStart, end: tokens.length } };
  }

  const expr = findExpression(answer);
  if (!expr) return { unscored: 'no-expression' };
  const before = renderer.render(trace, turnIndex, answer.slice(0, expr[0]));
  const through = renderer.render(trace, turnIndex, answer.slice(0, expr[1]));
  const start = Math.max(answerStart, commonPrefixLength(full, before));
  let end = commonPrefixLength(full, through);
  // A token that straddles the end of the expression belongs to it (it carries its last characters).
  if (end < through.length && end < full.length) end++;
  if (end <= start) return { unscored: 'no-tokens' };
  return { sequence: { tokens: full.slice(0, end), start, end } };
}

/** locateTarget's sequence, or undefined when the turn has nothing to score. */
export function locateScoredTokens(renderer: TraceRenderer, trace: Trace, turnIndex: number, span: ScoreSpan): ScoringSequence | undefined {
  const located = locateTarget(renderer, trace, turnIndex, span);
  return 'sequence' in located ? located.sequence : undefined;
}
