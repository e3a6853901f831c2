// Keys of stored scores: a trace scored once with a model file, intervention and span is never
// scored again (shared/project/scores.ts: key = run + trace hash).
import { runKey, type ScoreSpan } from '../../../shared/project/scores';

export function scoreRun(modelHash: string, intervention: string, span: ScoreSpan): string {
  return runKey(modelHash, intervention, span);
}

export function scoreKey(run: string, traceHash: string): string {
  return `${run}|${traceHash}`;
}
