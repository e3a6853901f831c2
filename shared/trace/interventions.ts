// Interventions h^{-s} (paper B.2) as pure functions over the trace model.
// Turn k of a trace is scored with the context: system + menu + turns 0..k-1 in full + turn k's
// request and the steps before its frozen target; the target is turn k's answer, or its last call step
// where the turn ends in a call (shared/trace/target.ts), and no intervention removes it.
// Evidence of s is removed from every step that precedes that target (earlier turns included),
// so a tool called in turn 0 and relied on in turn 2 is scoreable there. Tool documentation
// (the menu) is never changed by an intervention.
import type { Step, Trace, Turn } from './schema';
import { stepsBeforeTarget } from './target';

export type InterventionKind = 'evidence' | 'line' | 'reexecute';
export const INTERVENTION_KINDS: readonly InterventionKind[] = ['evidence', 'line', 'reexecute'];

export interface RemovedStep {
  turn: number;
  step: number;
  /** For a `lines` step, the index of the removed line; absent when the whole step went. */
  line?: number;
}

export interface InterventionResult {
  tool: string;
  kind: InterventionKind;
  /** The trace with s's evidence removed in turns 0..turnIndex (later turns untouched). */
  trace: Trace;
  removed: RemovedStep[];
  /** Other tools whose evidence went with the same removal (a message that called several tools goes whole). */
  sharedWith: string[];
}

/** Re-execution hook: rebuild turn `turnIndex`'s steps as if `tool` had not been served (downstream tools
 * that needed its output return their error). Supplied where an executor exists (the built-in benchmark). */
export interface ReexecuteExecutor {
  reexecuteWithout(trace: Trace, turnIndex: number, tool: string): Trace | Promise<Trace>;
  /** The same without several tools at once (the faithfulness check). Optional: without it the
   * single-tool hook is applied once per tool, each on the previous result. */
  reexecuteWithoutTools?(trace: Trace, turnIndex: number, tools: readonly string[]): Trace | Promise<Trace>;
}

/** Several tools removed together (the faithfulness check removes the top-K at once). */
export interface JointInterventionResult {
  tools: string[];
  kind: InterventionKind;
  /** The trace with the union of the tools' evidence removed in turns 0..turnIndex. */
  trace: Trace;
  removed: RemovedStep[];
  /** Tools outside `tools` whose evidence went too (co-called in a removed message). */
  sharedWith: string[];
}

export function exposedTools(trace: Trace): string[] {
  return [...new Set(trace.tools.map((t) => t.name))].sort();
}

/** Tools with evidence the removal can take away (calls, with their observations, or output lines)
 * before turn `turnIndex`'s answer. An observation goes with its call and counts under the call's
 * name: under its own name (which a log may spell differently, or which may have no call) there would
 * be nothing to remove. */
export function evidenceTools(trace: Trace, turnIndex: number): Set<string> {
  const found = new Set<string>();
  forEachStep(trace, turnIndex, (step) => {
    if (step.kind === 'call') for (const c of step.calls) found.add(c.name);
    else if (step.kind === 'lines') for (const l of step.lines) found.add(l.tool);
  });
  return found;
}

/** Tools with an output line (the single-step protocol) before turn `turnIndex`'s answer. */
export function lineTools(trace: Trace, turnIndex: number): Set<string> {
  const found = new Set<string>();
  forEachStep(trace, turnIndex, (step) => {
    if (step.kind === 'lines') for (const l of step.lines) found.add(l.tool);
  });
  return found;
}

/** Scoreable on a turn = exposed on the menu AND has evidence the intervention can remove. Sorted by name. */
export function scoreableTools(trace: Trace, turnIndex: number, kind: InterventionKind = 'evidence'): string[] {
  const evidence = kind === 'line' ? lineTools(trace, turnIndex) : evidenceTools(trace, turnIndex);
  return exposedTools(trace).filter((name) => evidence.has(name));
}

/** Scoreable anywhere in the record (union over turns). */
export function scoreableToolsOfTrace(trace: Trace, kind: InterventionKind = 'evidence'): string[] {
  const all = new Set<string>();
  for (let t = 0; t < trace.turns.length; t++) for (const s of scoreableTools(trace, t, kind)) all.add(s);
  return [...all].sort();
}

/**
 * Evidence removal: every assistant message that calls `tool` goes, with all observations of its calls
 * (a message calling several tools goes whole; the co-called tools are reported in `sharedWith`);
 * repeated calls go together; `tool`'s output line goes from a `lines` step.
 */
export function removeEvidence(trace: Trace, turnIndex: number, tool: string): InterventionResult {
  return single(tool, removeEvidenceOfTools(trace, turnIndex, [tool]));
}

/**
 * Evidence removal of several tools together: the union of what removeEvidence takes for each one
 * (every message calling any of them, with all its observations; their output lines). A tool outside
 * the set that was co-called in a removed message is reported in `sharedWith`.
 */
