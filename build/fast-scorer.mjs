#!/usr/bin/env node
// The fast read for scoring: node-llama-cpp's native binding with LOTS Studio's patch
// (build/patches/node-llama-cpp+3.21.1.patch, applied by patch-package when npm installs), which adds two
// calls to the binding: the log-prob of one token in one pass over the logits (no sampler, no sort of the
// vocabulary) and KV cells shared between sequences. Without it the Studio scores with node-llama-cpp's
// prebuilt binary, exactly but slower (`lots bench scoring` names the path used).
//
//   node build/fast-scorer.mjs               build it (once per machine) or restore the cached build
//   node build/fast-scorer.mjs --prebuilt    the CPU binding linked against the prebuilt libraries too (15 s)
//   node build/fast-scorer.mjs --from-source a GPU binding built from source too (needs the GPU's compiler)
//   node build/fast-scorer.mjs --restore     only restore a cached build; never builds (npm's postinstall)
//   node build/fast-scorer.mjs --check       exit 0 when the installed node-llama-cpp has the fast read
//
// Two routes per backend:
// - Linked (a GPU on Linux by default; the CPU with --prebuilt): only the binding's 18 patched files are
//   compiled, about 15 s on 2 cores, and linked against the llama.cpp libraries of node-llama-cpp's own
//   prebuilt package for the backend (build/llama-cpp.mjs). A GPU build then needs no CUDA compiler, Vulkan
//   SDK or shader compiler: the prebuilt CUDA and Vulkan packages carry their kernels.
// - From source (the CPU by default; a GPU with --from-source, and on macOS and Windows): node-llama-cpp
//   builds llama.cpp and the binding from the git bundle inside its npm package (4–11 minutes on 2 cores
//   for the CPU, nothing downloaded), for the CPU it runs on and with OpenMP. The prebuilt CPU libraries are
//   built without OpenMP: on a real model they score about 5% slower here and generate as fast, but on a
//   tiny model two threads spend ~15 ms a token waiting on each other (a 320-token generation of the test
//   fixture: 4.3–4.9 s against 0.3 s), which made a fixture-model demo's Tool2Vec step 11 times slower (71 s
//   against 6.4 s) and three CI tests time out: docs/scoring-speed.md.
//
// It builds for the backends this machine has: the CPU always (the tests and `--gpu cpu` use it) and,
// first, the GPU backend node-llama-cpp would pick here — Metal on macOS, CUDA where an NVIDIA GPU is
// (from source: and CUDA's compiler nvcc), Vulkan where a GPU and the Vulkan loader are (from source: and the
// Vulkan headers and glslc; Debian: `apt-get install libvulkan-dev glslc spirv-headers`).
// LOTS_FAST_SCORER_GPU=cuda|vulkan|metal|none overrides the choice; LOTS_VULKAN_INCLUDE_DIR points a Vulkan
// build at newer headers than the system's. A GPU build that fails is reported, with what it needs, and the
// CPU one is still built; `lots bench scoring` and `lots score` say which read path runs and why.
//
// The build is cached outside the clone (LOTS_FAST_SCORER_DIR, default ~/.cache/lots-studio/fast-scorer),
// keyed by the node-llama-cpp version, the patch, the CPU binding's route, the platform and the CPU, so `npm ci` in any
// clone on this machine gets it back in a second.
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { createRequire } from 'node:module';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, homedir, tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { backendFolder, cxx, ensureSource, has, linkLibraries, nodeLlamaCppVersion, PACKAGE, prebuiltFolder, ROOT, runParallel, SOURCE } from './llama-cpp.mjs';

const LOCAL_BUILDS = join(PACKAGE, 'llama', 'localBuilds');
const MARKER = 'copySequenceCells';
/** Which route made a local build: written beside its binding. */
const ROUTE_FILE = 'lots-fast-scorer.json';
const require_ = createRequire(import.meta.url);

function say(line) {
  process.stdout.write(`fast scorer: ${line}\n`);
}

function patchFile() {
  const dir = join(ROOT, 'build', 'patches');
  const name = existsSync(dir) ? readdirSync(dir).find((f) => f.startsWith('node-llama-cpp+') && f.endsWith('.patch')) : undefined;
  if (!name) throw new Error(`no node-llama-cpp patch in ${dir}`);
  return join(dir, name);
}

