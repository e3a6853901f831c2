// Keys of stored scores: a trace scored once with a model file, intervention, span and rendering
// format is never scored again (shared/project/scores.ts: key = run + trace hash).
import { runKey, type ScoreSpan } from '../../../shared/project/scores';

/** `format` is the renderer's ('plain' or the chat wrapper's name). */
export function scoreRun(modelHash: string, intervention: string, span: ScoreSpan, format: string): string {
  return runKey(modelHash, intervention, span, renderFormatName(format));
}

/** The format as it appears in a run key: '|' would split the key, so it cannot stay. */
export function renderFormatName(format: string): string {
  return format.replace(/\|/g, '_');
}

export function scoreKey(run: string, traceHash: string): string {
  return `${run}|${traceHash}`;
}
