// What the Trace view previews for a tool: the intervention the shown score was computed with, not a
// default one (issue 40). Evidence and line removal are pure functions of the trace; re-execution
// rebuilds a benchmark request without the tool (shared/benchmark/trace.ts, the same code the scorer
// runs), so the preview shows the tool lines the model really read, downstream errors included.
import { reexecuteWithout } from '../../shared/benchmark/trace';
import { applyIntervention, type InterventionKind, type RemovedStep } from '../../shared/trace/interventions';
import type { Trace } from '../../shared/trace/schema';

export interface InterventionPreview {
  kind: InterventionKind;
  removed: RemovedStep[];
  sharedWith: string[];
  /** Re-execute only: per `turn.step.line` key, the output that line has when the request runs again. */
  changed: Map<string, string>;
  /** Re-execute only, when the trace cannot be rebuilt here: why (the positions shown are the evidence's). */
  error?: string;
}

/** The label a user reads for an intervention kind. */
export const INTERVENTION_LABEL: Record<InterventionKind, string> = {
  evidence: 'evidence removal',
  line: 'line removal',
  reexecute: 're-execute',
};

/** The kind a stored score names; scores without one were computed with evidence removal (the default). */
export function interventionOf(score: { intervention?: string | undefined } | null): InterventionKind {
  const k = score?.intervention;
  return k === 'line' || k === 'reexecute' ? k : 'evidence';
}

export function previewIntervention(trace: Trace, turn: number, tool: string, kind: InterventionKind): InterventionPreview {
  if (kind !== 'reexecute') {
    const r = applyIntervention(trace, turn, tool, kind);
    return { kind, removed: r.removed, sharedWith: r.sharedWith, changed: new Map() };
  }
  const evidence = applyIntervention(trace, turn, tool, 'evidence');
  const base = { kind, removed: evidence.removed, sharedWith: evidence.sharedWith, changed: new Map<string, string>() };
  let rebuilt: Trace;
  try {
    rebuilt = reexecuteWithout(trace, turn, tool);
  } catch (e) {
    return { ...base, error: e instanceof Error ? e.message : String(e) };
  }
  // Compare the served tools' lines, tool by tool: a line that is gone is the removal, one whose output
  // differs is a downstream tool that lost its input.
  const before = trace.turns[turn]?.steps ?? [];
  const after = new Map<string, string>();
  for (const step of rebuilt.turns[turn]?.steps ?? []) if (step.kind === 'lines') for (const l of step.lines) after.set(l.tool, l.output);
  const removed: RemovedStep[] = [];
  before.forEach((step, s) => {
    if (step.kind !== 'lines') return;
    step.lines.forEach((l, li) => {
      const now = after.get(l.tool);
      if (now === undefined) removed.push({ turn, step: s, line: li });
      else if (now !== l.output) base.changed.set(`${turn}.${s}.${li}`, now);
    });
  });
  return { ...base, removed: removed.length > 0 ? removed : evidence.removed };
}
