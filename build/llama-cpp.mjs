// What build/fast-scorer.mjs and build/scoring-server.mjs share: node-llama-cpp's llama.cpp, in two forms
// that the npm package already carries, so neither script compiles llama.cpp itself.
//
// - Its sources (headers and the server's files), from the git bundle inside the package
//   (`node-llama-cpp source download` extracts it; nothing is downloaded).
// - Its prebuilt shared libraries, per backend, from the @node-llama-cpp/<platform>-<arch>[-gpu] packages
//   npm installs beside it: libllama, libllama-common, libggml, libggml-base and the CPU variants
//   (libggml-cpu-haswell.so, …) or the GPU backend (libggml-cuda.so, libggml-vulkan.so) that ggml loads at
//   run time.
//
// What is compiled here is only what links against those libraries: node-llama-cpp's binding with LOTS
// Studio's patch (18 files) and llama.cpp's server (70 files), both from the very release the libraries were
// built from, so the local scorer, its fast read and the scoring server run the same kernels.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { cpus } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
export const PACKAGE = join(ROOT, 'node_modules', 'node-llama-cpp');
export const SOURCE = join(PACKAGE, 'llama', 'llama.cpp');

/** The llama.cpp release node-llama-cpp carries and its prebuilt libraries were built from ("v0.4.0"). */
export function llamaCppRelease() {
  return JSON.parse(readFileSync(join(PACKAGE, 'llama', 'llama.cpp.info.json'), 'utf8')).tag;
}

export function nodeLlamaCppVersion() {
  return JSON.parse(readFileSync(join(PACKAGE, 'package.json'), 'utf8')).version;
}

/** Extract llama.cpp's sources from the git bundle in the npm package, once. */
export function ensureSource(say) {
  if (existsSync(join(SOURCE, 'CMakeLists.txt'))) return;
  say(`extracting llama.cpp ${llamaCppRelease()} from node-llama-cpp's git bundle`);
  const r = spawnSync(process.execPath, [join(PACKAGE, 'dist', 'cli', 'cli.js'), 'source', 'download', '--skipBuild', '--noUsageExample'], {
    cwd: ROOT,
    stdio: 'inherit',
  });
  if (r.status !== 0 || !existsSync(join(SOURCE, 'CMakeLists.txt')))
    throw new Error(`\`node-llama-cpp source download\` failed (${r.error?.message ?? `exit code ${r.status}`}); run \`npm ci\` and try again`);
}

/** The platform part of node-llama-cpp's folder names ("linux", "mac", "win"). */
function platformName() {
  return process.platform === 'darwin' ? 'mac' : process.platform === 'win32' ? 'win' : process.platform;
}

/** node-llama-cpp's folder name for a backend: linux-x64, linux-x64-cuda, linux-x64-vulkan, mac-arm64-metal. */
export function backendFolder(gpu) {
  return [platformName(), process.arch, ...(gpu ? [gpu] : [])].join('-');
}

/**
 * The prebuilt binary folder of a backend, and where the CUDA package's fallback libraries are, or why it
 * cannot be used: the compile-and-link route is for Linux, where the prebuilt packages ship shared libraries
 * with `$ORIGIN` run paths (macOS and Windows keep the from-source build).
 */
export function prebuiltFolder(gpu) {
  const name = backendFolder(gpu);
  if (process.platform !== 'linux') return { name, why: `the prebuilt route is for Linux; this is ${process.platform}` };
  const dir = join(ROOT, 'node_modules', '@node-llama-cpp', name, 'bins', name);
  if (!existsSync(join(dir, 'llama-addon.node')))
    return { name, why: `@node-llama-cpp/${name} is not installed (npm installs it where node-llama-cpp supports the platform)` };
  const fallback = join(ROOT, 'node_modules', '@node-llama-cpp', `${name}-ext`, 'bins', name, 'fallback');
  return { name, dir, fallback: existsSync(fallback) ? fallback : undefined };
}

/**
 * The libraries of a prebuilt folder to link against: llama, llama-common, ggml and ggml-base. The CPU
 * variants and GPU backends (libggml-cpu-*.so, libggml-cuda.so, …) are not linked: ggml loads them at run
 * time from the folder it runs in.
 */
export function linkLibraries(dir) {
  const files = readdirSync(dir).filter((f) => f.endsWith('.so'));
  const pick = (test, what) => {
    const found = files.filter(test);
    if (found.length !== 1) throw new Error(`expected one ${what} in ${dir}, found ${found.length ? found.join(', ') : 'none'}`);
    return found[0];
  };
  return [
    pick((f) => f === 'libllama-common.so', 'libllama-common.so'),
    pick((f) => /^libllama\..*\.so$/.test(f), 'libllama.*.so'),
    pick((f) => /^libggml\..*\.so$/.test(f), 'libggml.*.so'),
    pick((f) => f === 'libggml-base.so', 'libggml-base.so'),
  ];
}

export function has(command) {
  return spawnSync('sh', ['-c', `command -v ${command}`], { stdio: 'ignore' }).status === 0;
}

export function cxx() {
  return process.env.CXX || (has('c++') ? 'c++' : 'g++');
}

/** Run compile jobs (argument lists for `cmd`), as many at once as there are cores; the first failure stops. */
export async function runParallel(cmd, jobs, say) {
  let next = 0;
  let failed;
  const worker = async () => {
    while (failed === undefined && next < jobs.length) {
      const args = jobs[next++];
      const { code, output } = await new Promise((resolve) => {
        const child = spawn(cmd, args, { stdio: ['ignore', 'pipe', 'pipe'] });
        let out = '';
        child.stdout.on('data', (d) => (out += d));
        child.stderr.on('data', (d) => (out += d));
        child.on('error', (e) => resolve({ code: -1, output: e.message }));
        child.on('close', (c) => resolve({ code: c, output: out }));
      });
      if (code !== 0) failed = `${cmd} ${args.join(' ')}\n${output.split('\n').slice(-30).join('\n')}`;
    }
  };
  const width = Math.max(1, Math.min(cpus().length, jobs.length));
  say?.(`compiling ${jobs.length} files, ${width} at a time`);
  await Promise.all(Array.from({ length: width }, worker));
  if (failed !== undefined) throw new Error(`compiling failed:\n${failed}`);
}
