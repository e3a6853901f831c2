// Bundles the Electron main process (ESM) and the sandboxed preload (CommonJS: a sandboxed preload
// cannot load ES modules) with esbuild. node-llama-cpp stays external: it ships native binaries that
// electron-builder unpacks from the asar (see electron-builder.yml), as its Electron guide says.
import { build } from 'esbuild';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const outdir = `${root}dist-electron`;
const external = ['electron', 'node-llama-cpp', '@node-llama-cpp/*', 'bufferutil', 'utf-8-validate', 'vite', 'lightningcss'];
const common = { bundle: true, platform: 'node', target: 'node22', sourcemap: true, logLevel: 'info', absWorkingDir: root };

await build({
  ...common,
  entryPoints: { main: 'electron/main.ts' },
  outdir,
  format: 'esm',
  external,
  // Bundled ESM still meets CommonJS dependencies that call require(); give them one.
  banner: { js: "import { createRequire as __lotsRequire } from 'node:module'; const require = __lotsRequire(import.meta.url);" },
  outExtension: { '.js': '.js' },
});

// Engine processes the main process forks (scoring, sweeps). They look for their entry next to the
// module that forks them, which after bundling is dist-electron/main.js.
for (const [name, entry] of [['score-worker', 'electron/engine/scoring/jobs/score-worker.ts'], ['sweep-worker', 'electron/engine/service/sweep-worker.ts']]) {
  if (!existsSync(`${root}${entry}`)) continue;
  await build({ ...common, entryPoints: { [name]: entry }, outdir, format: 'esm', external, banner: { js: "import { createRequire as __lotsRequire } from 'node:module'; const require = __lotsRequire(import.meta.url);" } });
}

await build({
  ...common,
  entryPoints: { preload: 'electron/preload.ts' },
  outdir,
  format: 'cjs',
  platform: 'browser',
  external: ['electron'],
  outExtension: { '.js': '.cjs' },
});
