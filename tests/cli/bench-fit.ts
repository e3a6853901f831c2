// Benchmark (prints numbers, asserts nothing): `npx tsx tests/cli/bench-fit.ts [records] [tools]`.
// Times `lots fit --scores` in-process and as a fresh process, and the bare aggregation on 10k × 120.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { main } from '../../electron/cli/main';
import { aggregateTaskScores } from '../../shared/lots/aggregate';
import { bootstrapRanking } from '../../shared/lots/bootstrap';
import { mulberry32 } from '../../shared/lots/prng';
import { rankTools } from '../../shared/lots/rank';
import type { ScoreRow } from '../../shared/project/scores';

const records = Number(process.argv[2] ?? 3000);
const tools = Number(process.argv[3] ?? 120);

function generate(n: number, m: number, tasks: number, seed: number): ScoreRow[] {
  const rng = mulberry32(seed);
  const names = Array.from({ length: m }, (_, i) => `tool_${String(i).padStart(3, '0')}`);
  return Array.from({ length: n }, (_, i) => {
    const exposed = names.filter(() => rng() < 0.5);
    const scores: Record<string, number> = {};
    for (const t of exposed) if (rng() < 0.3) scores[t] = (rng() - 0.4) * 0.5;
    return { trace: `r${i}`, task: `task_${i % tasks}`, exposed, scores };
  });
}

function time<T>(fn: () => T): [T, number] {
  const t0 = performance.now();
  const v = fn();
  return [v, performance.now() - t0];
}

const dir = mkdtempSync(join(tmpdir(), 'lots-bench-'));
try {
  const rows = generate(records, tools, 4, 1);
  const file = join(dir, 'scores.jsonl');
  writeFileSync(file, rows.map((r) => JSON.stringify(r)).join('\n') + '\n');
  const scored = rows.reduce((s, r) => s + Object.keys(r.scores).length, 0);
  console.log(`${records} records, ${tools} tools, 4 tasks, ${scored} scores`);

  const quiet = { out: () => {}, err: (t: string) => process.stderr.write(t), isTTY: false };
  for (let i = 0; i < 3; i++) {
    const t0 = performance.now();
    const code = await main(['fit', '--scores', file, '--json'], quiet);
    console.log(
      `  lots fit --scores --json (in-process, default 500 bootstrap resamples) run ${i + 1}: ${(performance.now() - t0).toFixed(1)} ms (exit ${code})`,
    );
  }
  const t0 = performance.now();
  execFileSync(process.execPath, [join(import.meta.dirname, '../../bin/lots.mjs'), 'fit', '--scores', file, '--json'], {
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  console.log(`  node bin/lots.mjs fit --scores --json (fresh process, incl. tsx start-up): ${(performance.now() - t0).toFixed(0)} ms`);

  const big = generate(10_000, 120, 1, 2);
  const bigScores = big.reduce((s, r) => s + Object.keys(r.scores).length, 0);
  for (let i = 0; i < 3; i++) {
    const [agg, ms] = time(() => aggregateTaskScores(big));
    const [, rankMs] = time(() => rankTools(agg[0]!.tools));
    console.log(`10k records × 120 tools (${bigScores} scores): aggregateTaskScores ${ms.toFixed(1)} ms, rankTools ${rankMs.toFixed(2)} ms`);
  }
  const [, bootMs] = time(() => bootstrapRanking(big, { k: 10, resamples: 1000 }));
  console.log(`10k records × 120 tools: bootstrapRanking, 1000 resamples: ${bootMs.toFixed(0)} ms`);
} finally {
  rmSync(dir, { recursive: true, force: true });
}
