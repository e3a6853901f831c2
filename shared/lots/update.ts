// Folding a batch of a task's new traces into its running scores and proposing the next space (paper
// Appendix B.3, eq. 9; D.5). Ĩ(s) ← α·Ī^(k)(s) + (1−α)·Ĩ(s); the first batch that scores a tool
// initialises Ĩ(s) to its batch mean; a tool the batch did not score keeps its running score. The proposal
// is E^(k+1), cut from the running scores by the task's rule; it is only a proposal (the operator approves).
import type { ScoreRow } from '../project/scores';
import type { Trace } from '../trace/schema';
import type { Crossing, TaskUpdates, UpdateBatch, UpdateRule } from '../project/updates';
import { aggregateOneTask } from './aggregate';
import { rankRecord } from './rank';
import { nextSpaceFromRunningScores, updateRunningScores } from './running';
import { supportFrequencies } from './select';

export interface FoldInput {
  /** The batch's score rows (rows of the task's traces in this batch, from the task's run). */
  rows: readonly ScoreRow[];
  /** The task's traces in the batch (≥ rows.length: some may not be scored). */
  traces: number;
  source: string;
  label?: string;
  at: string;
  accuracy?: number;
  /** Tools called while deferred, by traces of the batch (`deferredCalls`). */
  calledWhileDeferred?: Readonly<Record<string, number>>;
}

/**
 * The tools a batch's traces called while they were deferred, and in how many traces: a call step naming a
 * tool the trace's forwarded menu had deferred (`meta.gateway.deferred`, written by the gateway). A deferred
 * tool is callable; the call's observation is scored like any other, so its evidence reaches the running
 * scores and the rule may pin it in the next proposal (the tool is then "promoted").
 */
export function deferredCalls(traces: Iterable<Pick<Trace, 'turns' | 'meta'>>): Record<string, number> {
  const out: Record<string, number> = {};
  for (const t of traces) {
    const gateway = t.meta?.gateway;
    const deferred = typeof gateway === 'object' && gateway !== null ? (gateway as { deferred?: unknown }).deferred : undefined;
    if (!Array.isArray(deferred) || deferred.length === 0) continue;
    const names = new Set(deferred.filter((d): d is string => typeof d === 'string'));
    const called = new Set(t.turns.flatMap((turn) => turn.steps.flatMap((s) => (s.kind === 'call' ? s.calls.map((c) => c.name) : []))));
    for (const name of called) if (names.has(name)) out[name] = (out[name] ?? 0) + 1;
  }
  return out;
}

/** The running state the next batch starts from: the last batch's, or nothing before the first. */
export function lastBatch(updates: Pick<TaskUpdates, 'batches'>): UpdateBatch | undefined {
  return updates.batches[updates.batches.length - 1];
}

/**
 * The next entry of a task's update history. `updates` holds α, the rule and the batches folded so far;
 * it is not modified. Throws when the batch scored no tool (nothing to fold: say so rather than record an
 * empty step).
 */
export function foldBatch(task: string, updates: Pick<TaskUpdates, 'alpha' | 'rule' | 'batches'>, input: FoldInput): UpdateBatch {
  const scores = aggregateOneTask(task, input.rows);
  if (scores.tools.length === 0) throw new RangeError(`batch ${input.source} of task "${task}" has no scored tool: score its traces first`);
  const prev = lastBatch(updates);
  const batchMeans = Object.fromEntries(scores.tools.map((t) => [t.tool, t.mean]));
  const running = updateRunningScores(prev?.running ?? {}, batchMeans, updates.alpha);
  const entry: UpdateBatch = {
    batch: (prev?.batch ?? 0) + 1,
    source: input.source,
    ...(input.label !== undefined ? { label: input.label } : {}),
    traces: input.traces,
    scored: scores.requests,
    batchMeans,
    running,
    proposed: [],
    entered: [],
    left: [],
    at: input.at,
    ...(input.accuracy !== undefined ? { accuracy: input.accuracy } : {}),
  };
  const rule = updates.rule;
  if (rule.kind === 'support') {
    const batchSupport = Object.fromEntries(supportFrequencies(scores.tools, rule.tau).map((e) => [e.tool, e.support]));
    entry.batchSupport = batchSupport;
    entry.runningSupport = updateRunningScores(prev?.runningSupport ?? {}, batchSupport, updates.alpha);
  }
  entry.proposed = proposeFromRunning(rule, running, entry.runningSupport);
  const before = new Set(prev?.proposed ?? []);
  const after = new Set(entry.proposed);
  const cut = cutOf(rule, running, entry.proposed);
  const crossing = (tool: string): Crossing => ({
    tool,
    running: running[tool] ?? 0,
    ...(entry.runningSupport ? { support: entry.runningSupport[tool] ?? 0 } : {}),
    cut,
  });
  entry.entered = entry.proposed.filter((t) => !before.has(t)).map(crossing);
  entry.left = [...before].filter((t) => !after.has(t)).map(crossing);
  const called = input.calledWhileDeferred ?? {};
  if (Object.keys(called).length > 0) {
    entry.calledWhileDeferred = { ...called };
    const promoted = entry.proposed.filter((t) => (called[t] ?? 0) > 0);
    if (promoted.length > 0) entry.promoted = promoted;
  }
  return entry;
}

/** The rule applied to running scores (and running support): the proposal, in running-score order. */
export function proposeFromRunning(rule: UpdateRule, running: Readonly<Record<string, number>>, runningSupport?: Readonly<Record<string, number>>): string[] {
  if (rule.kind === 'topk') return nextSpaceFromRunningScores(running, rule.k);
  if (!runningSupport) throw new RangeError('the support rule needs running support frequencies');
  return rankRecord(running)
    .map((s) => s.tool)
    .filter((t) => (runningSupport[t] ?? 0) >= rule.phi);
}

/** The value a tool's running figure has to reach to be in the proposal: the K-th running score when
 * the top-K is full, phi for the support rule, null when the space has room for every scored tool. */
function cutOf(rule: UpdateRule, running: Readonly<Record<string, number>>, proposed: readonly string[]): number | null {
  if (rule.kind === 'support') return rule.phi;
  if (Object.keys(running).length <= rule.k) return null;
  const last = proposed[proposed.length - 1];
  return last === undefined ? null : (running[last] ?? null);
}
