// Tool spaces: every accepted version of a task's space is kept (E_t^(0), E_t^(1), …).
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
  /** The kept tools, in ranking order. */
  tools: z.array(z.string()),
  pinned: z.array(z.string()).default([]),
  banned: z.array(z.string()).default([]),
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

export const TaskSpacesSchema = z.object({
  task: z.string().min(1),
  versions: z.array(SpaceVersionSchema),
});
export type TaskSpaces = z.infer<typeof TaskSpacesSchema>;

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
