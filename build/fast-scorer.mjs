#!/usr/bin/env node
// The fast read for scoring: node-llama-cpp's native binding built from its own sources with LOTS
// Studio's patch (build/patches/node-llama-cpp+3.21.1.patch, applied by patch-package when npm installs),
// which adds two calls to the binding: the log-prob of one token in one pass over the logits (no sampler,
// no sort of the vocabulary) and KV cells shared between sequences. Without it the Studio scores with
// node-llama-cpp's prebuilt binary, exactly but slower (`lots bench scoring` names the path used).
//
//   node build/fast-scorer.mjs            build it (once per machine: about 15 minutes on 2 cores; the
//                                         llama.cpp source comes from the git bundle inside the npm
//                                         package, nothing is downloaded) or restore the cached build
//   node build/fast-scorer.mjs --restore  only restore a cached build; never builds (npm's postinstall)
//   node build/fast-scorer.mjs --check    exit 0 when the installed node-llama-cpp has the fast read
//
// It builds for the backends this machine has: the CPU always (the tests and `--gpu cpu` use it) and,
// first, the GPU backend node-llama-cpp would pick here — Metal on macOS, CUDA where an NVIDIA GPU and
// CUDA's compiler (nvcc) are present, Vulkan where a GPU, the Vulkan headers and glslc are (Debian:
// `apt-get install libvulkan-dev glslc spirv-headers`). LOTS_FAST_SCORER_GPU=cuda|vulkan|metal|none
// overrides the choice; LOTS_VULKAN_INCLUDE_DIR points a Vulkan build at newer headers than the system's.
// A GPU build that fails is reported, with what it needs, and the CPU one is still built; `lots bench scoring` and `lots score` say which read path runs and why.
//
// The build is cached outside the clone (LOTS_FAST_SCORER_DIR, default ~/.cache/lots-studio/fast-scorer),
// keyed by the node-llama-cpp version, the patch, the platform and the CPU (llama.cpp is built for the
// CPU it runs on), so `npm ci` in any clone on this machine gets it back in a second.
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, homedir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const PACKAGE = join(ROOT, 'node_modules', 'node-llama-cpp');
const LOCAL_BUILDS = join(PACKAGE, 'llama', 'localBuilds');
const MARKER = 'copySequenceCells';

function say(line) {
  process.stdout.write(`fast scorer: ${line}\n`);
}

function patchFile() {
  const dir = join(ROOT, 'build', 'patches');
  const name = existsSync(dir) ? readdirSync(dir).find((f) => f.startsWith('node-llama-cpp+') && f.endsWith('.patch')) : undefined;
  if (!name) throw new Error(`no node-llama-cpp patch in ${dir}`);
  return join(dir, name);
}

function cacheDir() {
  const version = JSON.parse(readFileSync(join(PACKAGE, 'package.json'), 'utf8')).version;
  const hash = createHash('sha256')
    .update(readFileSync(patchFile()))
    .update(`${process.platform}-${process.arch}-${cpus()[0]?.model ?? ''}`)
    .digest('hex')
    .slice(0, 12);
  const base = process.env.LOTS_FAST_SCORER_DIR || join(homedir(), '.cache', 'lots-studio', 'fast-scorer');
  return join(base, `node-llama-cpp-${version}-${hash}`);
}

/** The local build folders (linux-x64, …) whose binding carries the patch's calls. */
function patchedBuilds(dir) {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { withFileTypes: true })
    .filter((d) => d.isDirectory())
    .map((d) => d.name)
    .filter((name) => {
      const addon = join(dir, name, 'Release', 'llama-addon.node');
      return existsSync(addon) && existsSync(join(dir, name, 'buildDone.status')) && readFileSync(addon).includes(MARKER);
    });
}

function installedHasFastRead() {
  return patchedBuilds(LOCAL_BUILDS).length > 0;
}

function patchApplied() {
  const cpp = join(PACKAGE, 'llama', 'addon', 'AddonContext.cpp');
  return existsSync(cpp) && readFileSync(cpp, 'utf8').includes(MARKER);
}

