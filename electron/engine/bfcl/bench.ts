// `lots bench bfcl` served end to end (issue 42, items 1–3 and 5): the paper's BFCL v4 multi_turn_base
// protocol with a local model. Per primary class: the fitting records served keep-all, their traces scored
// turn by turn with the evidence intervention (the assistant messages calling a function and their
// observations removed; a message calling several goes whole), the class's LOTS ranking; the budget
// swept on the fitting records under documentation demotion; the evaluation records served under
// keep-all, LOTS (top K documented in full, the rest demoted), LOTS pruned (top K only) and BM25
// demoted; every record graded by the official checker. Every served record is appended to
// `records.jsonl` in the output folder as soon as it is graded, so a stopped run resumes where it stopped.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import {
  BFCL_FIT_PER_CLASS,
  BFCL_PRIMARY_CLASSES,
  classCandidates,
  groupByPrimaryClass,
  turnRequests,
  type BfclAnswer,
  type BfclPrimaryClass,
} from '../../../shared/benchmark/bfcl';
import { summarizeArms, type BfclArmSummary, type BfclMenuForm, type BfclRecordOutcome } from '../../../shared/benchmark/bfcl-serve';
import { bm25TaskRanking } from '../../../shared/selection/bm25';
import type { Trace } from '../../../shared/trace/schema';
import { modelFileHash } from '../llama/hash';
import { appendRunLines, lotsRanking, readJsonl, scoreIntoFile } from './score';
import { BfclHarness } from './harness';
import { provisionBfcl } from './provision';
import { BfclServer, BFCL_MAX_STEPS, recordArmMenu, traceResult, turnsPassed, type BfclServerOptions } from './serve';

export const BFCL_PRESETS = {
  quick: { fitPerClass: 2, evalPerClass: 3, budgets: [8], maxSteps: 8, what: 'a few records per class, one budget (K = 8), 8 steps a turn: fits a CPU' },
  paper: {
    fitPerClass: BFCL_FIT_PER_CLASS,
    evalPerClass: 40,
    budgets: [4, 8, 12, 16, 24, 32],
    maxSteps: BFCL_MAX_STEPS,
    what: '10 + 40 records per class as the paper, the budget swept, 20 steps a turn: a GPU',
  },
} as const;
export type BfclPreset = keyof typeof BFCL_PRESETS;

export interface BfclBenchOptions extends Omit<BfclServerOptions, 'maxSteps'> {
  modelPath: string;
  out: string;
  preset?: BfclPreset;
  fitPerClass?: number;
  evalPerClass?: number;
  budgets?: readonly number[];
  maxSteps?: number;
  classes?: readonly BfclPrimaryClass[];
  /** Evaluation arms to serve (default all); without a LOTS arm nothing is fitted. */
  arms?: readonly BfclArm[];
  onProgress?: (line: string) => void;
}

export interface BfclClassReport {
  cls: BfclPrimaryClass;
  fit: string[];
  evaluate: string[];
  candidates: number;
  /** The class's LOTS ranking from the fitting traces (tools with evidence), best first, with Ī. */
  lots: { tool: string; mean: number; n: number }[];
  bm25: string[];
  /** Fitting accuracy per budget under LOTS demotion, and the budget chosen (best, ties smallest). */
  sweep: { k: number; correct: number; records: number }[];
  k: number;
}

export interface BfclBenchReport {
  model: string;
  preset: string;
  settings: { fitPerClass: number; evalPerClass: number; budgets: number[]; maxSteps: number; lenient: boolean };
  classes: BfclClassReport[];
  arms: BfclArmSummary[];
  /** Selection cost: seconds serving the fitting records keep-all, scoring them, and the sweep (a resumed run
   * counts what earlier runs of the folder did too). */
  cost: { fitServeSeconds: number; scoreSeconds: number; sweepSeconds: number; scoredTraces: number };
  wallSeconds: number;
}

