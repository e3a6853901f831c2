// What `npm test`'s provisioning built (build/fast-scorer.mjs, build/scoring-server.mjs, issue 41): neither
// compiles llama.cpp. The fast read's binding and llama-server are compiled from the llama.cpp release
// node-llama-cpp carries and run on the very libraries of its prebuilt package, so the local scorer, its
// fast read and the scoring server share one llama.cpp. Checked on the files themselves.
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

function sha(file: string): string {
  return createHash('sha256').update(readFileSync(file)).digest('hex');
}

/** The prebuilt package's shared libraries (libllama, libggml-base, the CPU variants, …). */
function prebuiltLibraries(): string[] {
  return readdirSync(PREBUILT).filter((f) => f.endsWith('.so'));
}

describeRequiring('fast-scorer', 'the fast read as provisioned', () => {
  it("is node-llama-cpp's patched binding, beside the very libraries of its prebuilt CPU package (or built from source when asked)", () => {
    const release = join(PACKAGE, 'llama', 'localBuilds', CPU, 'Release');
    expect(readFileSync(join(release, 'llama-addon.node')).includes('copySequenceCells')).toBe(true);
    const { route } = JSON.parse(readFileSync(join(release, 'lots-fast-scorer.json'), 'utf8')) as { route: string };
    expect(['prebuilt', 'source']).toContain(route);
    if (route === 'prebuilt') {
      // The default on Linux: every library of the prebuilt package, byte for byte, and the binding linked to them.
      expect(prebuiltLibraries().length).toBeGreaterThan(4);
      for (const lib of prebuiltLibraries()) expect(sha(join(release, lib)), lib).toBe(sha(join(PREBUILT, lib)));
      // The patched binding differs from the prebuilt one (it has the two calls), and nothing else was built.
      expect(readFileSync(join(PREBUILT, 'llama-addon.node')).includes('copySequenceCells')).toBe(false);
      expect(readdirSync(release).filter((f) => f.endsWith('.so') && !prebuiltLibraries().includes(f))).toEqual([]);
    }
  });
});

describeRequiring('scoring-server', 'llama-server as provisioned', () => {
  it.skipIf(Boolean(process.env.LOTS_LLAMA_SERVER))("is built from node-llama-cpp's llama.cpp release and runs on its prebuilt libraries", () => {
    const server = llamaServerPath();
    const version = spawnSync(server, ['--version'], { encoding: 'utf8' });
    expect(version.status).toBe(0);
    // llama.cpp's sources come from the git bundle in node-llama-cpp's npm package: the server names its commit.
    const commit = spawnSync('git', ['-C', join(PACKAGE, 'llama', 'llama.cpp'), 'rev-parse', '--short=7', 'HEAD'], { encoding: 'utf8' }).stdout.trim();
    expect(commit).toMatch(/^[0-9a-f]{7}$/);
    expect(`${version.stdout}${version.stderr}`).toContain(`commit ${commit}`);
    const dir = dirname(server);
    if (existsSync(join(dir, 'libggml-base.so'))) {
      // The linked build (the default): the prebuilt package's libraries beside it, byte for byte.
      for (const lib of prebuiltLibraries()) expect(sha(join(dir, lib)), lib).toBe(sha(join(PREBUILT, lib)));
    } else {
      // --from-source: one static binary, nothing beside it to load.
      expect(readdirSync(dir).filter((f) => f.endsWith('.so'))).toEqual([]);
    }
  });
});