function restore() {
  const cached = join(cacheDir(), 'localBuilds');
  const builds = patchedBuilds(cached);
  if (builds.length === 0) return false;
  for (const name of builds) {
    const target = join(LOCAL_BUILDS, name);
    rmSync(target, { recursive: true, force: true });
    mkdirSync(target, { recursive: true });
    cpSync(join(cached, name, 'Release'), join(target, 'Release'), { recursive: true });
    writeFileSync(join(target, 'buildDone.status'), '');
  }
  say(`restored ${builds.join(', ')} from ${cacheDir()}`);
  return true;
}

function save() {
  const dest = cacheDir();
  const tmp = `${dest}.tmp-${process.pid}`;
  rmSync(tmp, { recursive: true, force: true });
  for (const name of patchedBuilds(LOCAL_BUILDS)) {
    cpSync(join(LOCAL_BUILDS, name, 'Release'), join(tmp, 'localBuilds', name, 'Release'), { recursive: true });
    writeFileSync(join(tmp, 'localBuilds', name, 'buildDone.status'), '');
  }
  rmSync(dest, { recursive: true, force: true });
  mkdirSync(dirname(dest), { recursive: true });
  renameSync(tmp, dest);
  say(`cached in ${dest}`);
}

function has(command) {
  return spawnSync('sh', ['-c', `command -v ${command}`], { stdio: 'ignore' }).status === 0;
}

/** The GPU backend to build for on this machine, and why (or why none). */
function gpuBackend(env = process.env) {
  const forced = env.LOTS_FAST_SCORER_GPU;
  if (forced) return forced === 'none' ? { gpu: false, why: 'LOTS_FAST_SCORER_GPU=none' } : { gpu: forced, why: `LOTS_FAST_SCORER_GPU=${forced}` };
  if (process.platform === 'darwin') return { gpu: 'metal', why: 'macOS' };
  const nvidia = has('nvidia-smi');
  if (nvidia && (has('nvcc') || existsSync('/usr/local/cuda/bin/nvcc'))) return { gpu: 'cuda', why: 'an NVIDIA GPU (nvidia-smi) and CUDA’s compiler (nvcc)' };
  const gpuDevice = nvidia || (existsSync('/dev/dri') && readdirSync('/dev/dri').some((d) => d.startsWith('renderD')));
  const vulkanHeaders = existsSync('/usr/include/vulkan/vulkan.h');
  if (gpuDevice && vulkanHeaders && has('glslc')) return { gpu: 'vulkan', why: 'a GPU, the Vulkan headers and glslc' };
  if (nvidia) return { gpu: false, why: 'an NVIDIA GPU but neither nvcc (CUDA) nor the Vulkan headers and glslc: install one (see docs/scoring-speed.md)' };
  return { gpu: false, why: 'no GPU found (nvidia-smi, /dev/dri/renderD*)' };
}

/**
 * The Vulkan headers the build compiles against. llama.cpp's Vulkan backend uses VK_EXT_layer_settings
 * (`vk::LayerSettingEXT`), which Vulkan-Headers 1.3.239 — Debian 12's libvulkan-dev — lacks. LOTS_VULKAN_INCLUDE_DIR
 * points the build at newer headers (they are headers only: e.g. Debian 13's libvulkan-dev unpacked with
 * `dpkg-deb -x`); the loader stays the system's.
 */
function vulkanHeaders(env = process.env) {
  const dir = env.LOTS_VULKAN_INCLUDE_DIR || '/usr/include';
  const structs = join(dir, 'vulkan', 'vulkan_structs.hpp');
  const ok = existsSync(structs) && readFileSync(structs, 'utf8').includes('LayerSettingEXT');
  return { dir, ok, custom: Boolean(env.LOTS_VULKAN_INCLUDE_DIR) };
}

