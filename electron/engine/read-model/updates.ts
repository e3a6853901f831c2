// The continual-update fold of a task (paper §3, Appendix B.3, D.5), the one implementation behind the
// update use case (`lots update`, the Studio's "Fold new batches": usecases/update.ts) and `lots demo`
// (benchmark/demo.ts, which sits below the use cases): a task's imports are its batches, in import order;
// each batch that has score rows in the task's run folds its batch means into the running scores, and the
// rule proposes the next space. It computes the new history; the caller stores it.
import { basename, join } from 'node:path';
import { damagedFile, taskFileName } from '../store/project-file';
import { deferredCalls, foldBatch } from '../../../shared/lots/update';
import { diffSpaces, type SpaceVersion } from '../../../shared/project/spaces';
import { DEFAULT_UPDATE_ALPHA, describeUpdateRule as describeRule, type TaskUpdates, type UpdateBatch, type UpdateRule } from '../../../shared/project/updates';
import { DEFAULT_PHI, DEFAULT_SUPPORT_TAU } from '../../../shared/lots/fit';
import { UNROUTED } from '../../../shared/lots/aggregate';
import type { ReadOnlyProjectStore } from '../store';
import { ExpectedError } from '../../../shared/api/errors';
import type { ProjectIndex } from './project-index';
import { withEdits } from './proposal';
import { approvedSpace } from './approved-space';

export interface UpdateOptions {
  /** One task; every task with scores when absent. */
  task?: string;
  alpha?: number;
  rule?: 'topk' | 'support';
  /** Budget of the top-K rule (default: the task's stored rule, its budget sweep, its approved size). */
  k?: number;
  /** Per-request threshold and minimum share of the support rule. */
  tau?: number;
  phi?: number;
  /** The scoring run to read batch means from (default: the stored one, else the task's latest). */
  run?: string;
  /** Fold every batch again from the rows now in the run (also done when α, the rule or the run change). */
  refold?: boolean;
  now?: () => Date;
}

export interface WaitingBatch {
  source: string;
  traces: number;
}

export interface SkippedBatch extends WaitingBatch {
  /** `unanswered`: requests nobody answered yet (a benchmark's generated requests); `no-tool`: its rows scored no tool. */
  reason: 'unanswered' | 'no-tool';
}

export interface TaskUpdateResult {
  task: string;
  run: string;
  alpha: number;
  rule: UpdateRule;
  /** Batches folded by this call (all of them after a refold). */
  folded: UpdateBatch[];
  /** Batches of the task with no score row in the run yet (they wait; later batches wait behind them). */
  waiting: WaitingBatch[];
  /** Batches whose rows scored no tool, or requests nobody answered yet (nothing to fold; they do not
   * hold later batches back). */
  empty: SkippedBatch[];
  refolded: boolean;
  /** Why the history was folded again, when it was. */
  refoldReason?: string;
  history: TaskUpdates;
  /** `history` differs from the stored one (or none is stored yet): the caller writes it. */
  changed: boolean;
  /** The latest proposal E^(k+1) with the approved version's pins and bans applied, against that version. */
  proposal: string[];
  approved?: SpaceVersion;
  diff: { added: string[]; removed: string[]; kept: string[] };
}

/**
 * Fold the task's new batches (its imports, in import order, not in its stored history yet) into its
 * running scores and propose the next space. Nothing is written: when `changed`, the caller stores
 * `history` (store.writeUpdates) — the update use case (usecases/update.ts) and `lots demo`
 * (benchmark/demo.ts) both do.
 */
