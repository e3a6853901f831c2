// What `npm test`'s provisioning built (build/fast-scorer.mjs, build/scoring-server.mjs, issue 41): llama.cpp
// is compiled once, by node-llama-cpp for the fast read (or not at all: --prebuilt links the prebuilt
// package's libraries), and llama-server's own files are compiled from the same release and linked against
// those very libraries, so the local scorer, its fast read and the scoring server share one llama.cpp.
// Checked on the files themselves.
import { createHash } from 'node:crypto';
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { expect, it } from 'vitest';
import { describeRequiring } from '../../describe-requiring';
import { llamaServerPath } from '../../requirements';

const PACKAGE = join('node_modules', 'node-llama-cpp');
const CPU = `${process.platform}-${process.arch}`;
const PREBUILT = join('node_modules', '@node-llama-cpp', CPU, 'bins', CPU);
const LOCAL = join(PACKAGE, 'llama', 'localBuilds', CPU, 'Release');

function sha(file: string): string {
  return createHash('sha256').update(readFileSync(file)).digest('hex');
}

/** A folder's shared libraries (libllama, libggml-base, the CPU backend or its variants, …). */
function libraries(dir: string): string[] {
  return readdirSync(dir).filter((f) => f.endsWith('.so'));
}

function prebuiltLibraries(): string[] {
  return libraries(PREBUILT);
}

describeRequiring('fast-scorer', 'the fast read as provisioned', () => {
  it("is node-llama-cpp's patched binding: built from source with llama.cpp (the default), or beside the very libraries of its prebuilt CPU package (--prebuilt)", () => {
    const release = LOCAL;
    expect(readFileSync(join(release, 'llama-addon.node')).includes('copySequenceCells')).toBe(true);
    const { route } = JSON.parse(readFileSync(join(release, 'lots-fast-scorer.json'), 'utf8')) as { route: string };
    expect(['prebuilt', 'source']).toContain(route);
    if (route === 'source') {
      // node-llama-cpp's own build for this CPU: its libraries beside the binding, the CPU backend with OpenMP.
      expect(libraries(release)).toEqual(expect.arrayContaining(['libggml-base.so', 'libggml-cpu.so', 'libllama-common.so']));
      expect(readFileSync(join(release, 'libggml-cpu.so')).includes('libgomp.so')).toBe(true);
    }
    if (route === 'prebuilt') {
      // --prebuilt: every library of the prebuilt package, byte for byte, and the binding linked to them.
      expect(prebuiltLibraries().length).toBeGreaterThan(4);
      for (const lib of prebuiltLibraries()) expect(sha(join(release, lib)), lib).toBe(sha(join(PREBUILT, lib)));
      // The patched binding differs from the prebuilt one (it has the two calls), and nothing else was built.
      expect(readFileSync(join(PREBUILT, 'llama-addon.node')).includes('copySequenceCells')).toBe(false);
      expect(readdirSync(release).filter((f) => f.endsWith('.so') && !prebuiltLibraries().includes(f))).toEqual([]);
    }
  });
});

describeRequiring('scoring-server', 'llama-server as provisioned', () => {
  it.skipIf(Boolean(process.env.LOTS_LLAMA_SERVER))(
    "is built from node-llama-cpp's llama.cpp release and runs on the libraries the local scorer runs on",
    () => {
      const server = llamaServerPath();
      const version = spawnSync(server, ['--version'], { encoding: 'utf8' });
      expect(version.status).toBe(0);
      // llama.cpp's sources come from the git bundle in node-llama-cpp's npm package: the server names its commit.
      const head = spawnSync('git', ['bundle', 'list-heads', join(PACKAGE, 'llama', 'gitRelease.bundle')], { encoding: 'utf8' }).stdout;
      const commit = /^([0-9a-f]{40}) HEAD$/m.exec(head)?.[1]?.slice(0, 7);
      expect(commit).toMatch(/^[0-9a-f]{7}$/);
      expect(`${version.stdout}${version.stderr}`).toContain(`commit ${commit}`);
      const dir = dirname(server);
      if (existsSync(join(dir, 'libggml-base.so'))) {
        // The linked build (the default): beside it, byte for byte, the libraries of node-llama-cpp's CPU build
        // here where there is one (the fast read's), else those of its prebuilt CPU package.
        const from = existsSync(join(LOCAL, 'libggml-base.so')) ? LOCAL : PREBUILT;
        expect(libraries(dir).sort()).toEqual(libraries(from).sort());
        for (const lib of libraries(from)) expect(sha(join(dir, lib)), lib).toBe(sha(join(from, lib)));
      } else {
        // --from-source: one static binary, nothing beside it to load.
        expect(libraries(dir)).toEqual([]);
      }
    },
  );
});
