// `lots bench model`: one model's speed and keep-all accuracy on this machine (how the default was chosen).
import { choice, flagInt, flagList, flagString, UsageError, type ParsedArgs } from '../args';
import { EXIT_OK, type CliIO, type Command } from '../command';
import { FAMILY_NAMES, isFamilyName, type FamilyName } from '../../../shared/benchmark/family';
import { resolveModelArg } from '../../engine/models/model-arg';
import { runModelBench, type ModelBenchReport } from '../../engine/benchmark/models';
import { formatBytes } from '../../engine/llama/model-file';
import { GPU_CHOICES, type GpuChoice } from '../../engine/llama/runtime';

const DEFAULT_FAMILIES: FamilyName[] = ['table_total', 'sensor_mean', 'fx_settle'];

export const command: Command = {
  name: 'bench model',
  summary: 'measure a model on this machine: size, prompt and generation tokens/s, keep-all accuracy on benchmark requests',
  usage: 'lots bench model --model <gguf|pypi:…> [--model …] [--families a,b,c] [--requests N] [--prompt compact|verbose] [--json]',
  flags: {
    model: { type: 'string', multi: true, description: 'GGUF path, a pulled source (pypi:…), or default; repeat to compare' },
    families: { type: 'string', multi: true, description: `benchmark families (default ${DEFAULT_FAMILIES.join(',')}; any of ${FAMILY_NAMES.join(', ')})` },
    requests: { type: 'string', description: 'requests per family', default: '6' },
    prompt: { type: 'string', description: 'compact (TGB-style menu) | verbose (full descriptions and schemas)', default: 'compact' },
    'max-tokens': { type: 'string', description: 'longest answer, in tokens', default: '24' },
    gpu: { type: 'string', description: GPU_CHOICES.join(' | '), default: 'auto' },
    json: { type: 'boolean', description: 'print the reports as JSON' },
  },
  async run(args: ParsedArgs, io: CliIO): Promise<number> {
    const models = flagList(args, 'model');
    if (models.length === 0) throw new UsageError('--model is required');
    const families = flagList(args, 'families');
    for (const f of families) if (!isFamilyName(f)) throw new UsageError(`unknown family "${f}"; one of ${FAMILY_NAMES.join(', ')}`);
    const prompt = choice(args, 'prompt', ['compact', 'verbose']);
    const reports: ModelBenchReport[] = [];
    for (const model of models) {
      reports.push(
        await runModelBench({
          model: resolveModelArg(model),
          gpu: (flagString(args, 'gpu') ?? 'auto') as GpuChoice,
          families: families.length ? (families as FamilyName[]) : DEFAULT_FAMILIES,
          requests: flagInt(args, 'requests', { min: 1 }) ?? 6,
          maxTokens: flagInt(args, 'max-tokens', { min: 1 }),
          prompt,
          onProgress: (m) => io.err(m),
        }),
      );
    }
    if (args.flags.json) io.out(JSON.stringify(reports, null, 2));
    else io.out(formatModelTable(reports));
    return EXIT_OK;
  },
};

export function formatModelTable(reports: readonly ModelBenchReport[]): string {
  const head = [
    'model',
    'arch',
    'params',
    'size',
    'format',
    'prompt tok',
    'prompt tok/s',
    'gen tok/s',
    ...reports[0]!.accuracy.map((a) => a.family),
    'keep-all acc',
  ];
  const rows = reports.map((r) => [
    r.name,
    r.architecture ?? '?',
    r.parameters ?? '?',
    formatBytes(r.sizeBytes),
    r.renderFormat,
    `${r.promptTokensPerRequest.min}–${r.promptTokensPerRequest.max}`,
    r.promptEvalTokensPerSecond.toFixed(0),
    r.generationTokensPerSecond.toFixed(1),
    ...r.accuracy.map((a) => `${a.correct}/${a.n}`),
    r.accuracyMean.toFixed(2),
  ]);
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const fmt = (r: string[]) => '| ' + r.map((c, i) => c.padEnd(widths[i]!)).join(' | ') + ' |';
  return [fmt(head), '|' + widths.map((w) => '-'.repeat(w + 2)).join('|') + '|', ...rows.map(fmt)].join('\n');
}