export function foldTaskUpdates(store: ReadOnlyProjectStore, index: ProjectIndex, task: string, options: Omit<UpdateOptions, 'task'> = {}): TaskUpdateResult {
  const stored = store.readUpdates(task);
  const data = index.task(task, options.run ?? (stored && index.runsOf(task).includes(stored.run) ? stored.run : undefined));
  if (!data.run)
    throw new ExpectedError(
      'NOT_FOUND',
      `task "${task}" has no scores yet: score its traces first (\`lots score --project P --task ${JSON.stringify(task)}\`)`,
    );
  const run = data.run;
  const alpha = options.alpha ?? stored?.alpha ?? DEFAULT_UPDATE_ALPHA;
  if (!(alpha > 0 && alpha <= 1)) throw new ExpectedError('INVALID_INPUT', `--alpha must be in (0, 1], got ${alpha}`);
  const approved = approvedSpace(store, task) ?? undefined;
  const rule = resolveRule(store, task, options, stored, approved);

  const why = refoldReason(stored, { alpha, rule, run }, options.refold === true);
  let history: TaskUpdates = why || !stored ? { task, alpha, rule, run, batches: [] } : stored;
  const done = new Set(history.batches.map((b) => b.source));

  // The task's traces by import, in import order.
  const byFile = new Map<string, string[]>();
  const allFiles = new Set<string>();
  for (const info of store.traceInfos()) {
    allFiles.add(info.file);
    if ((info.task ?? UNROUTED) !== task) continue;
    let ids = byFile.get(info.file);
    if (!ids) byFile.set(info.file, (ids = []));
    ids.push(info.id);
  }
  // A history that names a batch twice, or a batch the project does not hold, cannot be continued: folding
  // on would count a batch twice (or fold a renamed one again) in the running scores. Said, not repaired.
  if (!why && stored) checkHistory(store, task, stored, allFiles);
  const files = [...byFile.keys()].sort();
  const folded: UpdateBatch[] = [];
  const waiting: WaitingBatch[] = [];
  const empty: SkippedBatch[] = [];
  const now = options.now ?? (() => new Date());
  for (const file of files) {
    if (done.has(file)) continue;
    const ids = byFile.get(file)!;
    const rows = ids.map((id) => data.rowByTrace.get(id)).filter((r) => r !== undefined);
    if (rows.length === 0 && unanswered(store, file, new Set(ids))) {
      // Requests nobody answered yet (a benchmark's generated requests): nothing to score, not a batch.
      empty.push({ source: file, traces: ids.length, reason: 'unanswered' });
      continue;
    }
    if (waiting.length > 0 || rows.length === 0) {
      waiting.push({ source: file, traces: ids.length });
      continue;
    }
    if (!rows.some((r) => Object.keys(r.scores).length > 0)) {
      empty.push({ source: file, traces: ids.length, reason: 'no-tool' });
      continue;
    }
    const source = store.importSource(file);
    const inBatch = new Set(ids);
    const calledWhileDeferred = deferredCalls(store.iterTraces((info) => info.file === file && inBatch.has(info.id)));
    const batch = foldBatch(task, history, {
      rows,
      traces: ids.length,
      source: file,
      ...(source ? { label: basename(source) } : {}),
      at: now().toISOString(),
      calledWhileDeferred,
    });
    history = { ...history, batches: [...history.batches, batch] };
    folded.push(batch);
  }
  const proposal = withEdits(history.batches.at(-1)?.proposed ?? [], approved);
  return {
    task,
    run,
    alpha,
    rule,
    folded,
    waiting,
    empty,
    refolded: Boolean(why),
    ...(why ? { refoldReason: why } : {}),
    history,
    changed: folded.length > 0 || Boolean(why) || !stored,
    proposal,
    ...(approved ? { approved } : {}),
    diff: diffSpaces(approved?.tools ?? [], proposal),
  };
}

