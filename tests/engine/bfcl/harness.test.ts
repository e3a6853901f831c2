// The official BFCL harness (bfcl-eval from the package index, its executable API classes and its
// multi-turn checker) driven from TypeScript: a few real records, gold answers pass the official checker,
// wrong calls fail it, the process survives a Python exception, and the paper's grouping holds on the
// package's own data. Needs the package index once: beforeAll provisions the cached venv (idempotent; a
// failure says what is missing), so nothing here is skipped.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BfclHarness, HarnessError } from '../../../electron/engine/bfcl/harness';
import { provisionBfcl, BFCL_VERSION } from '../../../electron/engine/bfcl/provision';
import { goldObservations, runBfclDiagnostic } from '../../../electron/engine/bfcl/diagnostic';
import {
  BFCL_PRIMARY_CLASSES,
  callName,
  goldCoverage,
  goldResultEntry,
  groupByPrimaryClass,
  primaryClassOf,
  recordNumber,
  type BfclAnswer,
  type BfclDoc,
  type BfclEntry,
} from '../../../shared/benchmark/bfcl';
import { parseBfclRecord } from '../../../shared/importers/bfcl';

let harness: BfclHarness;
let records: BfclEntry[];
let answers: Map<string, BfclAnswer>;
let docs: Record<string, BfclDoc[]>;

const record = (n: number) => records.find((r) => r.id === `multi_turn_base_${n}`)!;
const gold = (n: number) => answers.get(`multi_turn_base_${n}`)!.ground_truth;
/** The gold calls as a model result: one step per turn holding the turn's gold calls. */
const asResult = (gt: string[][]) => gt.map((calls) => [calls]);

beforeAll(async () => {
  try {
    await provisionBfcl();
  } catch (e) {
    throw new Error(
      `the BFCL tests need bfcl-eval==${BFCL_VERSION} in a cached venv and could not provision it: ${(e as Error).message}. ` +
        'They need python3 with venv and pip and the package index (PyPI) reachable once.',
    );
  }
  harness = BfclHarness.start();
  const loaded = await harness.load('multi_turn_base');
  records = loaded.records;
  answers = new Map(loaded.answers.map((a) => [a.id, a]));
  docs = loaded.docs;
}, 300_000);

afterAll(async () => {
  await harness?.close();
});

