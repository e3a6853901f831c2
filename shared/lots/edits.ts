// The space editor's edits on top of a proposed space: pinned tools are always kept, banned never.
import { compareNames } from './aggregate';
import { ExpectedError } from '../base/errors';

export interface SpaceEdits {
  pinned?: readonly string[];
  banned?: readonly string[];
  added?: readonly string[];
  removed?: readonly string[];
}

/**
 * Apply edits: drop `removed`, add `added`, keep every `pinned` tool, drop every `banned` one. A tool both
 * pinned and banned is a conflict the user has to resolve (thrown). With `rankingOrder` (tool names in
 * ranking order) the result follows the ranking, unranked tools last by name — SpaceVersion.tools is kept
 * in ranking order; without it, the space's order is kept and new tools are appended.
 */
export function applyEdits(space: readonly string[], edits: SpaceEdits, rankingOrder?: readonly string[]): string[] {
  const banned = new Set(edits.banned ?? []);
  const both = (edits.pinned ?? []).filter((t) => banned.has(t));
  if (both.length > 0) {
    throw new ExpectedError(
      'SPACE_EDIT_CONFLICT',
      `${both.map((t) => `"${t}"`).join(', ')} ${both.length === 1 ? 'is' : 'are'} both pinned and banned; unpin or unban ${both.length === 1 ? 'it' : 'them'}`,
    );
  }
  const removed = new Set(edits.removed ?? []);
  const pinned = new Set(edits.pinned ?? []);
  const out: string[] = [];
  const seen = new Set<string>();
  const push = (t: string) => {
    if (seen.has(t) || banned.has(t)) return;
    seen.add(t);
    out.push(t);
  };
  for (const t of space) if (!removed.has(t) || pinned.has(t)) push(t);
  for (const t of edits.added ?? []) push(t);
  for (const t of edits.pinned ?? []) push(t);
  if (!rankingOrder) return out;
  const position = new Map(rankingOrder.map((t, i) => [t, i]));
  return out.sort((a, b) => {
    const pa = position.get(a);
    const pb = position.get(b);
    if (pa !== undefined && pb !== undefined) return pa - pb;
    if (pa !== undefined) return -1;
    if (pb !== undefined) return 1;
    return compareNames(a, b);
  });
}
