// `lots bench bfcl`: the paper's BFCL v4 multi_turn_base protocol over the official package (issue 42).
// So far its no-serving diagnostic: gold sequences executed in the official classes and checked by the
// official checker, canonical gold traces, and the coverage of the evaluation records' gold calls by the
// top K of each ranking, per primary class.
import { writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { flagList, flagString } from '../args';
import { CliError, EXIT_OK, type Command } from '../command';
import { alignColumns } from '../../../shared/benchmark/comparison-table';
import { BFCL_FIT_PER_CLASS, BFCL_PRIMARY_CLASSES } from '../../../shared/benchmark/bfcl';
import { bfclDiagnostic, DIAGNOSTIC_KS, DIAGNOSTIC_RANKINGS, type BfclDiagnostic, type DiagnosticRanking } from '../../engine/bfcl/diagnostic';
import { BFCL_RUNTIME_DEPS, BFCL_VERSION, bfclInstall } from '../../engine/bfcl/provision';

export const command: Command = {
  name: 'bench bfcl',
  summary: "BFCL v4 multi-turn from the official package: --diagnostic executes the gold calls and measures each ranking's coverage (no serving)",
  usage: 'lots bench bfcl --diagnostic [--k 4,8,16] [--traces-out gold.jsonl] [--json]',
  flags: {
    diagnostic: { type: 'boolean', description: 'the no-serving diagnostic (the only mode built so far)' },
    k: { type: 'string', multi: true, description: `documented-function budgets to report (default ${DIAGNOSTIC_KS.join(',')})` },
    'traces-out': { type: 'string', description: 'write the 200 gold trajectories as canonical traces (JSONL, `lots import` reads it)' },
    'skip-dense': { type: 'boolean', description: 'leave out the Dense ranking (it loads the sentence encoder)' },
    json: { type: 'boolean', description: 'print the report as one JSON object (without the traces)' },
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
    'Not built yet: the serving loop (agent turns against the classes), demotion menus, the sweep.',
  ].join('\n'),
  async run(args, io) {
    if (!args.flags.diagnostic)
      throw new CliError('only the no-serving diagnostic is built so far: run `lots bench bfcl --diagnostic` (the serving loop of issue 42 is not built yet)');
    const ks = flagList(args, 'k').length
      ? flagList(args, 'k')
          .flatMap((v) => v.split(','))
          .map((v) => {
            const k = Number(v);
            if (!Number.isInteger(k) || k < 1) throw new CliError(`--k ${v}: a budget is a whole number ≥ 1`);
            return k;
          })
      : DIAGNOSTIC_KS;
    const report = await bfclDiagnostic({ ks, onProgress: (line) => io.err(line), dense: !args.flags['skip-dense'] });
    const out = flagString(args, 'traces-out');
    if (out) {
      writeFileSync(resolve(out), report.traces.map((t) => JSON.stringify(t)).join('\n') + '\n');
      io.err(`bfcl: ${report.traces.length} gold traces written to ${resolve(out)}`);
    }
    const { traces: _traces, ...rest } = report;
    if (args.flags.json) io.data!(JSON.stringify(rest, null, 2));
    else io.out(formatDiagnostic(report));
    return EXIT_OK;
  },
};

export function formatDiagnostic(d: BfclDiagnostic): string {
  const lines = [
    `bfcl-eval ${d.package.version} (Python ${d.package.python}), multi_turn_base: ${d.records} records, ${d.goldCalls} gold calls executed` +
      ` (${d.goldErrorObservations} answered with an error); official checker on the gold sequences: ${d.checkerPassed}/${d.records} pass`,
    ...d.checkerFailed.map((f) => `  fails: ${f.id} ${f.error}`),
    ...d.traceProblems.map((p) => `  no trace: ${p}`),
    'embedder' in d.dense ? `dense: embedded by ${d.dense.embedder}` : `dense: not run, ${d.dense.skipped}`,
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
