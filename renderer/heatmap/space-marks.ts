// Each tool column's state in the task's space (issue 44: pinned / deferred / hidden,
// shared/project/spaces.ts) for the heatmap's header marks: the approved space, the one agents are
// served; before any approval the proposal's, said as such. Shapes, not colour alone, tell them apart:
// a filled disc (pinned), a ring (deferred), a cross (hidden).
import type { SpaceState } from '../../shared/api';
import type { ToolState } from '../../shared/project/spaces';

export const STATE_NONE = 0;
export const STATE_PINNED = 1;
export const STATE_DEFERRED = 2;
export const STATE_HIDDEN = 3;

export const STATE_CODE: Record<ToolState, number> = { pinned: STATE_PINNED, deferred: STATE_DEFERRED, hidden: STATE_HIDDEN };
export const STATE_NAME = ['', 'pinned', 'deferred', 'hidden'] as const;
/** The glyph the legend shows for each state, as the canvas draws it. */
export const STATE_GLYPH = ['', '●', '○', '×'] as const;

export interface SpaceMarks {
  /** Where the states come from: the approved version (what is served), or the proposal while none is approved. */
  source: { kind: 'approved'; version: number } | { kind: 'proposal' };
  pinned: readonly string[];
  deferred: readonly string[];
}

export function spaceMarks(space: SpaceState | undefined): SpaceMarks | null {
  if (!space) return null;
  if (space.approved) return { source: { kind: 'approved', version: space.approved.version }, pinned: space.approved.tools, deferred: space.approved.deferred };
  return { source: { kind: 'proposal' }, pinned: space.proposal.tools, deferred: space.proposal.deferred };
}

/** "approved v3" or "the proposal (none approved yet)". */
export function marksSourceLabel(marks: SpaceMarks): string {
  return marks.source.kind === 'approved' ? `approved v${marks.source.version}` : 'the proposal (none approved yet)';
}