export function removeEvidenceOfTools(trace: Trace, turnIndex: number, tools: readonly string[]): JointInterventionResult {
  const names = new Set(tools);
  const removedCallIds = new Set<string>();
  const sharedWith = new Set<string>();
  const removed: RemovedStep[] = [];
  const turns = mapTurns(trace, turnIndex, (turn, t) => {
    const steps: Step[] = [];
    turn.steps.forEach((step, s) => {
      if (step.kind === 'call' && step.calls.some((c) => names.has(c.name))) {
        for (const c of step.calls) {
          removedCallIds.add(c.id);
          if (!names.has(c.name)) sharedWith.add(c.name);
        }
        removed.push({ turn: t, step: s });
        return;
      }
      if (step.kind === 'observation' && removedCallIds.has(step.callId)) {
        removed.push({ turn: t, step: s });
        return;
      }
      if (step.kind === 'lines') {
        const kept = dropLines(step, names, t, s, removed);
        if (kept) steps.push(kept);
        return;
      }
      steps.push(step);
    });
    return steps;
  });
  return { tools: [...names].sort(), kind: 'evidence', trace: { ...trace, turns }, removed, sharedWith: [...sharedWith].sort() };
}

/** Line removal (single-step traces): delete `tool`'s output line; nothing else changes. */
export function removeLine(trace: Trace, turnIndex: number, tool: string): InterventionResult {
  return single(tool, removeLinesOfTools(trace, turnIndex, [tool]));
}

/** Line removal of several tools together: every one of their output lines goes. */
export function removeLinesOfTools(trace: Trace, turnIndex: number, tools: readonly string[]): JointInterventionResult {
  const names = new Set(tools);
  const removed: RemovedStep[] = [];
  const turns = mapTurns(trace, turnIndex, (turn, t) => {
    const steps: Step[] = [];
    turn.steps.forEach((step, s) => {
      if (step.kind === 'lines') {
        const kept = dropLines(step, names, t, s, removed);
        if (kept) steps.push(kept);
      } else steps.push(step);
    });
    return steps;
  });
  return { tools: [...names].sort(), kind: 'line', trace: { ...trace, turns }, removed, sharedWith: [] };
}

/** Re-execute: the executor rebuilds the turn without `tool`; removed positions are those of its evidence. */
export async function removeByReexecution(trace: Trace, turnIndex: number, tool: string, executor: ReexecuteExecutor): Promise<InterventionResult> {
  const rebuilt = await executor.reexecuteWithout(trace, turnIndex, tool);
  const { removed, sharedWith } = removeEvidence(trace, turnIndex, tool);
  return { tool, kind: 'reexecute', trace: rebuilt, removed, sharedWith };
}

/** Re-execute without several tools at once (the executor's joint hook, else one tool after the other). */
export async function removeToolsByReexecution(
  trace: Trace,
  turnIndex: number,
  tools: readonly string[],
  executor: ReexecuteExecutor,
): Promise<JointInterventionResult> {
  let rebuilt: Trace;
  if (executor.reexecuteWithoutTools) rebuilt = await executor.reexecuteWithoutTools(trace, turnIndex, tools);
  else {
    rebuilt = trace;
    for (const tool of tools) rebuilt = await executor.reexecuteWithout(rebuilt, turnIndex, tool);
  }
  const { tools: names, removed, sharedWith } = removeEvidenceOfTools(trace, turnIndex, tools);
  return { tools: names, kind: 'reexecute', trace: rebuilt, removed, sharedWith };
}

/** Apply a synchronous intervention by kind (re-execute needs an executor: use removeByReexecution). */
export function applyIntervention(trace: Trace, turnIndex: number, tool: string, kind: 'evidence' | 'line'): InterventionResult {
  return kind === 'line' ? removeLine(trace, turnIndex, tool) : removeEvidence(trace, turnIndex, tool);
}

/** applyIntervention for several tools removed together. */
export function applyJointIntervention(trace: Trace, turnIndex: number, tools: readonly string[], kind: 'evidence' | 'line'): JointInterventionResult {
  return kind === 'line' ? removeLinesOfTools(trace, turnIndex, tools) : removeEvidenceOfTools(trace, turnIndex, tools);
}

function single(tool: string, joint: JointInterventionResult): InterventionResult {
  return { tool, kind: joint.kind, trace: joint.trace, removed: joint.removed, sharedWith: joint.sharedWith };
}

function dropLines(step: Extract<Step, { kind: 'lines' }>, tools: ReadonlySet<string>, t: number, s: number, removed: RemovedStep[]): Step | null {
  const lines = step.lines.filter((l, i) => {
    if (!tools.has(l.tool)) return true;
    removed.push({ turn: t, step: s, line: i });
    return false;
  });
  if (lines.length === step.lines.length) return step;
  return { ...step, lines };
}

/** Apply `fn` to the steps that precede turn `turnIndex`'s target (earlier turns whole); the target
 * call of turn `turnIndex` and what follows it stay as they are. */
function mapTurns(trace: Trace, turnIndex: number, fn: (turn: Turn, t: number) => Step[]): Turn[] {
  return trace.turns.map((turn, t) => {
    if (t > turnIndex) return turn;
    if (t < turnIndex) return { ...turn, steps: fn(turn, t) };
    const cut = stepsBeforeTarget(turn);
    if (cut === turn.steps.length) return { ...turn, steps: fn(turn, t) };
    return { ...turn, steps: [...fn({ ...turn, steps: turn.steps.slice(0, cut) }, t), ...turn.steps.slice(cut)] };
  });
}

function forEachStep(trace: Trace, turnIndex: number, fn: (step: Step) => void): void {
  for (let t = 0; t <= turnIndex && t < trace.turns.length; t++) {
    const turn = trace.turns[t]!;
    const n = t === turnIndex ? stepsBeforeTarget(turn) : turn.steps.length;
    for (let s = 0; s < n; s++) fn(turn.steps[s]!);
  }
}
