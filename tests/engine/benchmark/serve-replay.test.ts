// `lots serve --replay`: the replies a model already gave, served again the same way and compared byte for byte
// with what is stored (nothing written). Through real llama.cpp with the random-weight fixture, whose greedy reply
// is one space per token and never ends on its own: served again with the run's --max-tokens it comes back the
// same; with another it comes back changed, and the command says which, how, and exits 1.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ProjectStore } from '../../../electron/engine/store';
import { replayCauses, type ReplayedReply } from '../../../electron/engine/benchmark/serve-project';
import { runCli } from '../../cli/io';

const dir = mkdtempSync(join(tmpdir(), 'lots-serve-replay-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('lots serve --replay', () => {
  it('says how many stored replies come back byte for byte, shows each changed one, and writes nothing', async () => {
    const out = join(dir, 'p');
    const model = ['--model', 'fixture:random', '--gpu', 'cpu', '--threads', '1'];
    expect((await runCli(['bench', 'make', '--out', out, '--families', 'fx_settle', '--fit', '3', '--eval', '1'])).code).toBe(0);
    expect((await runCli(['serve', '--project', out, ...model, '--max-tokens', '8'])).code).toBe(0);
    const before = ProjectStore.open(out).listTraces((t) => t.id.includes('@'));
    expect(before).toHaveLength(3);
    // Each reply says it was served with the cache reused in whole batches only (generate.ts).
    expect(before.map((t) => (t.meta?.served as { prefix?: string }).prefix)).toEqual(['whole-batch', 'whole-batch', 'whole-batch']);

    const same = await runCli(['serve', '--project', out, ...model, '--max-tokens', '8', '--replay']);
    expect(same.code).toBe(0);
    expect(same.out).toMatch(/^replayed 3 stored replies of .+: 3 byte for byte, 0 changed; right 0 as stored, 0 served again$/m);
    expect(same.out).not.toContain('stored: ');

    // Another setting than the run's: every reply is cut at 5 tokens instead of 8.
    const other = await runCli(['serve', '--project', out, ...model, '--max-tokens', '5', '--replay']);
    expect(other.code).toBe(1);
    expect(other.out).toMatch(/: 0 byte for byte, 3 changed;/);
    expect(other.out).toContain(`  ${before[0]!.id} (fx_settle)\n    stored: "${' '.repeat(8)}"\n    now:    "${' '.repeat(5)}"\n`);
    expect(other.out).toContain(
      "all were served with whole-batch prefix reuse and should come back the same: another engine, machine or setting (--max-tokens) than the run's, or a fault",
    );

    // Nothing was written: the same three traces, the same replies.
    const after = ProjectStore.open(out).listTraces((t) => t.id.includes('@'));
    expect(after.map((t) => [t.id, t.turns[0]!.answer])).toEqual(before.map((t) => [t.id, t.turns[0]!.answer]));

    // The evaluation request was never served by this model: nothing to compare.
    const none = await runCli(['serve', '--project', out, ...model, '--split', 'eval', '--replay']);
    expect(none.code).toBe(0);
    expect(none.out).toContain('nothing to replay: none of the 1 requests has a stored reply of');
    expect(ProjectStore.open(out).listTraces((t) => t.id.includes('@'))).toHaveLength(3);
  }, 300_000);

  it('says that a reply served before whole-batch prefix reuse can differ at a near tie, and which ones were', () => {
    const reply = (wholeBatch: boolean): ReplayedReply => ({
      id: 'a@1',
      task: 'a',
      stored: '1.02',
      fresh: '1.2',
      storedCorrect: false,
      freshCorrect: false,
      wholeBatch,
    });
    expect(replayCauses([])).toEqual([]);
    expect(replayCauses([reply(false)])).toEqual([
      'it was served before whole-batch prefix reuse (2026-12-07), when a sequence reused any prefix it shared with its last request, so a near tie could go either way; a changed digit there is not a fault (docs/benchmark.md, "Serving")',
    ]);
    const mixed = replayCauses([reply(false), reply(false), reply(true)]);
    expect(mixed).toHaveLength(2);
    expect(mixed[0]).toMatch(/^2 of them were served before whole-batch prefix reuse/);
    expect(mixed[1]).toMatch(/^1 of them was served with whole-batch prefix reuse and should come back the same/);
  });
});
