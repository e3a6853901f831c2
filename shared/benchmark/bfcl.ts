// The paper's BFCL v4 protocol over the official package's data (pure: the records, answers and docs
// come from the harness, electron/engine/bfcl/): records grouped by primary API class, the first 10 of
// a class fit and the other 40 evaluate; the candidate functions of a class; gold trajectories as BFCL
// result entries (read by the BFCL importer into canonical traces); coverage of gold calls by a ranking.
import type { ToolDef } from '../trace/schema';
import { bfclSchema } from '../importers/bfcl';
import { toolDef } from '../importers/tools';

/** A multi-turn dataset record (data/BFCL_v4_multi_turn_base.json). */
export interface BfclEntry {
  id: string;
  /** Per turn, the user messages of that turn. */
  question: { role: string; content: string }[][];
  initial_config: Record<string, unknown>;
  involved_classes: string[];
  path?: string[];
  excluded_function?: string[];
}

/** A possible answer (data/possible_answer/…): per turn, the gold call strings. */
export interface BfclAnswer {
  id: string;
  ground_truth: string[][];
}

/** One function doc (data/multi_turn_func_doc/*.json). */
export interface BfclDoc {
  name: string;
  description: string;
  parameters: Record<string, unknown>;
  response?: Record<string, unknown>;
}

/** The four primary API classes of multi_turn_base (paper §4.1). Every record involves exactly one of
 * them; the others it may involve (TwitterAPI, MessageAPI, TicketAPI, MathAPI) are companions. */
export const BFCL_PRIMARY_CLASSES = ['GorillaFileSystem', 'TradingBot', 'TravelAPI', 'VehicleControlAPI'] as const;
export type BfclPrimaryClass = (typeof BFCL_PRIMARY_CLASSES)[number];
export const BFCL_FIT_PER_CLASS = 10;

export function primaryClassOf(entry: BfclEntry): BfclPrimaryClass {
  const found = BFCL_PRIMARY_CLASSES.filter((c) => entry.involved_classes.includes(c));
  if (found.length !== 1)
    throw new Error(
      `BFCL record ${entry.id}: involved_classes [${entry.involved_classes.join(', ')}] holds ${found.length === 0 ? 'none' : found.join(' and ')} of the primary classes ${BFCL_PRIMARY_CLASSES.join(', ')}; exactly one was expected`,
    );
  return found[0]!;
}

/** The number at the end of an id (multi_turn_base_17 → 17), for the dataset's own order. */
export function recordNumber(id: string): number {
  const m = /_(\d+)$/.exec(id);
  return m ? Number(m[1]) : Number.NaN;
}

export interface BfclClassGroup {
  cls: BfclPrimaryClass;
  /** The first BFCL_FIT_PER_CLASS records of the class, in the dataset's order. */
  fit: BfclEntry[];
  /** The others. */
  evaluate: BfclEntry[];
}

/** Records grouped by primary class, in the dataset's order within each class; the first 10 fit. */
export function groupByPrimaryClass(entries: readonly BfclEntry[]): BfclClassGroup[] {
  const by = new Map<BfclPrimaryClass, BfclEntry[]>(BFCL_PRIMARY_CLASSES.map((c) => [c, []]));
  for (const e of entries) by.get(primaryClassOf(e))!.push(e);
  return BFCL_PRIMARY_CLASSES.map((cls) => {
    const list = [...by.get(cls)!].sort((a, b) => recordNumber(a.id) - recordNumber(b.id));
    return { cls, fit: list.slice(0, BFCL_FIT_PER_CLASS), evaluate: list.slice(BFCL_FIT_PER_CLASS) };
  });
}

/** A record's menu as the official inference builds it: the docs of its involved classes, less its excluded functions. */
export function recordMenu(entry: BfclEntry, docs: Readonly<Record<string, readonly BfclDoc[]>>): ToolDef[] {
  const skip = new Set(entry.excluded_function ?? []);
  const out: ToolDef[] = [];
  for (const cls of entry.involved_classes) {
    for (const doc of docs[cls] ?? []) {
      if (skip.has(doc.name)) continue;
      const def = toolDef(doc.name, doc.description, bfclSchema(doc.parameters, 0));
      if (def) out.push(def);
    }
  }
  return out;
}

