#!/usr/bin/env node
// The scoring server the scoring-server tests start (tests/engine/scoring/remote/): llama.cpp's llama-server,
// of the very llama.cpp release node-llama-cpp carries (its git bundle's sources), linked against the CPU
// libraries of that release node-llama-cpp runs on here: its local CPU build (the fast read's, built by
// build/fast-scorer.mjs) where there is one, else its prebuilt CPU package (build/llama-cpp.mjs). Only the
// server's 70 files are compiled — the server, its HTTP library, the multimodal library it links and the
// web page it embeds — not llama.cpp and ggml (about 1.5 minutes on 2 cores, against about 5.5 for a
// whole build). So the server and the local scorer run the same llama.cpp and the same kernels.
//
//   node build/scoring-server.mjs              build it into a folder outside the clone, once per machine
//   node build/scoring-server.mjs --from-source  compile llama.cpp too, statically (where the prebuilt
//                                                libraries or ninja are missing this is what runs)
//
// The folder (LOTS_LLAMA_SERVER_DIR, default ~/.cache/lots-studio/llama-server-<release>) holds llama-server
// and the prebuilt libraries it loads from beside itself, so later runs on this machine build nothing.
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { cpus, homedir, tmpdir } from 'node:os';
import { join } from 'node:path';
import { backendFolder, cxx, ensureSource, has, linkLibraries, llamaCppRelease, PACKAGE, prebuiltFolder, SOURCE } from './llama-cpp.mjs';

/** The library targets llama-server links that node-llama-cpp's prebuilt package does not carry. */
const SERVER_TARGETS = ['llama-server', 'llama-server-impl', 'server-context', 'llama-ui', 'cpp-httplib', 'llama-common-base', 'mtmd', 'vendor-hash'];

function say(line) {
  process.stdout.write(`scoring server: ${line}\n`);
}

function fail(message) {
  process.stderr.write(`scoring server: ${message}\n`);
  process.exit(1);
}

function serverDir() {
  return process.env.LOTS_LLAMA_SERVER_DIR || join(homedir(), '.cache', 'lots-studio', `llama-server-${llamaCppRelease()}`);
}

function run(command, args, log) {
  const r = spawnSync(command, args, { encoding: 'utf8', maxBuffer: 256 * 1024 * 1024 });
  if (r.status !== 0) {
    const output = `${r.stdout ?? ''}${r.stderr ?? ''}`.split('\n').slice(-30).join('\n');
    fail(`\`${command} ${args.slice(0, 6).join(' ')} …\` failed (${r.error?.message ?? `exit code ${r.status}`}) while ${log}:\n${output}`);
  }
  return `${r.stdout ?? ''}${r.stderr ?? ''}`;
}

const COMMON_OPTIONS = [
  '-DCMAKE_BUILD_TYPE=Release',
  '-DLLAMA_BUILD_TESTS=OFF',
  '-DLLAMA_BUILD_EXAMPLES=OFF',
  '-DLLAMA_BUILD_SERVER=ON',
  '-DLLAMA_CURL=OFF',
  '-DLLAMA_OPENSSL=OFF',
];

/** The object files of the targets, read from ninja's build file (`build <obj>.o: CXX_COMPILER__<target>_Release …`). */
function objectsOf(buildNinja, targets) {
  const text = readFileSync(buildNinja, 'utf8');
  return targets.map((target) => {
    const pattern = new RegExp(`^build ([^:]+\\.o): C(?:XX)?_COMPILER__${target.replace(/[-.]/g, '\\$&')}_Release `, 'gm');
    const objects = [...text.matchAll(pattern)].map((m) => m[1]);
    if (objects.length === 0)
      fail(`llama.cpp ${llamaCppRelease()} has no target ${target}: this script knows an older layout of its server; run it with --from-source`);
    return objects;
  });
}

/**
 * The CPU libraries to link against: node-llama-cpp's local CPU build (the fast read's: compiled for this CPU,
 * with OpenMP) where there is one, else its prebuilt CPU package; or why neither can be used.
 */
function cpuLibraries() {
  const local = join(PACKAGE, 'llama', 'localBuilds', backendFolder(false), 'Release');
  if (process.platform === 'linux' && existsSync(join(local, 'libllama-common.so')) && existsSync(join(local, 'libggml-base.so')))
    return { dir: local, what: `node-llama-cpp's CPU build here (${local})` };
  const pre = prebuiltFolder(false);
  return pre.why ? { why: pre.why } : { dir: pre.dir, what: `node-llama-cpp's prebuilt CPU libraries (@node-llama-cpp/${pre.name})` };
}

