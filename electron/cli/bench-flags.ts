// Flags shared by the bench commands (bench make, serve, sweep, evaluate, demo): the generated benchmark,
// the local model that answers its requests, and the tasks to work on.
import { FAMILY_NAMES, isFamilyName, type FamilyName } from '../../shared/benchmark/family';
import type { BenchOptions } from '../../shared/benchmark/generate';
import { MAX_REGISTRY } from '../../shared/benchmark/registry';
import { BENCH_VARIANTS, COMPOSITION_MAX_TOKENS, DEFAULT_VARIANT, VARIANT_SUMMARIES } from '../../shared/benchmark/variant';
import { FIXTURE_MODELS, resolveModelArg } from '../engine/models/model-arg';
import { BenchServer, DEFAULT_MAX_TOKENS, DEFAULT_PARALLEL, type BenchServerOptions } from '../engine/benchmark/server';
import { GPU_CHOICES } from '../engine/llama/runtime';
import { choice, flagInt, flagList, flagString, requireFlag, UsageError, type ParsedArgs } from './args';
import { CliError, type CliIO, type Command } from './command';
import { ensureModel } from './real-model';
import { SENTENCE_ENCODER_SOURCE } from '../engine/models/sources';

/** `--variant` of the commands that generate the benchmark (bench make, demo); the names come from the registry. */
export function variantFlag(): Command['flags'] {
  return {
    variant: {
      type: 'string',
      description: `benchmark variant: ${BENCH_VARIANTS.map((v) => `${v} (${VARIANT_SUMMARIES[v]})`).join('; ')}`,
      default: DEFAULT_VARIANT,
    },
  };
}

/** What to generate: --seed, --families, --registry, --fit, --eval, --answers, --variant. */
export function benchOptions(args: ParsedArgs): BenchOptions {
  const families = flagList(args, 'families');
  const unknown = families.filter((f) => !isFamilyName(f));
  if (unknown.length > 0)
    throw new UsageError(
      `unknown famil${unknown.length === 1 ? 'y' : 'ies'} ${unknown.map((f) => `"${f}"`).join(', ')}; choose from ${FAMILY_NAMES.join(', ')}`,
    );
  const registry = flagInt(args, 'registry', { min: 15 });
  if (registry !== undefined && registry > MAX_REGISTRY) throw new UsageError(`--registry must be at most ${MAX_REGISTRY}, got ${registry}`);
  return {
    seed: flagString(args, 'seed'),
    families: families.length ? (families as FamilyName[]) : undefined,
    registry,
    fit: flagInt(args, 'fit', { min: 0 }),
    eval: flagInt(args, 'eval', { min: 0 }),
    answers: choice(args, 'answers', ['empty', 'gold'], undefined),
    variant: choice(args, 'variant', BENCH_VARIANTS, undefined),
  };
}

export function modelFlags(): Command['flags'] {
  return {
    model: { type: 'string', description: `GGUF model file (or ${FIXTURE_MODELS.join(' / ')}: generated test models)` },
    gpu: { type: 'string', description: GPU_CHOICES.join(' | '), default: 'auto' },
    parallel: {
      type: 'string',
      description: 'requests in flight (parallel sequences of one context, taking turns in the decode)',
      default: String(DEFAULT_PARALLEL),
    },
    // No flag default: left out, each request's variant sets it (server.ts answerTokens), so a composition
    // reply, which writes its calculation before the result, is not cut at the faithful variant's 16 tokens.
    'max-tokens': {
      type: 'string',
      description: `longest answer, in tokens (default: ${DEFAULT_MAX_TOKENS}; ${COMPOSITION_MAX_TOKENS} for the composition variant, whose reply writes its calculation first)`,
    },
    threads: { type: 'string', description: 'CPU threads for the model (default: every core but one)' },
  };
}

export function serverOptions(args: ParsedArgs): BenchServerOptions {
  return {
    gpu: choice(args, 'gpu', GPU_CHOICES, 'auto'),
    parallel: flagInt(args, 'parallel', { min: 1 }),
    maxTokens: flagInt(args, 'max-tokens', { min: 1 }),
    threads: flagInt(args, 'threads', { min: 1 }),
  };
}

export async function openServer(args: ParsedArgs, extra: Pick<BenchServerOptions, 'embedder'> = {}): Promise<BenchServer> {
  return BenchServer.open(resolveModelArg(requireFlag(args, 'model')), { ...serverOptions(args), ...extra });
}

/** `--embed` of the commands that run Dense and Tool2Vec (evaluate, demo). */
export function embedFlags(): Command['flags'] {
  return {
    embed: {
      type: 'string',
      description:
        "what Dense and Tool2Vec embed with: auto (default: minilm once pulled, else model), minilm (the sentence encoder all-MiniLM-L6-v2, pulled if missing), model (the serving model's own embeddings, a decoder LLM), or an embedding GGUF",
    },
  };
}

/** The server's `embedder` option from `--embed` (minilm is pulled first when missing); undefined: auto. */
export async function embedderOption(args: ParsedArgs, io: CliIO, command: string): Promise<Pick<BenchServerOptions, 'embedder'>> {
  const value = flagString(args, 'embed');
  if (value === undefined || value === '' || value === 'auto' || value === 'model') return value ? { embedder: value } : {};
  return { embedder: await ensureModel(value === 'minilm' ? SENTENCE_ENCODER_SOURCE : value, io, command) };
}

/** The tasks asked for (all when none is), each checked against the benchmark's. */
export function selectTasks(known: readonly string[], wanted: readonly string[]): string[] {
  if (wanted.length === 0) return [...known];
  const unknown = wanted.filter((t) => !known.includes(t));
  if (unknown.length > 0) throw new CliError(`no benchmark requests for task ${unknown.map((t) => `"${t}"`).join(', ')}; tasks: ${known.join(', ')}`);
  return known.filter((t) => wanted.includes(t));
}