export async function runBfclBench(options: BfclBenchOptions): Promise<BfclBenchReport> {
  const started = Date.now();
  const say = options.onProgress ?? (() => {});
  const preset = BFCL_PRESETS[options.preset ?? 'quick'];
  const fitPerClass = options.fitPerClass ?? preset.fitPerClass;
  const evalPerClass = options.evalPerClass ?? preset.evalPerClass;
  const budgets = [...(options.budgets ?? preset.budgets)].sort((a, b) => a - b);
  const maxSteps = options.maxSteps ?? preset.maxSteps;
  const lenient = options.lenient ?? true;
  const out = resolve(options.out);
  mkdirSync(out, { recursive: true });
  const modelHash = await modelFileHash(options.modelPath);
  // A folder holds one model's run with one setting: a resumed run must not mix two.
  const runId = JSON.stringify({ modelHash, maxSteps, lenient, maxTokens: options.maxTokens ?? null });
  const recordsPath = join(out, 'records.jsonl');
  const tracesPath = join(out, 'traces.jsonl');
  const scoresPath = join(out, 'scores.jsonl');
  const runPath = join(out, 'run.json');
  if (existsSync(runPath) && readFileSync(runPath, 'utf8') !== runId)
    throw new Error(`${out} holds a BFCL run with another model or settings (${runPath}); give another --out`);
  writeFileSync(runPath, runId);
  const done = new Map(readJsonl<BfclRecordOutcome>(recordsPath, say).map((o) => [`${o.arm}|${o.id}`, o]));
  const traces = new Map(readJsonl<Trace>(tracesPath, say).map((t) => [t.id, t]));
  if (done.size) say(`bfcl: resuming, ${done.size} served records in ${recordsPath}`);

  const provision = await provisionBfcl({ onProgress: say });
  const harness = BfclHarness.start({ python: provision.install.python });
  const server = await BfclServer.open(options.modelPath, { ...options, maxSteps, lenient });
  try {
    const { records, answers, docs } = await harness.load('multi_turn_base');
    const answerOf = new Map<string, BfclAnswer>(answers.map((a) => [a.id, a]));
    const groups = groupByPrimaryClass(records).filter((g) => !options.classes || options.classes.includes(g.cls));
    const serve = async (entry: (typeof records)[number], arm: string, space: readonly string[] | 'all', form: BfclMenuForm, split: 'fit' | 'eval') => {
      const key = `${arm}|${entry.id}`;
      const have = done.get(key);
      if (have && have.turnsPassed === undefined && traces.has(`bfcl/${arm}/${entry.id}`)) {
        // Served before turns were counted: the checker on each prefix of what the trace executed.
        const result = await traceResult(harness, traces.get(`bfcl/${arm}/${entry.id}`)!);
        have.turns = result.length;
        have.turnsPassed = have.valid ? result.length : await turnsPassed(harness, entry, answerOf.get(entry.id)!, result);
        // Kept: the later line of a key is the one a resume reads, so this is counted once.
        appendRunLines(recordsPath, [JSON.stringify(have)], say);
      }
      if (have) return have;
      const served = await server.serveRecord(harness, entry, answerOf.get(entry.id)!, recordArmMenu(entry, docs, space, form), arm, { split });
      appendRunLines(tracesPath, [JSON.stringify(served.trace)], say);
      appendRunLines(recordsPath, [JSON.stringify(served.outcome)], say);
      done.set(key, served.outcome);
      traces.set(served.trace.id, served.trace);
      const o = served.outcome;
      say(
        `bfcl: ${arm} ${entry.id} ${o.valid ? 'pass' : 'fail'} (${o.steps} steps, ${o.calls} calls, ${o.firstPromptTokens} menu tokens, ${o.seconds.toFixed(0)} s)`,
      );
      return o;
    };

    // Scoring is not kept per record: its seconds and count are kept beside the scores, so a resumed run
    // reports the whole selection cost as the served records' own seconds do.
    const scoringPath = join(out, 'scoring.json');
    const scoring = existsSync(scoringPath) ? (JSON.parse(readFileSync(scoringPath, 'utf8')) as Record<string, { seconds: number; traces: number }>) : {};
    const cost = { fitServeSeconds: 0, scoreSeconds: 0, sweepSeconds: 0, scoredTraces: 0 };
    const classes: BfclClassReport[] = [];
    const evalOutcomes: BfclRecordOutcome[] = [];
    const arms = new Set<BfclArm>(options.arms ?? (Object.keys(BFCL_ARMS) as BfclArm[]));
    const fits = [...arms].some((a) => a.startsWith('lots'));
    for (const group of groups) {
      const fit = fits ? group.fit.slice(0, fitPerClass) : [];
      const evaluate = group.evaluate.slice(0, evalPerClass);
      if (fits) say(`bfcl: ${group.cls}: serving ${fit.length} fitting records keep-all`);
      for (const e of fit) cost.fitServeSeconds += (await serve(e, 'fit/keep-all', 'all', 'demote', 'fit')).seconds;

      // Score the fitting traces (stored, so a resumed run does not score twice).
      const fitTraces = fit.map((e) => traces.get(`bfcl/fit/keep-all/${e.id}`)!);
      const scoreStarted = Date.now();
      const { rows, scored } = await scoreIntoFile(fitTraces, scoresPath, {
        model: server.loaded.model,
        renderer: server.renderer,
        modelPath: options.modelPath,
        modelHash,
        threads: options.threads,
        onProgress: say,
      });
      if (scored) {
        const was = scoring[group.cls] ?? { seconds: 0, traces: 0 };
        scoring[group.cls] = { seconds: was.seconds + (Date.now() - scoreStarted) / 1000, traces: was.traces + scored };
        writeFileSync(scoringPath, JSON.stringify(scoring, null, 2) + '\n');
      }
      cost.scoredTraces += scoring[group.cls]?.traces ?? 0;
      cost.scoreSeconds += scoring[group.cls]?.seconds ?? 0;
      const lots = lotsRanking(rows, group.cls);
      const candidates = classCandidates(group, docs);
      const bm25 = bm25TaskRanking(candidates, group.fit.slice(0, fitPerClass).flatMap(turnRequests)).map((r) => r.tool);
      const space = (ranking: readonly string[], k: number) => ranking.slice(0, k);

      // The budget sweep on the fitting records under LOTS demotion (one budget: nothing to sweep).
      const sweep: BfclClassReport['sweep'] = [];
      let k = budgets[0]!;
      if (budgets.length > 1) {
        let best = -1;
        for (const b of budgets) {
          let correct = 0;
          for (const e of fit) {
            const o = await serve(
              e,
              `fit/lots-demote-k${b}`,
              space(
                lots.map((s) => s.tool),
                b,
              ),
              'demote',
              'fit',
            );
            cost.sweepSeconds += o.seconds;
            if (o.valid) correct++;
          }
          sweep.push({ k: b, correct, records: fit.length });
          if (correct > best) [best, k] = [correct, b];
        }
      }
      classes.push({ cls: group.cls, fit: fit.map((e) => e.id), evaluate: evaluate.map((e) => e.id), candidates: candidates.length, lots, bm25, sweep, k });
      if (fits)
        say(
          `bfcl: ${group.cls}: LOTS ranks ${lots.length} functions with evidence (top: ${
            lots
              .slice(0, 4)
              .map((s) => s.tool)
              .join(', ') || 'none'
          }); K = ${k}`,
        );

      const lotsSpace = space(
        lots.map((s) => s.tool),
        k,
      );
      const bm25Space = space(bm25, k);
      for (const e of evaluate) {
        if (arms.has('keep-all')) evalOutcomes.push(await serve(e, 'keep-all', 'all', 'demote', 'eval'));
        if (arms.has('lots-demote')) evalOutcomes.push(await serve(e, 'lots-demote', lotsSpace, 'demote', 'eval'));
        if (arms.has('lots-prune')) evalOutcomes.push(await serve(e, 'lots-prune', lotsSpace, 'prune', 'eval'));
        if (arms.has('bm25-demote')) evalOutcomes.push(await serve(e, 'bm25-demote', bm25Space, 'demote', 'eval'));
      }
    }
    const report: BfclBenchReport = {
      model: server.modelName,
      preset: options.preset ?? 'quick',
      settings: { fitPerClass, evalPerClass, budgets, maxSteps, lenient },
      classes,
      arms: summarizeArms(evalOutcomes, 'keep-all'),
      cost,
      wallSeconds: (Date.now() - started) / 1000,
    };
    writeFileSync(join(out, 'report.json'), JSON.stringify(report, null, 2) + '\n');
    return report;
  } finally {
    await server.close();
    await harness.close();
  }
}

export type BfclArm = keyof typeof BFCL_ARMS;
export const BFCL_ARMS = {
  'keep-all': 'every function of the record documented in full (the official menu)',
  'lots-demote': 'the class’s LOTS top K documented in full, the record’s other functions by name and first sentence (callable)',
  'lots-prune': 'the LOTS top K only; a call to another function of the record is refused',
  'bm25-demote': 'the BM25 top K documented in full, the rest demoted',
} as const;

export { BFCL_PRIMARY_CLASSES };