/** Compile the server's files and link them against the libraries in `pre.dir`. */
function buildLinked(pre, work, dest) {
  // The options node-llama-cpp's prebuilt packages are built with. The server's, mtmd's and common's
  // headers do not depend on the ggml backend options, so the objects link against either library set.
  const options = [...COMMON_OPTIONS, '-DBUILD_SHARED_LIBS=ON', '-DGGML_NATIVE=OFF', '-DGGML_CPU_ALL_VARIANTS=ON', '-DGGML_BACKEND_DL=ON', '-DGGML_OPENMP=OFF'];
  run('cmake', ['-S', SOURCE, '-B', work, '-G', 'Ninja', ...options], 'configuring llama.cpp');
  const objects = objectsOf(join(work, 'build.ninja'), SERVER_TARGETS).flat();
  say(`compiling the server's ${objects.length} files`);
  run('ninja', ['-C', work, `-j${cpus().length}`, ...objects], 'compiling');
  const libs = linkLibraries(pre.dir);
  run(
    cxx(),
    [
      '-O3',
      '-o',
      join(dest, 'llama-server'),
      ...objects.map((o) => join(work, o)),
      `-L${pre.dir}`,
      ...libs.map((l) => `-l:${l}`),
      '-pthread',
      '-ldl',
      '-Wl,-rpath,$ORIGIN',
    ],
    'linking',
  );
  // Every library there: those linked, and the CPU backend or the CPU variants ggml picks from at run time.
  for (const file of readdirSync(pre.dir)) if (file.endsWith('.so')) cpSync(join(pre.dir, file), join(dest, file));
}

/** The whole of llama.cpp compiled for this CPU, llama-server linked statically. */
function buildFromSource(work, dest) {
  const options = [...COMMON_OPTIONS, '-DBUILD_SHARED_LIBS=OFF'];
  run('cmake', ['-S', SOURCE, '-B', work, ...(has('ninja') ? ['-G', 'Ninja'] : []), ...options], 'configuring llama.cpp');
  say('compiling llama.cpp and the server (about 6 minutes on 2 cores)');
  run('cmake', ['--build', work, '--target', 'llama-server', `-j${cpus().length}`], 'compiling');
  cpSync(join(work, 'bin', 'llama-server'), join(dest, 'llama-server'));
}

function main() {
  const fromSource = process.argv.includes('--from-source');
  const unknown = process.argv.slice(2).filter((a) => a !== '--from-source');
  if (unknown.length > 0) {
    process.stderr.write('usage: node build/scoring-server.mjs [--from-source]\n');
    process.exit(2);
  }
  const dir = serverDir();
  const binary = join(dir, 'llama-server');
  if (existsSync(binary)) {
    say(`${binary} (already built)`);
    return;
  }
  for (const tool of ['cmake', cxx()])
    if (!has(tool)) fail(`building llama-server needs ${tool}: install it (Debian: apt-get install cmake g++) and run this again`);
  ensureSource(say);
  const started = Date.now();
  const pre = cpuLibraries();
  const route = fromSource
    ? 'from source (--from-source)'
    : pre.why
      ? `from source (${pre.why})`
      : !has('ninja')
        ? 'from source (ninja is not installed; Debian: ninja-build)'
        : 'linked';
  const work = mkdtempSync(join(tmpdir(), 'lots-llama-server-'));
  const staging = `${dir}.tmp-${process.pid}`;
  try {
    rmSync(staging, { recursive: true, force: true });
    mkdirSync(staging, { recursive: true });
    if (route === 'linked') {
      say(`building llama-server ${llamaCppRelease()} against ${pre.what}`);
      buildLinked(pre, work, staging);
    } else {
      say(`building llama-server ${llamaCppRelease()} ${route}`);
      buildFromSource(work, staging);
    }
    // It runs before it replaces anything: llama-server prints its version on stderr.
    const version = run(join(staging, 'llama-server'), ['--version'], 'checking the built server').trim().split('\n')[0];
    rmSync(dir, { recursive: true, force: true });
    renameSync(staging, dir);
    say(`${binary} (${version}) built in ${Math.round((Date.now() - started) / 1000)} s`);
  } finally {
    rmSync(work, { recursive: true, force: true });
    rmSync(staging, { recursive: true, force: true });
  }
}

main();
