#!/usr/bin/env node
// `npm run sample`: regenerates assets/sample-project, the project "Open the sample project" copies.
// By default it is a `lots demo` run of the quick preset with 4 fitting and 10 evaluation requests a
// family instead of 2 and 4 — each task's heatmap has four scored requests, its History two folded
// batches of two, and the paired block an interval per family — and the four baselines that ask no
// model (`--baselines keep-all,no-tools,random,bm25`), on the default model (pulled if missing); the
// README gives its measured time. Made in a temporary folder and copied here without locks, temp files
// or job files. Extra arguments go to `lots demo` (e.g. --families a,b --threads 2); a --fit, --eval or
// --baselines given there replaces the default, and with --preset the preset's sizes are kept.
// `npm run sample -- --from DIR` copies a finished `lots demo` folder instead (the standard run that the
// sample is: `lots demo --preset standard`, hours on a CPU, resumable, so it is run on its own first).
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const dest = join(root, 'assets', 'sample-project');
const argv = process.argv.slice(2);
const fromAt = argv.findIndex((a) => a === '--from' || a.startsWith('--from='));
let out;
let work;
if (fromAt >= 0) {
  const value = argv[fromAt] === '--from' ? argv[fromAt + 1] : argv[fromAt].slice('--from='.length);
  if (!value || argv.length > (argv[fromAt] === '--from' ? 2 : 1)) {
    console.error('npm run sample: --from takes one folder (a finished `lots demo` run) and nothing else; assets/sample-project is unchanged.');
    process.exit(2);
  }
  out = resolve(value);
  const demo = join(out, 'demo.json');
  if (!existsSync(demo)) {
    console.error(`npm run sample: ${demo} does not exist: --from takes the --out folder of a \`lots demo\` run; assets/sample-project is unchanged.`);
    process.exit(2);
  }
  const record = JSON.parse(readFileSync(demo, 'utf8'));
  if (!record.finishedAt) {
    console.error(
      `npm run sample: the demo in ${out} has not finished (its demo.json has no finishedAt); run its command again to resume it: ${record.command}`,
    );
    process.exit(2);
  }
} else {
  work = mkdtempSync(join(tmpdir(), 'lots-sample-'));
  out = join(work, 'sample');
  const given = (flag) => argv.some((a) => a === flag || a.startsWith(`${flag}=`));
  const defaults = [
    ['--fit', '4'],
    ['--eval', '10'],
    ['--baselines', 'keep-all,no-tools,random,bm25'],
  ].flatMap(([flag, value]) => (given(flag) || (flag !== '--baselines' && given('--preset')) ? [] : [flag, value]));
  const run = spawnSync(process.execPath, [join(root, 'bin', 'lots.mjs'), 'demo', '--out', out, ...defaults, ...argv], { stdio: 'inherit' });
  if (run.status !== 0) {
    console.error(
      `npm run sample: lots demo failed (exit ${run.status ?? run.signal}); assets/sample-project is unchanged. The partial run is in ${out}: \`lots demo --out ${out}\` with the same options resumes it (npm run sample starts a new folder), and \`npm run sample -- --from ${out}\` copies it once it has finished.`,
    );
    process.exit(run.status ?? 1);
  }
}
rmSync(dest, { recursive: true, force: true });
cpSync(out, dest, { recursive: true, filter: (src) => !/[\\/](jobs|\.lock)$|\.tmp$/.test(src) });
if (work) rmSync(work, { recursive: true, force: true });
let bytes = 0;
const walk = (d) => {
  for (const n of readdirSync(d)) {
    const p = join(d, n);
    const s = statSync(p);
    if (s.isDirectory()) walk(p);
    else bytes += s.size;
  }
};
walk(dest);
console.log(`npm run sample: wrote ${dest} (${(bytes / 1024).toFixed(0)} KiB)`);
