// `lots bench stream`: the benchmark as a stream of batches; keep-all, frozen and updated spaces (and the
// cold start under a serving cap) on the same request order and evaluation set (paper Figures 3, 15).
import { ExpectedError } from '../../../shared/api/errors';
import { availableParallelism } from 'node:os';
import { choice, flagInt, flagList, flagNumber, flagString, requireFlag, UsageError } from '../args';
import { EXIT_OK, type Command } from '../command';
import { FAMILY_NAMES, isFamilyName, type FamilyName } from '../../../shared/benchmark/family';
import { alignColumns } from '../../../shared/benchmark/comparison-table';
import { STREAM_ARMS, type StreamArm, type StreamRecord } from '../../../shared/project/streams';
import { DEFAULT_PHI, DEFAULT_SUPPORT_TAU } from '../../../shared/lots/fit';
import type { UpdateRule } from '../../../shared/project/updates';
import { runBenchStream, STREAM_DEFAULTS, STREAM_PRESETS, streamServingCost, type StreamPreset } from '../../engine/benchmark/stream';
import { DEFAULT_MODEL_SOURCE } from '../../engine/models/sources';
import { FIXTURE_MODELS } from '../../engine/models/model-arg';
import { commandLine, ensureModel } from '../real-model';
import { modelFlags, serverOptions } from '../bench-flags';

const DEFAULT_FAMILIES: FamilyName[] = ['compute_only', 'table_total'];
const d = STREAM_DEFAULTS;