function run(args, { fatal = true, env = process.env } = {}) {
  const r = spawnSync(process.execPath, [join(PACKAGE, 'dist', 'cli', 'cli.js'), ...args], { cwd: ROOT, stdio: 'inherit', env });
  if (r.status !== 0) {
    if (!fatal) return false;
    process.stderr.write(
      `fast scorer: \`node-llama-cpp ${args.join(' ')}\` failed (${r.error?.message ?? `exit code ${r.status}`}). It needs cmake and a C++ compiler.\n`,
    );
    process.exit(1);
  }
  return true;
}

function build() {
  if (!patchApplied()) {
    process.stderr.write('fast scorer: node-llama-cpp is not patched (build/patches/); run `npm ci` (its postinstall applies the patch) and try again.\n');
    process.exit(1);
  }
  const started = Date.now();
  const backend = gpuBackend();
  if (!existsSync(join(PACKAGE, 'llama', 'llama.cpp', 'CMakeLists.txt'))) run(['source', 'download', '--skipBuild', '--noUsageExample']);
  if (backend.gpu) {
    say(`building node-llama-cpp from its sources with the patch for ${backend.gpu} (${backend.why}); then for the CPU`);
    const gpuStarted = Date.now();
    let env = process.env;
    if (backend.gpu === 'vulkan') {
      const headers = vulkanHeaders();
      if (!headers.ok)
        say(
          `the Vulkan headers in ${headers.dir} lack VK_EXT_layer_settings (vk::LayerSettingEXT), which llama.cpp's Vulkan backend uses: ` +
            'the Vulkan build will fail. Point LOTS_VULKAN_INCLUDE_DIR at newer headers (headers that have VK_EXT_layer_settings, e.g. Debian 13’s libvulkan-dev 1.4.309 unpacked; docs/scoring-speed.md)',
        );
      if (headers.custom) env = { ...process.env, NODE_LLAMA_CPP_CMAKE_OPTION_Vulkan_INCLUDE_DIR: headers.dir };
    }
    if (run(['source', 'build', '--gpu', backend.gpu, '--noUsageExample'], { fatal: false, env })) {
      say(`${backend.gpu} build done in ${Math.round((Date.now() - gpuStarted) / 1000)} s`);
      if (env !== process.env)
        say(
          `node-llama-cpp keeps a build made with custom CMake options under its own folder name: set NODE_LLAMA_CPP_CMAKE_OPTION_Vulkan_INCLUDE_DIR=${env.NODE_LLAMA_CPP_CMAKE_OPTION_Vulkan_INCLUDE_DIR} where the Studio or \`lots\` runs too, or it uses the prebuilt Vulkan binary`,
        );
    } else say(`the ${backend.gpu} build failed (see above); scoring on this GPU keeps the prebuilt binary's path. Building for the CPU.`);
  } else say(`no GPU backend to build for (${backend.why})`);
  say('building node-llama-cpp from its sources with the patch, CPU backend (once per machine; about 15 minutes on 2 cores)');
  run(['source', 'build', '--gpu', 'false', '--noUsageExample']);
  if (!installedHasFastRead()) {
    process.stderr.write('fast scorer: the build finished but its binding lacks the patched calls; see the output above.\n');
    process.exit(1);
  }
  say(`built in ${Math.round((Date.now() - started) / 1000)} s`);
  save();
}

const mode = process.argv[2];
if (mode === '--check') process.exit(installedHasFastRead() ? 0 : 1);
else if (mode === '--restore') {
  // npm's postinstall: quiet when there is nothing cached, never fails the install.
  try {
    if (!installedHasFastRead()) restore();
  } catch (e) {
    process.stderr.write(`fast scorer: could not restore the cached build (${e.message}); \`node build/fast-scorer.mjs\` builds it\n`);
  }
} else if (mode === undefined) {
  if (installedHasFastRead()) {
    say('already installed');
    if (patchedBuilds(join(cacheDir(), 'localBuilds')).length === 0) save();
  } else if (!restore()) build();
} else {
  process.stderr.write(`usage: node build/fast-scorer.mjs [--restore | --check]\n`);
  process.exit(2);
}