function resolveRule(
  store: ReadOnlyProjectStore,
  task: string,
  options: UpdateOptions,
  stored: TaskUpdates | undefined,
  approved: SpaceVersion | undefined,
): UpdateRule {
  const kind = options.rule ?? stored?.rule.kind ?? 'topk';
  if (kind === 'support') {
    const prev = stored?.rule.kind === 'support' ? stored.rule : undefined;
    const phi = options.phi ?? prev?.phi ?? DEFAULT_PHI;
    if (!(phi >= 0 && phi <= 1)) throw new ExpectedError('INVALID_INPUT', `--phi is a share between 0 and 1, got ${phi}`);
    return { kind: 'support', tau: options.tau ?? prev?.tau ?? DEFAULT_SUPPORT_TAU, phi };
  }
  const k =
    options.k ?? (stored?.rule.kind === 'topk' ? stored.rule.k : undefined) ?? positive(store.readSweep(task)?.bestK) ?? positive(approved?.tools.length);
  if (k === undefined)
    throw new ExpectedError('INVALID_INPUT', `task "${task}" has no budget yet: give one with --k N (or run its budget sweep, or approve a space)`);
  if (!Number.isInteger(k) || k < 1) throw new ExpectedError('INVALID_INPUT', `--k must be a positive integer, got ${k}`);
  return { kind: 'topk', k };
}

/** True when no trace of the file (of these ids) has an answer: requests waiting to be served. */
function unanswered(store: ReadOnlyProjectStore, file: string, ids: ReadonlySet<string>): boolean {
  for (const trace of store.iterTraces((info) => info.file === file && ids.has(info.id))) {
    if (trace.turns.some((t) => t.answer.trim() !== '' || t.target === 'call')) return false;
  }
  return true;
}

function positive(n: number | undefined): number | undefined {
  return n !== undefined && n > 0 ? n : undefined;
}

function checkHistory(store: ReadOnlyProjectStore, task: string, stored: TaskUpdates, files: ReadonlySet<string>): void {
  const seen = new Set<string>();
  for (const [i, batch] of stored.batches.entries()) {
    const problem = seen.has(batch.source)
      ? `batch ${i + 1} names ${batch.source} a second time`
      : !files.has(batch.source)
        ? `batch ${i + 1} names ${batch.source}, which is not a batch of the project (renamed or removed)`
        : undefined;
    seen.add(batch.source);
    if (problem)
      throw damagedFile(
        join(store.dir, 'updates', taskFileName(task)),
        problem,
        `or fold the task's batches again from its scores with \`lots update --project ${store.dir} --task ${JSON.stringify(task)} --refold\``,
      );
  }
}

function refoldReason(stored: TaskUpdates | undefined, next: { alpha: number; rule: UpdateRule; run: string }, asked: boolean): string | undefined {
  if (!stored || stored.batches.length === 0) return undefined;
  if (asked) return 'asked for (--refold)';
  if (stored.run !== next.run) return `the run changed (${stored.run} → ${next.run})`;
  if (stored.alpha !== next.alpha) return `α changed (${stored.alpha} → ${next.alpha})`;
  if (JSON.stringify(stored.rule) !== JSON.stringify(next.rule)) return `the rule changed (${describeRule(stored.rule)} → ${describeRule(next.rule)})`;
  return undefined;
}

/** The task's imports not folded into its history yet, in import order. Requests nobody answered yet (a
 * benchmark's generated requests) are left out, as the fold leaves them out: they are not batches. */
export function unfoldedBatches(store: ReadOnlyProjectStore, task: string, history: TaskUpdates | undefined): WaitingBatch[] {
  const done = new Set(history?.batches.map((b) => b.source) ?? []);
  const byFile = new Map<string, Set<string>>();
  for (const info of store.traceInfos()) {
    if ((info.task ?? UNROUTED) !== task || done.has(info.file)) continue;
    let ids = byFile.get(info.file);
    if (!ids) byFile.set(info.file, (ids = new Set()));
    ids.add(info.id);
  }
  return [...byFile]
    .sort((a, b) => (a[0] < b[0] ? -1 : 1))
    .filter(([file, ids]) => !unanswered(store, file, ids))
    .map(([source, ids]) => ({ source, traces: ids.size }));
}