/** The candidate functions of a class: every function of every class its records involve (by name, first doc wins). */
export function classCandidates(group: BfclClassGroup, docs: Readonly<Record<string, readonly BfclDoc[]>>): ToolDef[] {
  const seen = new Map<string, ToolDef>();
  for (const e of [...group.fit, ...group.evaluate])
    for (const def of recordMenu({ ...e, excluded_function: [] }, docs)) if (!seen.has(def.name)) seen.set(def.name, def);
  return [...seen.values()];
}

/** The function a call string calls: `cd(folder='x')` → cd. */
export function callName(call: string): string {
  const m = /^\s*([A-Za-z_][\w.]*)\s*\(/.exec(call);
  if (!m) throw new Error(`not a call string: ${JSON.stringify(call.slice(0, 80))}`);
  return m[1]!;
}

/** The user text of each turn (a turn may hold several messages; BFCL's later turns can be empty). */
export function turnRequests(entry: BfclEntry): string[] {
  return entry.question.map((turn) => turn.map((m) => m.content).join('\n\n'));
}

/**
 * A gold trajectory as a BFCL result entry (the shape `lots import` reads): each gold call its own
 * assistant step, followed by its observation from the official classes. The last assistant message of
 * each turn is therefore its last gold call, the frozen target of the turn (paper B.2).
 * `observations[t][k]` answers `answer.ground_truth[t][k]`.
 */
export function goldResultEntry(
  entry: BfclEntry,
  answer: BfclAnswer,
  observations: readonly (readonly string[])[],
  modelName = 'gold',
): Record<string, unknown> {
  if (answer.ground_truth.length !== entry.question.length)
    throw new Error(`BFCL record ${entry.id}: ${entry.question.length} turns but ${answer.ground_truth.length} gold turns`);
  const inferenceLog = answer.ground_truth.map((calls, t) => {
    const obs = observations[t] ?? [];
    if (obs.length !== calls.length) throw new Error(`BFCL record ${entry.id}, turn ${t}: ${calls.length} gold calls but ${obs.length} observations`);
    const turn: Record<string, unknown> = { begin_of_turn_query: entry.question[t] };
    calls.forEach((call, k) => {
      turn[`step_${k}`] = [
        { role: 'assistant', content: call },
        { role: 'handler_log', model_response_decoded: [call] },
        { role: 'tool', content: obs[k] },
      ];
    });
    return turn;
  });
  return { id: entry.id, model_name: modelName, inference_log: inferenceLog };
}

export interface CoverageAtK {
  k: number;
  /** Gold calls of the records whose function is among the top K, over all their gold calls. */
  calls: number;
  /** Records all of whose gold functions are among the top K. */
  records: number;
}

/** How much of the records' gold calls the top-K of a ranking (tool names, best first) covers. */
export function goldCoverage(ranking: readonly string[], answers: readonly BfclAnswer[], ks: readonly number[]): CoverageAtK[] {
  return ks.map((k) => {
    const top = new Set(ranking.slice(0, k));
    let calls = 0;
    let covered = 0;
    let fullRecords = 0;
    for (const a of answers) {
      const names = a.ground_truth.flat().map(callName);
      calls += names.length;
      const inTop = names.filter((n) => top.has(n)).length;
      covered += inTop;
      if (inTop === names.length) fullRecords++;
    }
    return { k, calls: calls ? covered / calls : 0, records: answers.length ? fullRecords / answers.length : 0 };
  });
}

/** A reference ranking that reads the fitting records' gold calls (labels): functions by how often they are called there, ties by name. */
export function fitGoldFrequencyRanking(candidates: readonly ToolDef[], fitAnswers: readonly BfclAnswer[]): string[] {
  const count = new Map<string, number>(candidates.map((t) => [t.name, 0]));
  for (const a of fitAnswers)
    for (const call of a.ground_truth.flat()) {
      const n = callName(call);
      if (count.has(n)) count.set(n, count.get(n)! + 1);
    }
  return [...count].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0)).map(([n]) => n);
}