/** The cache folder of a route's build ('prebuilt' or 'source'). */
function cacheDir(route) {
  const version = nodeLlamaCppVersion();
  const hash = createHash('sha256')
    .update(readFileSync(patchFile()))
    .update(route === 'source' ? '' : `route:${route}`)
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

/** Restore a cached build, of the route asked for or (npm's postinstall) of either. */
function restore(routes) {
  const route = routes.find((r) => patchedBuilds(join(cacheDir(r), 'localBuilds')).length > 0);
  if (route === undefined) return false;
  const cached = join(cacheDir(route), 'localBuilds');
  const builds = patchedBuilds(cached);
  for (const name of builds) {
    const target = join(LOCAL_BUILDS, name);
    rmSync(target, { recursive: true, force: true });
    mkdirSync(target, { recursive: true });
    cpSync(join(cached, name, 'Release'), join(target, 'Release'), { recursive: true });
    // A build cached before the route was recorded was made from source.
    if (!existsSync(join(target, 'Release', ROUTE_FILE))) markRoute(name, route);
    writeFileSync(join(target, 'buildDone.status'), '');
  }
  say(`restored ${builds.join(', ')} from ${cacheDir(route)}`);
  return true;
}

function save(route) {
  const dest = cacheDir(route);
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

/** The Vulkan loader is installed (libvulkan.so.1, Debian's libvulkan1). */
function vulkanLoader() {
  return ['/usr/lib/x86_64-linux-gnu', '/usr/lib/aarch64-linux-gnu', '/usr/lib64', '/usr/lib'].some((d) => existsSync(join(d, 'libvulkan.so.1')));
}

/** The GPU backend to build for on this machine, and why (or why none). The prebuilt route needs no GPU compiler. */
function gpuBackend(route, env = process.env) {
  const forced = env.LOTS_FAST_SCORER_GPU;
  if (forced) return forced === 'none' ? { gpu: false, why: 'LOTS_FAST_SCORER_GPU=none' } : { gpu: forced, why: `LOTS_FAST_SCORER_GPU=${forced}` };
  if (process.platform === 'darwin') return { gpu: 'metal', why: 'macOS' };
  const nvidia = has('nvidia-smi');
  const gpuDevice = nvidia || (existsSync('/dev/dri') && readdirSync('/dev/dri').some((d) => d.startsWith('renderD')));
  if (route === 'prebuilt') {
    if (nvidia) return { gpu: 'cuda', why: 'an NVIDIA GPU (nvidia-smi); the prebuilt CUDA libraries need no CUDA compiler' };
    if (gpuDevice && vulkanLoader()) return { gpu: 'vulkan', why: 'a GPU and the Vulkan loader (libvulkan.so.1)' };
    return { gpu: false, why: 'no GPU found (nvidia-smi, /dev/dri/renderD*)' };
  }
  if (nvidia && (has('nvcc') || existsSync('/usr/local/cuda/bin/nvcc'))) return { gpu: 'cuda', why: 'an NVIDIA GPU (nvidia-smi) and CUDA’s compiler (nvcc)' };
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

/** The route a local build was made by (a build from before the marker was made from source). */
function routeOf(dir, name) {
  try {
    return JSON.parse(readFileSync(join(dir, name, 'Release', ROUTE_FILE), 'utf8')).route;
  } catch {
    return 'source';
  }
}

function markRoute(name, route) {
  writeFileSync(join(LOCAL_BUILDS, name, 'Release', ROUTE_FILE), `${JSON.stringify({ route })}\n`);
}

function ensurePatched() {
  if (!patchApplied()) {
    process.stderr.write('fast scorer: node-llama-cpp is not patched (build/patches/); run `npm ci` (its postinstall applies the patch) and try again.\n');
    process.exit(1);
  }
}

/** The binding's sources: addon/*.cpp and the folders under it. */
function addonSources() {
  const out = [];
  const walk = (dir) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      if (entry.isDirectory()) walk(join(dir, entry.name));
      else if (entry.name.endsWith('.cpp')) out.push(join(dir, entry.name));
    }
  };
  walk(join(PACKAGE, 'llama', 'addon'));
  return out.sort();
}

/**
 * The patched binding for one backend, compiled and linked against node-llama-cpp's prebuilt libraries of
 * that backend, installed as node-llama-cpp's local build of the same name (localBuilds/linux-x64-cuda, …)
 * beside a copy of those libraries, which is where the binding finds them ($ORIGIN) and ggml its backends.
 */
async function buildPrebuiltBackend(gpu) {
  const pre = prebuiltFolder(gpu);
  if (pre.why) throw new Error(pre.why);
  const started = Date.now();
  const work = mkdtempSync(join(tmpdir(), 'lots-fast-scorer-'));
  try {
    const defines = ['BUILDING_NODE_EXTENSION', 'NAPI_VERSION=7', 'NDEBUG', 'GGML_BACKEND_SHARED', 'GGML_SHARED', 'LLAMA_SHARED', 'LLAMA_SUBPROCESS'];
    const includes = [
      String(require_('node-addon-api').include).replace(/^"|"$/g, ''),
      join(ROOT, 'node_modules', 'node-api-headers', 'include'),
      SOURCE,
      join(SOURCE, 'common'),
      join(SOURCE, 'include'),
      join(SOURCE, 'src'),
      join(SOURCE, 'ggml', 'include'),
      join(SOURCE, 'vendor'),
    ];
    const libs = [];
    if (gpu === 'vulkan') {
      // The binding's Vulkan support check (ensureGpuDeviceIsSupported) compiles against vulkan.hpp; the
      // libraries do not need the headers. Without them the check is left out and ggml's own device list decides.
      const headers = vulkanHeaders();
      if (existsSync(join(headers.dir, 'vulkan', 'vulkan.hpp'))) {
        defines.push('GPU_INFO_USE_VULKAN');
        if (headers.custom) includes.push(headers.dir);
        libs.push('-l:libvulkan.so.1');
      } else say(`no Vulkan headers in ${headers.dir} (Debian: libvulkan-dev): the binding's Vulkan support check is left out`);
    }
    const objects = [];
    const jobs = addonSources().map((file, i) => {
      const object = join(work, `${i}-${basename(file)}.o`);
      objects.push(object);
      return ['-c', '-O3', '-fPIC', '-fexceptions', '-std=gnu++17', ...defines.map((d) => `-D${d}`), ...includes.map((d) => `-I${d}`), '-o', object, file];
    });
    await runParallel(cxx(), jobs, say);
    const target = join(LOCAL_BUILDS, pre.name);
    rmSync(target, { recursive: true, force: true });
    const release = join(target, 'Release');
    mkdirSync(release, { recursive: true });
    for (const file of readdirSync(pre.dir)) if (file !== 'llama-addon.node') cpSync(join(pre.dir, file), join(release, file), { recursive: true });
    if (pre.fallback) cpSync(pre.fallback, join(release, 'fallback'), { recursive: true });
    const link = spawnSync(
      cxx(),
      [
        '-shared',
        '-o',
        join(release, 'llama-addon.node'),
        ...objects,
        `-L${pre.dir}`,
        ...linkLibraries(pre.dir).map((l) => `-l:${l}`),
        ...libs,
        '-Wl,-rpath,$ORIGIN',
      ],
      { encoding: 'utf8' },
    );
    if (link.status !== 0) throw new Error(`linking failed:\n${link.stderr || link.error?.message}`);
    // node-llama-cpp tests a local build in a child process before loading it when the build's platform
    // differs from this one: the metadata names this machine's platform, as its own builds do.
    const metadata = JSON.parse(readFileSync(join(pre.dir, '_nlcBuildMetadata.json'), 'utf8'));
    const { getPlatformInfo } = await import(pathToFileURL(join(PACKAGE, 'dist', 'bindings', 'utils', 'getPlatformInfo.js')).href);
    metadata.buildOptions.platformInfo = await getPlatformInfo();
    writeFileSync(join(release, '_nlcBuildMetadata.json'), JSON.stringify(metadata));
    markRoute(pre.name, 'prebuilt');
    writeFileSync(join(target, 'buildDone.status'), '');
    say(`${gpu || 'CPU'}: ${jobs.length} files compiled and linked against @node-llama-cpp/${pre.name} in ${Math.round((Date.now() - started) / 1000)} s`);
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

/** The GPU build from source: node-llama-cpp compiles llama.cpp for the backend (it needs the backend's compiler). */
function buildGpuFromSource(backend) {
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
}

/**
 * Build the fast read: the GPU backend found here first (linked against the prebuilt GPU package, or from
 * source), then the CPU (from source, or linked against the prebuilt CPU package).
 */
async function build(routes) {
  ensurePatched();
  ensureSource(say);
  const started = Date.now();
  const backend = gpuBackend(routes.gpu);
  if (backend.gpu) {
    say(
      `building the fast read for ${backend.gpu} (${backend.why}), ${routes.gpu === 'prebuilt' ? 'linked against node-llama-cpp’s prebuilt libraries' : 'from source'}; then for the CPU`,
    );
    if (routes.gpu === 'prebuilt') {
      try {
        await buildPrebuiltBackend(backend.gpu);
      } catch (e) {
        say(`the ${backend.gpu} build failed (${e.message}); scoring on this GPU keeps the prebuilt binary's path. Building for the CPU.`);
      }
    } else buildGpuFromSource(backend);
  } else say(`no GPU backend to build for (${backend.why})`);
  if (routes.cpu === 'prebuilt') {
    say('building the patched binding for the CPU, linked against node-llama-cpp’s prebuilt CPU libraries');
    await buildPrebuiltBackend(false);
  } else {
    say('building node-llama-cpp from its sources with the patch, CPU backend (once per machine; about 4–11 minutes on 2 cores)');
    run(['source', 'build', '--gpu', 'false', '--noUsageExample']);
    markRoute(backendFolder(false), 'source');
  }
  if (!installedHasFastRead()) throw new Error('the build finished but its binding lacks the patched calls; see the output above');
  say(`built in ${Math.round((Date.now() - started) / 1000)} s`);
  save(routes.cpu);
}

const args = process.argv.slice(2);
const FLAGS = ['--prebuilt', '--from-source'];
if (args[0] === '--check') process.exit(installedHasFastRead() ? 0 : 1);
else if (args[0] === '--restore') {
  // npm's postinstall: quiet when there is nothing cached, never fails the install.
  try {
    if (!installedHasFastRead()) restore(['source', 'prebuilt']);
  } catch (e) {
    process.stderr.write(`fast scorer: could not restore the cached build (${e.message}); \`node build/fast-scorer.mjs\` builds it\n`);
  }
} else if (args.every((a) => FLAGS.includes(a)) && !(args.includes('--prebuilt') && args.includes('--from-source'))) {
  // The CPU from source unless --prebuilt (Linux); a GPU linked against the prebuilt package unless --from-source (or not Linux).
  const linux = process.platform === 'linux';
  const routes = {
    cpu: linux && args.includes('--prebuilt') ? 'prebuilt' : 'source',
    gpu: linux && !args.includes('--from-source') ? 'prebuilt' : 'source',
  };
  const cpuBuild = () => (patchedBuilds(LOCAL_BUILDS).includes(backendFolder(false)) ? routeOf(LOCAL_BUILDS, backendFolder(false)) : undefined);
  const gpu = gpuBackend(routes.gpu).gpu;
  const gpuMissing = () => Boolean(gpu) && !patchedBuilds(LOCAL_BUILDS).includes(backendFolder(gpu));
  if (cpuBuild() === routes.cpu && !gpuMissing()) {
    say(`already installed (the CPU binding ${routes.cpu === 'source' ? 'built from source' : 'linked against the prebuilt libraries'})`);
    if (patchedBuilds(join(cacheDir(routes.cpu), 'localBuilds')).length === 0) save(routes.cpu);
  } else if (!restore([routes.cpu]) || gpuMissing()) {
    try {
      await build(routes);
    } catch (e) {
      process.stderr.write(`fast scorer: ${e.message}\n`);
      process.exit(1);
    }
  }
} else {
  process.stderr.write(`usage: node build/fast-scorer.mjs [--prebuilt | --from-source | --restore | --check]\n`);
  process.exit(2);
}
