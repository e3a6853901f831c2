// What an exporter needs to know about a space: an accepted version, or an unapproved proposal.
import type { SelectionRule } from '../project/spaces';

export interface ExportableSpace {
  task: string;
  /** The accepted version number; null for a proposal that was never approved. */
  version: number | null;
  /** Pinned tools (documented in full, loaded up front), in ranking order. */
  tools: string[];
  /** Deferred tools (callable, not loaded up front); every other tool of the task is hidden. */
  deferred: string[];
  rule: SelectionRule;
  note: string;
  /** Task scores Ī_t(s) (and support n) of the ranked tools; the kept ones go into the space file. */
  scores?: readonly { tool: string; mean: number; n: number }[];
  run?: string;
  createdAt?: string;
}

export const SPACE_FILE_FORMAT = 'lots-space';
export const SPACE_FILE_VERSION = 1;

/** Our space file: everything needed to serve the space and to know where it came from. */
export interface SpaceFile {
  format: typeof SPACE_FILE_FORMAT;
  v: typeof SPACE_FILE_VERSION;
  task: string;
  version: number | null;
  status: 'approved' | 'proposed';
  /** Pinned tools. */
  tools: string[];
  /** Deferred tools (added with the third state; a reader that does not know it sees only the pinned ones). */
  deferred: string[];
  rule: SelectionRule;
  note: string;
  /** Ī_t(s) and |Q_t(s)| of each pinned and deferred tool. */
  scores: Record<string, { mean: number; n: number }>;
  run?: string;
  createdAt?: string;
}

export function buildSpaceFile(space: ExportableSpace): SpaceFile {
  const byTool = new Map((space.scores ?? []).map((s) => [s.tool, s]));
  return {
    format: SPACE_FILE_FORMAT,
    v: SPACE_FILE_VERSION,
    task: space.task,
    version: space.version,
    status: space.version === null ? 'proposed' : 'approved',
    tools: [...space.tools],
    deferred: [...space.deferred],
    rule: space.rule,
    note: space.note,
    // fromEntries defines own properties, so no tool name can reach Object.prototype.
    scores: Object.fromEntries(
      [...space.tools, ...space.deferred].flatMap((t) => {
        const s = byTool.get(t);
        return s ? [[t, { mean: s.mean, n: s.n }]] : [];
      }),
    ),
    ...(space.run !== undefined ? { run: space.run } : {}),
    ...(space.createdAt !== undefined ? { createdAt: space.createdAt } : {}),
  };
}
