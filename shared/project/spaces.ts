// Tool spaces: every accepted version of a task's space is kept (E_t^(0), E_t^(1), …).
//
// Three states per tool (docs/spaces.md): *pinned* — documented in full and loaded up front; *deferred* —
// callable but not loaded up front (Anthropic/OpenAI `defer_loading`, or the paper's documentation
// demotion, Appendix B.1: name and short description, no parameter schema); *hidden* — not offered.
// A version stores the pinned tools in `tools` (the field's name and meaning predate the third state) and
// the deferred ones in `deferred`; every other tool of the task is hidden. Backward compatible: a version
// file written before `deferred` existed reads with `deferred: []`, i.e. its kept tools pinned and the rest
// hidden — exactly how it was served.
import { z } from 'zod';
import { ownRecord } from '../trace/own-record';

export const SelectionRuleSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('topk'), k: z.number().int().positive() }),
  z.object({ kind: z.literal('threshold'), tau: z.number() }),
  z.object({ kind: z.literal('support'), tau: z.number(), phi: z.number().min(0).max(1) }),
  z.object({ kind: z.literal('manual') }),
]);
export type SelectionRule = z.infer<typeof SelectionRuleSchema>;

export const SpaceVersionSchema = z.object({
  version: z.number().int().nonnegative(),
  task: z.string().min(1),
  /** The pinned tools (documented in full, loaded up front), in ranking order. */
  tools: z.array(z.string()),
  /** The deferred tools (callable, not loaded up front), in ranking order; absent in versions written
   * before the third state existed, which read as none deferred. */
  deferred: z.array(z.string()).default([]),
  /** The operator's `pin` edits: always in `tools`, whatever the rule says (a subset of `tools`). */
  pinned: z.array(z.string()).default([]),
  /** The operator's `ban` edits: always hidden. */
  banned: z.array(z.string()).default([]),
  /** The operator's `defer` edits: always deferred, whatever the rule says (a subset of `deferred`). */
  deferEdits: z.array(z.string()).default([]),
  rule: SelectionRuleSchema,
  /** Why this version was accepted (required for edits). */
  note: z.string(),
  /** The scoring run the ranking came from. */
  run: z.string().optional(),
  /** Running scores Ĩ_t(s) at acceptance (B.3). */
  runningScores: ownRecord(z.string(), z.number()).optional(),
  createdAt: z.string(),
});
export type SpaceVersion = z.infer<typeof SpaceVersionSchema>;

/** What the store records as a new version: numbered and dated by the store; no deferred tools when absent. */
export type SpaceAcceptance = Omit<SpaceVersion, 'version' | 'createdAt' | 'deferred' | 'deferEdits'> &
  Partial<Pick<SpaceVersion, 'deferred' | 'deferEdits'>> & { createdAt?: string };

export const TaskSpacesSchema = z.object({
  task: z.string().min(1),
  versions: z.array(SpaceVersionSchema),
});
export type TaskSpaces = z.infer<typeof TaskSpacesSchema>;

export const TOOL_STATES = ['pinned', 'deferred', 'hidden'] as const;
export type ToolState = (typeof TOOL_STATES)[number];

/** The state of one tool in a version: pinned when in `tools`, deferred when in `deferred`, else hidden. */
export function toolStateIn(version: Pick<SpaceVersion, 'tools' | 'deferred'>, tool: string): ToolState {
  if (version.tools.includes(tool)) return 'pinned';
  if (version.deferred.includes(tool)) return 'deferred';
  return 'hidden';
}

/** Which tools changed state between two versions (for `lots space diff` and the editor). */
export function diffStates(
  before: Pick<SpaceVersion, 'tools' | 'deferred'> | null,
  after: Pick<SpaceVersion, 'tools' | 'deferred'>,
): { tool: string; from: ToolState; to: ToolState }[] {
  const names = new Set([...(before?.tools ?? []), ...(before?.deferred ?? []), ...after.tools, ...after.deferred]);
  const out: { tool: string; from: ToolState; to: ToolState }[] = [];
  for (const tool of names) {
    const from = before ? toolStateIn(before, tool) : 'hidden';
    const to = toolStateIn(after, tool);
    if (from !== to) out.push({ tool, from, to });
  }
  return out;
}

/** Difference between two spaces (for the editor's diff view and `lots export` notes). */
export function diffSpaces(before: readonly string[], after: readonly string[]): { added: string[]; removed: string[]; kept: string[] } {
  const a = new Set(before);
  const b = new Set(after);
  return {
    added: after.filter((t) => !a.has(t)),
    removed: before.filter((t) => !b.has(t)),
    kept: after.filter((t) => a.has(t)),
  };
}

/** A task's space as the Space view and `lots space` see it (the API's `getSpace`). */
export interface SpaceCandidate {
  tool: string;
  rank: number | null;
  mean: number | null;
  n: number;
}

export interface SpaceState {
  task: string;
  versions: SpaceVersion[];
  approved: SpaceVersion | null;
  /** The rule's top-K pinned (`tools`), the task's other observed tools deferred, the rest hidden. */
  proposal: { tools: string[]; deferred: string[]; rule: SelectionRule; run: string | null };
  /** Every tool on the task's menus, ranked ones first. */
  candidates: SpaceCandidate[];
  changedSinceApproval: boolean;
  /** The latest continual-update proposal (History view, `lots update`), with the approved version's pins
   * and bans applied; null before the first fold. Approving exactly these tools records the update's rule. */
  update: { batch: number; tools: string[]; rule: SelectionRule; alpha: number } | null;
}
