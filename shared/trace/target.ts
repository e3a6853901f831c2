// The frozen target of a turn (paper B.2): its last assistant message. Usually the final text answer;
// where the turn ends in a function call (`target: 'call'`), that call step — never removed by an
// intervention, and scored as the serialized call. Steps after the target call (its observations) are
// context for later turns, not for this one.
import type { CallStep, Step, Turn } from './schema';

/** Index of the last call step of `steps`, or -1. */
export function lastCallStep(steps: readonly Step[]): number {
  for (let i = steps.length - 1; i >= 0; i--) if (steps[i]!.kind === 'call') return i;
  return -1;
}

/** The call step that is the turn's frozen target, when the target is a call. */
export function targetCall(turn: Turn): { index: number; step: CallStep } | undefined {
  if (turn.target !== 'call') return undefined;
  const index = lastCallStep(turn.steps);
  return index < 0 ? undefined : { index, step: turn.steps[index] as CallStep };
}

/** How many of the turn's steps precede its frozen target (all of them for a text answer). */
export function stepsBeforeTarget(turn: Turn): number {
  return targetCall(turn)?.index ?? turn.steps.length;
}

/** Whether the turn has something to score: a non-empty answer or a call target. */
export function hasTarget(turn: Turn): boolean {
  return turn.answer !== '' || turn.target === 'call';
}

/** A turn whose target is a call: its problem in words, or null when it is consistent. */
export function callTargetProblem(turn: Turn): string | null {
  if (turn.target !== 'call') return null;
  if (turn.answer !== '')
    return `target "call" means the last call step is the frozen answer, so answer must be "" (got ${JSON.stringify(turn.answer.slice(0, 40))})`;
  const index = lastCallStep(turn.steps);
  if (index < 0) return 'target "call" needs a call step (the call that is the frozen answer); the turn has none';
  const later = turn.steps.slice(index + 1).findIndex((s) => s.kind === 'message' && s.role === 'assistant');
  if (later >= 0)
    return `target "call" needs the call to be the turn's last assistant message, but steps[${index + 1 + later}] is an assistant message after it`;
  return null;
}