export const command: Command = {
  name: 'bench stream',
  summary: 'serve the benchmark as a stream of batches: keep-all, frozen and updated spaces (and a capped cold start) batch by batch',
  usage:
    'lots bench stream --out <dir> [--preset figure15] [--model default] [--families a,b] [--batches 4] [--batch-size 4] [--eval 8] [--epsilon 0.25] [--explore-size N] [--cap C] [--alpha 0.3] [--budgets-from P | --k K | --rule support]',
  flags: {
    ...modelFlags(),
    model: {
      type: 'string',
      description: `GGUF file, a pulled source, or default (${DEFAULT_MODEL_SOURCE}, pulled if missing); ${FIXTURE_MODELS.join(' / ')} for the generated test models`,
      default: 'default',
    },
    out: { type: 'string', description: 'a new project folder for the stream' },
    families: { type: 'string', multi: true, description: `families arriving on the stream, in arrival order (default ${DEFAULT_FAMILIES.join(',')})` },
    batches: { type: 'string', description: `batches per family (default ${d.batches})` },
    'batch-size': { type: 'string', description: `requests per batch (default ${d.batchSize})` },
    eval: { type: 'string', description: `evaluation requests per family, the same for every arm and batch (default ${d.eval})` },
    registry: { type: 'string', description: 'registry size', default: '15' },
    seed: { type: 'string', description: 'benchmark seed', default: '0' },
    alpha: { type: 'string', description: `EMA weight of a new batch (default ${d.alpha}, the paper's stream)` },
    rule: { type: 'string', description: 'topk (default) or support (running support ≥ phi, paper D.5)' },
    k: { type: 'string', description: "one budget K for every family (default: each family's own, fitted: see --budgets-from)" },
    'budgets-from': {
      type: 'string',
      description: "a project whose sweeps give each family's budget (its bestK; e.g. a lots demo folder); default: a sweep of each family's first batch",
    },
    phi: { type: 'string', description: `support rule: minimum running share of requests with I > tau (default ${DEFAULT_PHI})` },
    tau: {
      type: 'string',
      description: `support rule: a request supports a tool when I > tau (default ${DEFAULT_SUPPORT_TAU}; "threshold 5%", see the README)`,
    },
    preset: {
      type: 'string',
      description:
        "figure15: the paper's Figure 15 (D.5) scaled to a 2-core CPU — all ten families, 8 batches of 2, 8 evaluation requests, 15 tools, support rule, α = 0.2, ε = 0; flags override",
    },
    cap: { type: 'string', description: 'serving cap C: adds the capped arm (first batch on a random C-sample, then ε-exploration)' },
    epsilon: {
      type: 'string',
      description: `exploration probability of the updated arm (and of the capped arm) after the first batch (default ${d.epsilon}, the paper's Figure 3; 0 turns it off)`,
    },
    'explore-size': { type: 'string', description: "menu size of the updated arm's explored requests (default: the whole registry)" },
    'arrival-every': { type: 'string', description: `steps between two families' arrivals (default ${d.arrivalEvery})` },
    threads: { type: 'string', description: 'CPU threads for the model (default: every core)' },
  },
  details: [
    "Every family's requests arrive in batches; family j arrives at step 1 + j·(arrival-every), and at each",
    'step the arrived family with the fewest completed batches gets its next batch. Arms, on the same',
    'requests and the same evaluation set:',
    '  keep-all  the whole registry;',
    '  frozen    the space after the first update, kept;',
    '  updated   the first batch under the registry, later ones under the current space, each request',
    '            explored with probability ε (the space plus other registry tools: all of them, or up to',
    '            --explore-size; paper Figure 3), scored (re-execution), folded into the running scores (EMA α)',
    '            and the space recomputed by the rule — applied at once (the experiment);',
    '  capped    with --cap C: the cold start under a serving cap, ε-exploration, updated as above.',
    "After each batch every arm's space is measured on the evaluation requests. Printed per family and",
    'batch: evaluation accuracy, prompt tokens per request of the batch, and the updated space; then the',
    'credited accuracy along the stream, and prompt tokens per served request over the stream with the',
    "explored requests counted (the paper's Table 12). Stored: stream.json and updates/<task>.json (the",
    'Studio plots them).',
    '',
    "--preset figure15: the paper's Figure 15 (D.5) as far as this machine allows — all ten families, eight",
    'batches of 2 requests (the paper: 40), 8 evaluation requests per family, 15 tools, the support rule',
    '(I > tau on a share ≥ phi of the requests: "threshold 5%" read as tau = 0.05, phi = 0.05; see the README),',
    'α = 0.2, no exploration; any flag overrides.',
    '',
    "Budgets (paper D.4): each family's top-K uses its own K — the bestK of its sweep in --budgets-from P,",
    "else of a budget sweep the stream runs on the family's first batch (K = 1…|A_t| served on those",
    'requests, the smallest K with the best accuracy; stored as the sweep of the task). --k K gives every',
    'family the same K.',
    '',
    'Cost: scoring a request under the 15-tool registry takes about a CPU-minute with the default model;',
    'later batches, under small spaces, a fraction of that.',
    'Exit codes: 0 ok; 2 usage error, a folder that is not new, or a model that cannot be loaded.',
  ].join('\n'),
  async run(args, io) {
    const out = requireFlag(args, 'out');
    const families = flagList(args, 'families');
    const unknown = families.filter((f) => !isFamilyName(f));
    if (unknown.length > 0)
      throw new UsageError(
        `unknown famil${unknown.length === 1 ? 'y' : 'ies'} ${unknown.map((f) => `"${f}"`).join(', ')}; choose from ${FAMILY_NAMES.join(', ')}`,
      );
    const presetName = choice(args, 'preset', Object.keys(STREAM_PRESETS) as StreamPreset[], undefined);
    const preset = presetName ? STREAM_PRESETS[presetName] : undefined;
    const ruleName = choice(args, 'rule', ['topk', 'support'] as const, preset ? preset.rule.kind : 'topk');
    const k = flagInt(args, 'k', { min: 1 });
    if (ruleName === 'support' && k !== undefined)
      throw new UsageError(`--k is the budget of the top-K rule; the support rule${preset ? ` (the ${presetName} preset's)` : ''} has none: add --rule topk`);
    const budgetsFrom = flagString(args, 'budgets-from');
    if (budgetsFrom !== undefined && (k !== undefined || ruleName === 'support'))
      throw new UsageError('--budgets-from gives each family its top-K budget; it does not go with --k or --rule support');
    const rule: UpdateRule | undefined =
      ruleName === 'support'
        ? { kind: 'support', tau: flagNumber(args, 'tau') ?? DEFAULT_SUPPORT_TAU, phi: flagNumber(args, 'phi') ?? DEFAULT_PHI }
        : k !== undefined
          ? { kind: 'topk', k }
          : undefined;
    const modelPath = await ensureModel(flagString(args, 'model') ?? 'default', io, 'bench stream');
    const abort = new AbortController();
    const onSigint = () => abort.abort(new ExpectedError('CANCELLED', 'the stream was interrupted; what ran is in stream.json'));
    process.once('SIGINT', onSigint);
    try {
      const record = await runBenchStream({
        ...serverOptions(args),
        modelPath,
        out,
        families: families.length ? (families as FamilyName[]) : preset ? [...preset.families] : DEFAULT_FAMILIES,
        batches: flagInt(args, 'batches', { min: 1 }) ?? preset?.batches,
        batchSize: flagInt(args, 'batch-size', { min: 1 }) ?? preset?.batchSize,
        eval: flagInt(args, 'eval', { min: 1 }) ?? preset?.eval,
        registry: flagInt(args, 'registry', { min: 15 }) ?? preset?.registry,
        seed: flagString(args, 'seed'),
        alpha: flagNumber(args, 'alpha') ?? preset?.alpha,
        ...(presetName ? { preset: presetName } : {}),
        rule,
        budgetsFrom,
        cap: flagInt(args, 'cap', { min: 1 }),
        epsilon: flagNumber(args, 'epsilon') ?? preset?.epsilon,
        exploreSize: flagInt(args, 'explore-size', { min: 1 }),
        arrivalEvery: flagInt(args, 'arrival-every', { min: 1 }),
        threads: flagInt(args, 'threads', { min: 1 }) ?? availableParallelism(),
        command: commandLine('bench stream', args),
        signal: abort.signal,
        log: (line) => io.out(line),
      });
      io.out('');
      io.out(formatStream(record));
      io.out('');
      io.out(`done in ${Math.round(record.seconds ?? 0)} s; stream.json and the updated spaces' history are in ${out} (open it in the Studio: npm run web)`);
      return EXIT_OK;
    } finally {
      process.removeListener('SIGINT', onSigint);
    }
  },
};

function ruleText(record: StreamRecord): string {
  const rule = record.options.rule;
  if (rule) return rule.kind === 'topk' ? `top-${rule.k}` : `support: share of requests with I > ${rule.tau} ≥ ${rule.phi}`;
  const b = record.options.budgets;
  return `top-K at each family's budget, from ${b?.source === 'project' ? `the sweeps in ${b.from}` : 'a sweep of its first batch'}`;
}

/** Per family: a row per batch with each arm's evaluation accuracy / prompt tokens; then credited accuracy. */
export function formatStream(record: StreamRecord): string {
  const arms = STREAM_ARMS.filter((a) => record.tasks.some((t) => t.arms[a]));
  const eps = record.options.epsilon;
  const label = (a: StreamArm) => (a === 'capped' ? `capped C=${record.options.cap} ε=${eps}` : a === 'updated' && eps ? `updated ε=${eps}` : a);
  const lines: string[] = [
    `accuracy on each family's ${record.options.eval} evaluation requests after each batch / prompt tokens per request of the batch (${record.modelName}, α = ${record.options.alpha}, ${ruleText(record)}):`,
  ];
  for (const t of record.tasks) {
    lines.push('', `${t.task} (arrives at step ${t.arrival}${t.rule?.kind === 'topk' ? `; K = ${t.rule.k}` : ''})`);
    const header = ['batch', 'step', ...arms.map(label), 'updated space'];
    const rows = t.arms.updated.map((u, i) => [
      String(u.batch),
      String(u.step),
      ...arms.map((a) => {
        const b = t.arms[a]?.[i];
        return b ? `${b.eval.accuracy.toFixed(2)} / ${Math.round(b.served.promptTokens)}` : '–';
      }),
      u.space.join(', ') || '(none)',
    ]);
    lines.push(...alignColumns([header, ...rows]));
  }
  lines.push('', `credited accuracy A_t = (1/T)·Σ over arrived families (T = ${record.tasks.length}):`);
  const header = ['step', 'family', ...arms.map(label)];
  const rows = record.credited.map((c) => [String(c.step), c.task, ...arms.map((a) => (c.arms[a] === undefined ? '–' : c.arms[a].toFixed(2)))]);
  lines.push(...alignColumns([header, ...rows]));
  const cost = streamServingCost(record);
  lines.push('', 'prompt tokens per served request over the stream (explored requests included, update scoring excluded; paper Table 12):');
  lines.push(
    ...alignColumns([
      ['arm', 'requests', 'explored', 'prompt tokens'],
      ...arms.flatMap((a) => {
        const c = cost[a];
        return c ? [[label(a), String(c.requests), String(c.explored), String(Math.round(c.promptTokens))]] : [];
      }),
    ]),
  );
  return lines.join('\n');
}
