// `lots route`: give unlabelled requests a task by clustering their text (paper D.1); with --evaluate,
// measure how well that routing recovers the labels the project already has (Table 10).
import { choice, flagInt, flagList, flagNumber, flagString, requireFlag, UsageError } from '../args';
import { EXIT_OK, type CliIO, type Command } from '../command';
import { ProjectStore } from '../../engine/store';
import { GPU_CHOICES } from '../../engine/llama';
import type { RoutingMethod } from '../../../shared/routing/route';
import { DEFAULT_QUALITY_SEEDS } from '../../../shared/routing/evaluate';
import type { MeanSd } from '../../../shared/routing/quality';
import { evaluateProjectRouting, routeProjectWith, type RoutingEmbedding, type RoutingQualityReport } from '../../engine/usecases/route';
import { ensureModel } from '../real-model';
import { SENTENCE_ENCODER_SOURCE } from '../../engine/models/sources';

export const command: Command = {
  name: 'route',
  summary: 'assign tasks to requests that have no task label, by clustering their text; --evaluate measures it against known labels',
  usage:
    'lots route --project <dir> [--k N | --tau x] [--embed tfidf|minilm|model [--model default]|<gguf>] [--seed s] [--dry-run] [--evaluate [--seeds 1,2,3]] [--json]',
  flags: {
    project: { type: 'string', description: 'the project folder' },
    k: { type: 'string', description: 'number of tasks (default: chosen by silhouette over 2…20)' },
    tau: { type: 'string', description: 'online threshold router: cosine similarity needed to join a task' },
    seed: { type: 'string', description: 'seed of k-means++', default: '1' },
    embed: {
      type: 'string',
      description:
        "tfidf (default: hashed TF-IDF of the text), minilm (the sentence encoder all-MiniLM-L6-v2, pulled if missing), model (a GGUF's own embeddings, --model), or an embedding GGUF",
    },
    model: { type: 'string', description: 'with --embed model: GGUF file, a pulled source, or default (the serving default model, pulled if missing)' },
    gpu: { type: 'string', description: `with a dense --embed: ${GPU_CHOICES.join(', ')} (default auto)` },
    threads: { type: 'string', description: 'with a dense --embed: CPU threads' },
    'dry-run': { type: 'boolean', description: 'print the routing without saving it' },
    evaluate: {
      type: 'boolean',
      description: 'route the requests that have a task label as if they had none and compare: purity, NMI, ARI, clusters (nothing is saved)',
    },
    seeds: { type: 'string', multi: true, description: `with --evaluate: k-means seeds, mean ± sd over them (default ${DEFAULT_QUALITY_SEEDS.join(',')})` },
    json: { type: 'boolean', description: 'print JSON' },
  },
  details: [
    'Requests with a task label keep it. The others are embedded (hashed TF-IDF of their text; with',
    '--embed minilm by the sentence encoder all-MiniLM-L6-v2, mean-pooled, as the paper embeds with a',
    "sentence encoder; with --embed model by a GGUF's own embeddings, by default the serving model's, a",
    'decoder LLM) and clustered; each cluster becomes a task named',
    'cluster-NN. Splitting a task costs little and merging two costs a lot (paper D.1), so ties in the',
    'silhouette choose more clusters. Rerunning replaces the previous routing; the imported traces',
    'themselves are never modified.',
    '',
    '--evaluate: the labelled requests (benchmark families, BFCL classes, --task-field labels) are routed',
    'ignoring their labels and the clusters compared with them (paper Table 10): purity, NMI, ARI and the',
    'number of clusters, mean ± sd over the seeds. A built-in benchmark project is routed as the paper',
    'does: fitted on the fitting requests, measured on the evaluation requests routed to the nearest',
    'centroid; other projects are clustered and measured whole.',
  ].join('\n'),
  async run(args, io) {
    const store = ProjectStore.open(requireFlag(args, 'project'));
    const k = flagInt(args, 'k', { min: 1 });
    const tau = flagNumber(args, 'tau');
    const method: RoutingMethod = k !== undefined ? { kind: 'kmeans', k } : tau !== undefined ? { kind: 'threshold', tau } : { kind: 'silhouette' };
    const embedding = await embeddingOf(args, io);
    const progress = (done: number, total: number) => {
      if (!args.flags.json && (done === total || done % 50 === 0)) io.err(`embedding requests: ${done}/${total}`);
    };
    if (args.flags.evaluate) {
      if (args.flags['dry-run']) throw new UsageError('--evaluate saves nothing; it does not take --dry-run');
      const seeds = flagList(args, 'seeds').map((s) => {
        const n = Number(s);
        if (!Number.isInteger(n)) throw new UsageError(`--seeds takes integers, got "${s}"`);
        return n;
      });
      const report = await evaluateProjectRouting(store, { method, ...(seeds.length ? { seeds } : {}), embedding, onProgress: progress });
      if (args.flags.json) io.out(JSON.stringify(report, null, 2));
      else for (const line of formatQuality(report)) io.out(line);
      return EXIT_OK;
    }
    const result = await routeProjectWith(store, {
      method,
      seed: flagInt(args, 'seed') ?? 1,
      dryRun: Boolean(args.flags['dry-run']),
      embedding,
      onProgress: progress,
    });
    const n = Object.keys(result.routes).length;
    if (args.flags.json) {
      io.out(JSON.stringify({ routed: n, method, embedding: embedding.kind, ...result }, null, 2));
      return EXIT_OK;
    }
    if (n === 0) {
      io.out('every request already has a task label; nothing to route');
      return EXIT_OK;
    }
    io.out(`routed ${n} unlabelled requests into ${result.clusters} tasks (silhouette ${result.silhouette.toFixed(3)})`);
    for (const [task, ex] of Object.entries(result.examples).sort()) {
      io.out(`  ${task}  ${String(result.sizes[task] ?? 0).padStart(5)} requests  e.g. "${ex[0]}"`);
    }
    return EXIT_OK;
  },
};

