// Use case "demo": the Studio's demo, built and checked here before its job starts — a benchmark project
// to look at (buildDemoProject), the options of "Run the demo" resolved into the job spec with its
// equivalent `lots demo` command line (demoJobSpec), the setup the card offers, and the bundled sample
// project opened as a copy.
import { cpSync, existsSync, mkdirSync, readdirSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { ApiParsedInput } from '../../../shared/api/schemas';
import type { DemoSetup } from '../../../shared/api/types';
import { AUTHORED_COUNT, MAX_REGISTRY } from '../../../shared/benchmark/registry';
import { FAMILY_NAMES, type FamilyName } from '../../../shared/benchmark/family';
import { ExpectedError, invalid } from '../../../shared/api/errors';
import { DEMO_DEFAULTS, DEMO_PRESETS } from '../benchmark/demo';
import { makeBenchProject } from '../benchmark/make';
import type { DemoJobSpec, DemoOptionsSpec } from '../jobs/protocol';
import { checkModelPath } from '../llama';
import { findPulled } from '../models/model-dir';
import { DEFAULT_MODEL_SOURCE, parseModelSource, sourceKey } from '../models/sources';
import type { ProjectStore } from '../store';

/** The `lots demo` command that runs (and resumes) the same demo in a terminal; recorded in demo.json. */
export function demoCommandLine(spec: Omit<DemoOptionsSpec, 'modelPath'>, model: string): string {
  const quote = (v: string) => (/^[\w.,/:@=+-]+$/.test(v) ? v : JSON.stringify(v));
  const flags: Array<[string, string | number | undefined]> = [
    ['out', spec.out],
    ['model', model],
    ['families', spec.families?.join(',')],
    ['registry', spec.registries?.join(',')],
    ['seed', spec.seed],
    ['fit', spec.fit],
    ['eval', spec.eval],
    ['draws', spec.draws],
    ['k-max', spec.kMax],
    ['max-tokens', spec.maxTokens],
    ['threads', spec.threads],
    ['gpu', spec.gpu],
  ];
  const parts = ['lots', 'demo', ...flags.flatMap(([name, value]) => (value === undefined ? [] : [`--${name}`, quote(String(value))]))];
  if (spec.preset && spec.preset !== 'quick') parts.push('--preset', spec.preset);
  return parts.join(' ');
}

/** assets/sample-project beside the sources (the CLI and web host run from a checkout). */
export const DEFAULT_SAMPLE_PROJECT_DIR = fileURLToPath(new URL('../../../assets/sample-project', import.meta.url));

/** The config folder's subfolders where the Studio makes demo projects and copies of the sample project. */
export const DEMO_PROJECTS = 'demo-projects';
export const SAMPLE_PROJECTS = 'sample-projects';
/** Where the Studio's demo runs go by default (one folder per start, named by its time). */
export const DEMO_RUNS = 'demo-runs';

/** Copy the bundled sample project to `<configDir>/sample-projects/<stamp>`; the bundle is never written. */
export function copySampleProject(sampleDir: string, configDir: string, now = new Date()): string {
  if (!existsSync(join(sampleDir, 'project.json'))) {
    throw new ExpectedError(
      'NOT_FOUND',
      `the sample project is missing from this installation (${sampleDir}); reinstall, or regenerate it with \`npm run sample\``,
    );
  }
  const parent = join(configDir, SAMPLE_PROJECTS);
  mkdirSync(parent, { recursive: true });
  const dest = join(parent, now.toISOString().replace(/[:.]/g, '-'));
  // Leftovers of the run that made it (locks, job files) are not part of the sample.
  cpSync(sampleDir, dest, { recursive: true, filter: (src) => !/[\\/](jobs|\.lock)$|\.tmp$/.test(src) });
  return dest;
}

/** What resolving a demo's model needs from the caller: the models folder, the generated reference
 * model, and the path policy a model file given by path must pass. */
export interface DemoModels {
  modelsDir: string;
  reference(): { path: string };
  checkPath(path: string, what: string): void;
}

/** A benchmark project with gold answers as the frozen answers (scorable at once, without serving). */
export function buildDemoProject(input: ApiParsedInput<'buildDemo'>, configDir: string): ProjectStore {
  const dir = input.dir ?? join(configDir, DEMO_PROJECTS, new Date().toISOString().replace(/[:.]/g, '-'));
  const unknown = (input.families ?? []).filter((f) => !(FAMILY_NAMES as readonly string[]).includes(f));
  if (unknown.length > 0) throw invalid(`unknown benchmark families: ${unknown.join(', ')}; choose from ${FAMILY_NAMES.join(', ')}`);
  const made = makeBenchProject(dir, {
    fit: DEMO_DEFAULTS.fit,
    eval: DEMO_DEFAULTS.eval,
    answers: 'gold',
    ...(input.families ? { families: input.families as FamilyName[] } : {}),
    ...(input.registry ? { registry: input.registry } : {}),
    ...(input.seed !== undefined ? { seed: String(input.seed) } : {}),
  });
  return made.store;
}

export function demoSetup(configDir: string, modelsDir: string): DemoSetup {
  const preset = (p: (typeof DEMO_PRESETS)[keyof typeof DEMO_PRESETS]) => ({ fit: p.fit, eval: p.eval, draws: p.draws, kMax: p.kMax ?? null });
  return {
    defaultDir: newDemoRunDir(configDir),
    defaultModel: { source: DEFAULT_MODEL_SOURCE, path: pulledDefaultModel(modelsDir), pullCommand: `npx lots models pull ${DEFAULT_MODEL_SOURCE}` },
    presets: { quick: preset(DEMO_PRESETS.quick), standard: preset(DEMO_PRESETS.standard), full: preset(DEMO_PRESETS.full) },
    families: [...FAMILY_NAMES],
    registry: { min: AUTHORED_COUNT, max: MAX_REGISTRY, default: AUTHORED_COUNT },
  };
}

function newDemoRunDir(configDir: string): string {
  return join(configDir, DEMO_RUNS, new Date().toISOString().replace(/[:.]/g, '-'));
}

/** `lots demo` as a job: the folder and the model are checked here, runDemo runs in the job worker. */
export function demoJobSpec(input: ApiParsedInput<'startDemo'>, configDir: string, models: DemoModels): Omit<DemoJobSpec, 'jobId'> {
  const out = resolve(input.dir ?? newDemoRunDir(configDir));
  if (existsSync(out) && readdirSync(out).length > 0 && !existsSync(join(out, 'project.json'))) {
    throw invalid(
      `${out} already exists and is not a demo project; choose a new output folder (or the folder of an earlier demo, with its options, to resume it)`,
    );
  }
  const bad = (input.registry ?? []).filter((r) => r > MAX_REGISTRY);
  if (bad.length > 0) throw invalid(`a registry has between ${AUTHORED_COUNT} and ${MAX_REGISTRY} tools, got ${bad.join(', ')}`);
  const modelPath = demoModelPath(input.model, models);
  const preset = input.preset ?? 'quick';
  const registries = [...new Set(input.registry ?? [])].sort((a, b) => a - b);
  const threads = input.threads ?? availableParallelism();
  const spec: DemoOptionsSpec = {
    out,
    modelPath,
    preset,
    ...(input.families ? { families: input.families } : {}),
    ...(registries.length ? { registries } : {}),
    ...(input.seed !== undefined ? { seed: input.seed } : {}),
    ...(input.fit !== undefined ? { fit: input.fit } : {}),
    ...(input.eval !== undefined ? { eval: input.eval } : {}),
    ...(input.draws !== undefined ? { draws: input.draws } : {}),
    ...(input.kMax !== undefined ? { kMax: input.kMax } : {}),
    ...(input.maxTokens !== undefined ? { maxTokens: input.maxTokens } : {}),
    ...(input.gpu ? { gpu: input.gpu } : {}),
    threads,
  };
  return { ...spec, command: demoCommandLine(spec, input.model === 'default' ? 'default' : modelPath) };
}

/** "default": the default real model once pulled; "reference": the generated reference model; else a pulled source or a GGUF file. */
export function demoModelPath(model: string, models: DemoModels): string {
  if (model === 'reference') return models.reference().path;
  if (model === 'default' || model === DEFAULT_MODEL_SOURCE) {
    const path = pulledDefaultModel(models.modelsDir);
    if (path) return path;
    throw new ExpectedError(
      'MODEL_NOT_PULLED',
      `the default model (${DEFAULT_MODEL_SOURCE}) is not in the models folder (${models.modelsDir}) yet: pull it on the Models view or with \`npx lots models pull ${DEFAULT_MODEL_SOURCE}\`, or run the demo with the reference model (its results are noise)`,
    );
  }
  let source;
  try {
    source = parseModelSource(model);
  } catch (e) {
    throw new ExpectedError('INVALID_INPUT', (e as Error).message);
  }
  if (source.kind === 'path') {
    models.checkPath(source.path, 'startDemo: model');
    return checkModelPath(source.path).path;
  }
  const pulled = findPulled(models.modelsDir, sourceKey(source));
  if (!pulled)
    throw new ExpectedError(
      'MODEL_NOT_PULLED',
      `${model} is not in the models folder (${models.modelsDir}) yet: pull it on the Models view or with \`npx lots models pull ${model}\``,
    );
  return pulled.path;
}

export function pulledDefaultModel(modelsDir: string): string | null {
  return findPulled(modelsDir, sourceKey(parseModelSource(DEFAULT_MODEL_SOURCE)))?.path ?? null;
}
