// Bundles the Electron main process (ESM), the engine's job worker (ESM) and the sandboxed
// preload (CommonJS: a sandboxed preload cannot load ES modules) with esbuild. node-llama-cpp stays
// external: it is ESM with native binaries, shipped in node_modules and unpacked from the asar
// (see electron-builder.yml), as its Electron guide says.
//
//   node build/bundle-electron.mjs [outdir]     (default: dist-electron)
import { build } from 'esbuild';
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const outdir = resolve(root, process.argv[2] ?? 'dist-electron');

/**
 * Every worker the engine launches, by the name it passes to workerEntry(import.meta.url, name).
 * The engine looks for `<name>.js` next to the module that launches it; once bundled, that module
 * is main.js, so each worker is written next to main.js.
 */
const WORKERS = {
  'job-worker': 'electron/engine/jobs/job-worker.ts',
};

const external = ['electron', 'node-llama-cpp', '@node-llama-cpp/*', 'bufferutil', 'utf-8-validate', 'vite', 'lightningcss'];
const common = { bundle: true, platform: 'node', target: 'node22', sourcemap: true, logLevel: 'warning', absWorkingDir: root };
// Bundled ESM still meets CommonJS dependencies that call require(); give them one.
const esm = {
  ...common,
  format: 'esm',
  external,
  outdir,
  outExtension: { '.js': '.js' },
  banner: { js: "import { createRequire as __lotsRequire } from 'node:module'; const require = __lotsRequire(import.meta.url);" },
};

for (const entry of Object.values(WORKERS)) {
  if (!existsSync(resolve(root, entry))) throw new Error(`bundle-electron: worker entry ${entry} is missing (update WORKERS in build/bundle-electron.mjs)`);
}

await build({ ...esm, entryPoints: { main: 'electron/main.ts', ...WORKERS } });

await build({
  ...common,
  entryPoints: { preload: 'electron/preload.ts' },
  outdir,
  format: 'cjs',
  platform: 'browser',
  external: ['electron'],
  outExtension: { '.js': '.cjs' },
});

console.log(
  `bundle-electron: main.js, ${Object.keys(WORKERS)
    .map((n) => `${n}.js`)
    .join(', ')} and preload.cjs in ${outdir}`,
);