async function embeddingOf(args: Parameters<Command['run']>[0], io: CliIO): Promise<RoutingEmbedding> {
  const kind = flagString(args, 'embed') || 'tfidf';
  if (kind === 'tfidf') {
    for (const flag of ['model', 'gpu', 'threads'] as const)
      if (args.flags[flag] !== undefined)
        throw new UsageError(`--${flag} is for --embed model, minilm or a GGUF (the requests are embedded by TF-IDF otherwise)`);
    return { kind: 'tfidf' };
  }
  if (kind !== 'model' && args.flags.model !== undefined)
    throw new UsageError(`--model is for --embed model; --embed ${kind} names the embedding model itself`);
  const model = kind === 'model' ? (flagString(args, 'model') ?? 'default') : kind === 'minilm' ? SENTENCE_ENCODER_SOURCE : kind;
  const path = await ensureModel(model, io, 'route');
  const threads = flagInt(args, 'threads', { min: 1 });
  return { kind: 'model', path, gpu: choice(args, 'gpu', GPU_CHOICES, 'auto'), ...(threads !== undefined ? { threads } : {}) };
}

function pm(x: MeanSd, digits = 3): string {
  return `${x.mean.toFixed(digits)} ± ${x.sd.toFixed(digits)}`;
}

/** The Table 10 figures in a few lines. */
export function formatQuality(r: RoutingQualityReport): string[] {
  const method =
    r.method.kind === 'kmeans' ? `k-means, k = ${r.method.k}` : r.method.kind === 'threshold' ? `threshold τ = ${r.method.tau}` : 'k by silhouette';
  const embedding = r.embedding === 'tfidf' ? 'hashed TF-IDF' : `the embeddings of ${r.model} (${r.dimensions} dimensions, ${r.embedSeconds.toFixed(1)} s)`;
  const where = r.protocol === 'fit-eval' ? `fitted on ${r.fitted} fitting requests, measured on ${r.measured} evaluation requests` : `${r.measured} requests`;
  const labels = r.perSeed[0]?.labels ?? 0;
  return [
    `routing quality against ${labels} known labels (${method}; ${embedding}; ${where}; seeds ${r.seeds.join(', ')}):`,
    `  purity   ${pm(r.purity)}`,
    `  NMI      ${pm(r.nmi)}`,
    `  ARI      ${pm(r.ari)}`,
    `  clusters ${pm(r.clusters, 1)}`,
  ];
}
