// Benchmark: generate a large JSONL trace file (default 100 MB) and import it, printing throughput and
// peak RSS. Each measurement runs in its own process so its peak RSS is its own.
//   npx tsx tests/engine/import/bench-import.ts [--mb 100] [--keep]
// Measures (1) the streaming reader alone (parse + validate every trace) and (2) `lots import` end to
// end into a fresh project (reader + project store).
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { readTraceFile } from '../../../electron/engine/import';
import { writeBenchFile } from './generate';

const self = fileURLToPath(import.meta.url);
const args = process.argv.slice(2);

interface Measure {
  what: string;
  mb: number;
  seconds: number;
  mbPerSecond: number;
  peakRssMb: number;
  traces?: number;
  exitCode?: number;
}

async function childReader(file: string): Promise<void> {
  const started = performance.now();
  let traces = 0;
  for await (const e of readTraceFile(file)) if (e.kind === 'trace') traces++;
  const seconds = (performance.now() - started) / 1000;
  const mb = statSync(file).size / 1048576;
  const m: Measure = {
    what: 'readTraceFile (stream, parse, validate)',
    mb,
    seconds,
    mbPerSecond: mb / seconds,
    peakRssMb: process.resourceUsage().maxRSS / 1024,
    traces,
  };
  process.stdout.write(JSON.stringify(m) + '\n');
}

async function childCli(file: string, project: string): Promise<void> {
  const { main } = await import('../../../electron/cli/main');
  const started = performance.now();
  const quiet = { out: () => undefined, err: () => undefined, isTTY: false };
  const exitCode = await main(['import', file, '--project', project], quiet);
  const seconds = (performance.now() - started) / 1000;
  const mb = statSync(file).size / 1048576;
  const m: Measure = {
    what: 'lots import (reader + project store)',
    mb,
    seconds,
    mbPerSecond: mb / seconds,
    peakRssMb: process.resourceUsage().maxRSS / 1024,
    exitCode,
  };
  process.stdout.write(JSON.stringify(m) + '\n');
}

function run(childArgs: string[]): Measure {
  const r = spawnSync('npx', ['tsx', self, ...childArgs], { encoding: 'utf8', maxBuffer: 1 << 24 });
  if (r.status !== 0) throw new Error(`child failed (${r.status}): ${r.stderr}`);
  return JSON.parse(r.stdout.trim().split('\n').pop()!) as Measure;
}

async function parent(): Promise<void> {
  const mbIndex = args.indexOf('--mb');
  const target = mbIndex >= 0 ? Number(args[mbIndex + 1]) : 100;
  const dir = mkdtempSync(join(tmpdir(), 'lots-bench-'));
  try {
    const file = join(dir, 'bench.jsonl');
    const records = await writeBenchFile(file, target * 1048576);
    console.log(`generated ${file}: ${(statSync(file).size / 1048576).toFixed(1)} MB, ${records} records (4 observations each, 2 turns)`);
    for (const m of [run(['--child-reader', file]), run(['--child-cli', file, join(dir, 'project')])]) {
      console.log(
        `${m.what}: ${m.mb.toFixed(1)} MB in ${m.seconds.toFixed(2)} s = ${m.mbPerSecond.toFixed(1)} MB/s; peak RSS ${m.peakRssMb.toFixed(0)} MB${m.traces !== undefined ? `; ${m.traces} traces` : ''}${m.exitCode !== undefined ? `; exit ${m.exitCode}` : ''}`,
      );
    }
  } finally {
    if (!args.includes('--keep')) rmSync(dir, { recursive: true, force: true });
  }
}

if (args[0] === '--child-reader') await childReader(args[1]!);
else if (args[0] === '--child-cli') await childCli(args[1]!, args[2]!);
else await parent();