describe('the official BFCL harness', () => {
  it('runs the pinned package and loads the 200 multi_turn_base records with their answers and docs', async () => {
    expect((await harness.info()).version).toBe(BFCL_VERSION);
    expect(records).toHaveLength(200);
    expect(answers.size).toBe(200);
    for (const cls of [...BFCL_PRIMARY_CLASSES, 'TwitterAPI', 'MessageAPI', 'TicketAPI', 'MathAPI']) expect(docs[cls]?.length).toBeGreaterThan(0);
  });

  it('groups the records by primary class as the paper does: 4 × 50, the first 10 fit', () => {
    // How the primary class is determined: every record involves exactly one of the four classes
    // (primaryClassOf throws otherwise), and the dataset keeps them in blocks of 50 by id.
    const blockOf: Record<string, number> = { GorillaFileSystem: 0, VehicleControlAPI: 1, TradingBot: 2, TravelAPI: 3 };
    for (const r of records) expect(Math.floor(recordNumber(r.id) / 50)).toBe(blockOf[primaryClassOf(r)]);
    const groups = groupByPrimaryClass(records);
    expect(groups.map((g) => [g.cls, g.fit.length, g.evaluate.length])).toEqual(BFCL_PRIMARY_CLASSES.map((c) => [c, 10, 40]));
    expect(groups.find((g) => g.cls === 'TradingBot')!.fit.map((e) => e.id)[0]).toBe('multi_turn_base_100');
  });

  it.each([0, 50, 100, 150])('gold answers of multi_turn_base_%i pass the official checker', async (n) => {
    const verdict = await harness.check(record(n), gold(n), asResult(gold(n)));
    expect(verdict).toEqual({ valid: true });
    // Checking the same record again gives the same verdict (no state kept from the first check).
    expect((await harness.check(record(n), gold(n), asResult(gold(n)))).valid).toBe(true);
  });

  it('a wrong call fails the official checker, with its reason', async () => {
    const wrong = asResult(gold(0));
    // Turn 0 moves final_report.pdf into a new directory "temp"; create "tmp" instead.
    wrong[0] = [gold(0)[0]!.map((c) => c.replace("mkdir(dir_name='temp')", "mkdir(dir_name='tmp')"))];
    expect(wrong[0][0]).not.toEqual(gold(0)[0]);
    const verdict = await harness.check(record(0), gold(0), wrong);
    expect(verdict.valid).toBe(false);
    expect(verdict.error_type).toBe('multi_turn:instance_state_mismatch');
  });

  it('a turn without calls fails the official checker', async () => {
    const empty = asResult(gold(100));
    empty[1] = [];
    const verdict = await harness.check(record(100), gold(100), empty);
    expect(verdict.valid).toBe(false);
    expect(verdict.error_type).toBe('multi_turn:empty_turn_model_response');
  });

  it("keeps a session's instances between requests and forgets them at its end", async () => {
    const entry = record(0);
    expect(await harness.execute('state_test', entry, ["cd(folder='document')"])).toEqual(['{"current_working_directory": "document"}']);
    const [ls] = await harness.execute('state_test', entry, ['ls()']);
    expect(ls).toContain('final_report.pdf');
    await harness.endSession('state_test');
    const [fresh] = await harness.execute('state_test', entry, ['ls()']);
    expect(fresh).not.toContain('final_report.pdf');
    expect(fresh).toContain('document');
    await harness.endSession('state_test');
  });

  it('survives a Python exception in one request: that request fails with the traceback, the next succeeds', async () => {
    const broken = { ...record(0), initial_config: undefined } as unknown as BfclEntry;
    const failure = await harness.execute('broken', broken, ['ls()']).catch((e: unknown) => e);
    expect(failure).toBeInstanceOf(HarnessError);
    expect((failure as HarnessError).message).toMatch(/^BFCL harness, execute: \w+Error/);
    expect((failure as HarnessError).traceback).toContain('Traceback (most recent call last)');
    const unknown = await harness.request('no_such_op').catch((e: unknown) => e);
    expect((unknown as Error).message).toBe("BFCL harness, no_such_op: KeyError: 'no_such_op'");
    expect((await harness.check(record(50), gold(50), asResult(gold(50)))).valid).toBe(true);
  });

  it('builds a canonical gold trace whose frozen target per turn is the turn’s last gold call, with real observations', async () => {
    const n = 150;
    const observations = await goldObservations(harness, record(n), answers.get(`multi_turn_base_${n}`)!, 'trace_test');
    expect(observations.map((o) => o.length)).toEqual(gold(n).map((t) => t.length));
    expect(observations.flat().some((o) => o.startsWith('Error during execution'))).toBe(false);
    const outcome = parseBfclRecord(
      { value: goldResultEntry(record(n), answers.get(`multi_turn_base_${n}`)!, observations), line: 1 },
      { bfcl: { dataset: new Map([[record(n).id, record(n)]]), functionDocs: new Map(Object.entries(docs)) } },
    );
    expect(outcome.errors).toEqual([]);
    const trace = outcome.traces[0]!.trace;
    expect(trace.turns).toHaveLength(gold(n).length);
    expect(trace.tools.map((t) => t.name)).toEqual(expect.arrayContaining(docs.TravelAPI!.map((d) => d.name)));
    trace.turns.forEach((turn, t) => {
      expect(turn.target).toBe('call');
      const calls = turn.steps.filter((s) => s.kind === 'call');
      expect(calls.map((s) => s.calls[0]!.name)).toEqual(gold(n)[t]!.map(callName));
      const observed = turn.steps.filter((s) => s.kind === 'observation').map((s) => s.content);
      expect(observed).toEqual(observations[t]);
    });
  });

  it("the LOTS column: each class's ten fitting gold traces go to the ranking, whose top K is measured like the other rankings", async () => {
    const seen: { cls: string; ids: string[]; splits: string[] }[] = [];
    const report = await runBfclDiagnostic(harness, {
      ks: [1, 200],
      lots: async (cls, fitTraces) => {
        seen.push({ cls, ids: fitTraces.map((t) => t.id), splits: fitTraces.map((t) => t.split ?? '') });
        // A ranking the test controls: the class's first fitting record's gold functions, in call order.
        const first = answers.get(fitTraces[0]!.id)!.ground_truth.flat().map(callName);
        return { order: [...new Set(first)], scoredTraces: fitTraces.length, traceIds: fitTraces.map((t) => t.id) };
      },
    });
    expect(seen.map((s) => [s.cls, s.ids.length, new Set(s.splits)])).toEqual(BFCL_PRIMARY_CLASSES.map((c) => [c, 10, new Set(['fit'])]));
    expect(seen[1]!.ids[0]).toBe('multi_turn_base_100');
    for (const c of report.classes) {
      const lots = c.rankings.lots!;
      expect(lots.scoredTraces).toBe(10);
      // Never padded: at K = 200 the ranking holds only the functions it was given.
      const evalAnswers = c.evaluate.map((id) => answers.get(id)!);
      expect(lots.coverage).toEqual(goldCoverage(lots.order, evalAnswers, [1, 200]));
      expect(lots.coverage[1]!.calls).toBeLessThan(1);
      // Every fitting record scored: fit-gold is its reference, no separate one.
      expect(c.rankings['fit-gold-lots']).toBeUndefined();
    }
    // LOTS from two of the ten: its reference is fit-gold from the same two records.
    const two = await runBfclDiagnostic(harness, {
      ks: [4],
      lots: async (_cls, fitTraces) => ({ order: [], scoredTraces: 2, traceIds: fitTraces.slice(0, 2).map((t) => t.id) }),
    });
    const trading = two.classes.find((c) => c.cls === 'TradingBot')!;
    const byFrequency = new Map<string, number>();
    for (const id of ['multi_turn_base_100', 'multi_turn_base_101'])
      for (const name of answers.get(id)!.ground_truth.flat().map(callName)) byFrequency.set(name, (byFrequency.get(name) ?? 0) + 1);
    const top = Math.max(...byFrequency.values());
    expect(byFrequency.get(trading.rankings['fit-gold-lots']!.order[0]!)).toBe(top);
    expect(trading.rankings.lots!.coverage).toEqual([{ k: 4, calls: 0, records: 0 }]);
  });

  it('ends with the process: a request after the driver died fails and says so', async () => {
    const other = BfclHarness.start();
    expect((await other.info()).version).toBe(BFCL_VERSION);
    const pending = other.check(record(0), gold(0), asResult(gold(0)));
    other.kill();
    await other.whenExited();
    // The request in flight when it died is answered too (rejected), never left hanging.
    await pending.then(
      (v) => expect(v.valid).toBe(true), // it may have been answered before the signal landed
      (e: unknown) => expect((e as Error).message).toMatch(/exited/),
    );
    await expect(other.info()).rejects.toThrow(/the BFCL harness \(python driver\.py\) exited/);
  });
});
