// Fault suite, issue 27: a scoring server cannot make a job store wrong scores or hang in silence. Each
// case runs a real scoring job (what the worker of `lots score --backend llama-server` runs) against a small llama-server on 127.0.0.1 (fake-llama-server.ts) that answers one
// request the way a broken or hostile server would: impossible log-probs, an absurd slot count, another
// model after a restart, a body that never ends or a slow answer, token ids as strings. Every score the
// job stored must be exactly what an honest server gives (the reference run), the trace that met the bad
// answer must have none, the job must say what went wrong and where; and the same job run again against
// the honest server must finish the project with every trace once.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ServerResponse } from 'node:http';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { LlamaModel } from 'node-llama-cpp';
import { ProjectStore } from '../../electron/engine/store';
import { ensureFixtureModel } from '../../electron/engine/gguf/fixture-cache';
import { loadVocabulary } from '../../electron/engine/jobs/remote-job';
import type { RetryPolicy } from '../../electron/engine/scoring/remote/http';
import type { JobEvent } from '../../electron/engine/jobs/protocol';
import { runScoreJob } from '../../electron/engine/jobs/score-job';
import { JobControl } from '../../electron/engine/jobs/control';
import type { RemoteScoringSpec } from '../../electron/engine/scoring/remote/client';
import { makeLineTraces } from '../e2e/fixtures';
import { recordFaults } from './fault-tally';
import { MODEL_A, MODEL_B, startFakeLlamaServer, withLogprob, type FakeLlamaServer, type FakeRequest, type Hostility } from './fake-llama-server';

const TRACES = makeLineTraces({ task: 'fx', requests: 3, tools: 3, seed: 2 });
/** The trace whose requests meet the bad answer: the second (the first is scored and stored before it). */
const VICTIM = TRACES[1]!.id;
const isVictim = (r: FakeRequest): boolean => r.prompt?.includes('(request 1)') === true;
/** Quick retries, and wait notices often enough for a case to see one. */
const FAST: Partial<RetryPolicy> = { attempts: 3, baseDelayMs: 10, maxDelayMs: 50, noticeMs: 200 };
/** Smallest positive float32, as the client floors an underflowed log-prob. */
const MIN_LOGPROB = Math.log(1.401298464324817e-45);

interface StoredRecord {
  key: string;
  trace: string;
  turns: Array<{ removedTokenLogprobs?: Record<string, number[]>; baseTokenLogprobs?: number[] }>;
}

let dir: string;
let model: string;
let vocab: LlamaModel;
/** Each trace's record as an honest server's answers make it (JSON text, compared exactly). */
const reference = new Map<string, string>();
const servers = new Set<FakeLlamaServer>();

function newProject(): string {
  const project = mkdtempSync(join(dir, 'p-'));
  ProjectStore.create(project).addTraces(TRACES, 'gen.jsonl');
  return project;
}

/** The project's score records, each as JSON text without its time (compared exactly). */
function storedLines(project: string): string[] {
  let text: string;
  try {
    text = readFileSync(join(project, 'scores.jsonl'), 'utf8');
  } catch {
    return [];
  }
  return text
    .split('\n')
    .filter(Boolean)
    .map((line) => {
      const { createdAt: _, ...record } = JSON.parse(line) as { createdAt?: string };
      return JSON.stringify(record);
    });
}

interface JobRun {
  events: JobEvent[];
  last: JobEvent | undefined;
}

let jobs = 0;

/** A scoring job on `server`, run here as its worker runs it (job-worker.ts); `onEvent` sees each event as it comes. */
async function runJob(project: string, server: FakeLlamaServer, retry: Partial<RetryPolicy>, onEvent?: (e: JobEvent) => void): Promise<JobRun> {
  const events: JobEvent[] = [];
  const remote: RemoteScoringSpec = { backend: 'llama-server', endpoints: [server.url], retry };
  await runScoreJob({ jobId: `job-${++jobs}`, project, model, intervention: 'line', span: 'answer', gpu: 'cpu', remote }, new JobControl(), (event) => {
    events.push(event);
    onEvent?.(event);
  });
  return { events, last: events.at(-1) };
}

function failure(run: JobRun): { code: string; message: string } | undefined {
  return run.last?.type === 'failed' ? run.last.error : undefined;
}

interface Case {
  /** What the server does instead of answering honestly. */
  hostile: Hostility;
  /** /props total_slots for the hostile run (default 1: the traces go one after another). */
  slots?: unknown;
  retry?: Partial<RetryPolicy>;
  onEvent?: (e: JobEvent, server: FakeLlamaServer) => void;
  /** The victim trace is stored all the same (a slow but honest answer). */
  victimStored?: boolean;
}

/**
 * The hostile run, its checks common to every case, then the honest rerun; the fault figures are
 * recorded. Returns the hostile run and its server for the case's own checks.
 */
async function hostileRun(c: Case): Promise<{ run: JobRun; server: FakeLlamaServer; stored: Map<string, string> }> {
  const project = newProject();
  const server = await startFakeLlamaServer(vocab, { slots: 'slots' in c ? c.slots : 1, hostile: c.hostile });
  servers.add(server);
  const run = await runJob(project, server, { ...FAST, ...c.retry }, (e) => c.onEvent?.(e, server));
  const lines = storedLines(project);
  const stored = new Map(lines.map((l) => [(JSON.parse(l) as StoredRecord).trace, l]));
  const wrong = [...stored].filter(([trace, line]) => (trace === VICTIM && !c.victimStored) || line !== reference.get(trace)).length;
  const saidDone = run.last?.type === 'finished' && run.last.status === 'done';
  const reported = Math.max(0, ...run.events.flatMap((e) => (e.type === 'progress' || e.type === 'finished' ? [e.progress.scoredNow] : [])));

  // The honest server again (its model, one slot): the same job finishes the project, every trace once.
  server.hostile = undefined;
  server.model = MODEL_A;
  server.slots = 1;
  const again = await runJob(project, server, FAST);
  const after = storedLines(project);
  const keys = after.map((l) => (JSON.parse(l) as StoredRecord).key);
  const duplicated = keys.length - new Set(keys).size;
  const whole = after.length === TRACES.length && after.every((l) => l === reference.get((JSON.parse(l) as StoredRecord).trace));
  recordFaults({
    injected: 1,
    recovered: whole && duplicated === 0 && again.last?.type === 'finished' ? 1 : 0,
    lost: Math.max(0, reported - lines.length) + TRACES.filter((t) => !after.some((l) => (JSON.parse(l) as StoredRecord).trace === t.id)).length,
    duplicated,
    falseSuccesses: saidDone && (wrong > 0 || stored.size < TRACES.length) ? 1 : 0,
  });

  expect(wrong, `stored records that differ from an honest server's: ${[...stored.keys()].join(', ')}`).toBe(0);
  if (c.victimStored) expect(stored.has(VICTIM)).toBe(true);
  else expect(stored.has(VICTIM), `trace ${VICTIM} met the bad answer and must have no record`).toBe(false);
  expect(again.last).toMatchObject({ type: 'finished', status: 'done' });
  expect(duplicated).toBe(0);
  expect(whole, 'the rerun against the honest server stores what an honest server gives, every trace once').toBe(true);
  return { run, server, stored };
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'lots-hostile-server-'));
  model = ensureFixtureModel(join(tmpdir(), 'lots-fixtures'), { kind: 'random' });
  vocab = await loadVocabulary(model);
  const server = await startFakeLlamaServer(vocab);
  servers.add(server);
  const project = newProject();
  const run = await runJob(project, server, FAST);
  expect(run.last).toMatchObject({ type: 'finished', status: 'done' });
  for (const line of storedLines(project)) reference.set((JSON.parse(line) as StoredRecord).trace, line);
  expect(reference.size).toBe(TRACES.length);
}, 120_000);

afterEach(async () => {
  for (const server of servers) await server.close();
  servers.clear();
});

afterAll(async () => {
  await vocab?.dispose();
  rmSync(dir, { recursive: true, force: true });
});

/** The victim's `nth` /completion (1: its full context; 2: its first intervention). */
function onVictimCompletion(nth: number, answer: (honest: () => Record<string, unknown>, server: FakeLlamaServer) => ReturnType<Hostility>): Hostility {
  let seen = 0;
  return (r, honest, server) => (r.path === '/completion' && isVictim(r) && ++seen === nth ? answer(honest, server) : undefined);
}

describe('finding 1: only a finite log-prob ≤ 0 (or −Infinity) is a log-prob', () => {
  it.each([
    ['null', 'null'],
    ['a string', '"-0.5"'],
    ['+Infinity (1e999)', '1e999'],
    ['a positive value', '7.5'],
  ])('%s is a protocol error naming the endpoint, and nothing is stored for that trace', async (_what, literal) => {
    const { run, server } = await hostileRun({ hostile: onVictimCompletion(2, (honest) => ({ text: withLogprob(honest(), 1, literal) })) });
    const error = failure(run);
    expect(error?.code).toBe('SERVER_PROTOCOL');
    expect(error?.message).toContain(
      `${server.url}/completion gave the log-prob ${literal === '1e999' ? '+Infinity' : literal === '"-0.5"' ? '"-0.5" (a string)' : literal}`,
    );
  });

  it.each([
    ['−Infinity (-1e999)', '-1e999'],
    ["the lowest float (llama-server's own spelling of an underflow)", '-3.4028234663852886e38'],
  ])('an underflow, %s, is accepted, as the float32 floor', async (_what, literal) => {
    const project = newProject();
    const server = await startFakeLlamaServer(vocab, { hostile: onVictimCompletion(2, (honest) => ({ text: withLogprob(honest(), 1, literal) })) });
    servers.add(server);
    const run = await runJob(project, server, FAST);
    expect(run.last).toMatchObject({ type: 'finished', status: 'done' });
    const record = JSON.parse(storedLines(project).find((l) => (JSON.parse(l) as StoredRecord).trace === VICTIM)!) as StoredRecord;
    const removed = Object.values(record.turns[0]!.removedTokenLogprobs ?? {}).map((values) => values[1]);
    expect(removed).toContain(MIN_LOGPROB);
  });
});

describe("finding 2: the server's slot count is checked before it becomes workers", () => {
  it.each([
    ['1e9', 1e9],
    ['the string "100000000"', '100000000'],
    ['0', 0],
    ['2.5', 2.5],
  ])('total_slots %s is refused with a message naming /props; the job ends normally, nothing stored', async (_what, slots) => {
    const { run, server, stored } = await hostileRun({ slots, hostile: () => undefined });
    const error = failure(run);
    expect(error?.code).toBe('SERVER_PROTOCOL');
    expect(error?.message).toContain(`${server.url}/props reports total_slots ${typeof slots === 'string' ? `"${slots}" (a string)` : slots}`);
    expect(stored.size).toBe(0);
  });
});

describe('finding 3: the served model is checked again, and a change refuses the batch', () => {
  it('a server that changes its model between two requests of a trace (no error to see)', async () => {
    const { run, server } = await hostileRun({
      hostile: onVictimCompletion(1, (honest, s) => {
        const answer = { json: honest() };
        s.model = MODEL_B; // from the next request on
        return answer;
      }),
    });
    const error = failure(run);
    expect(error?.code).toBe('SERVER_MODEL_MISMATCH');
    expect(error?.message).toContain(`${server.url} now serves llama-server:${MODEL_B.name}@`);
    expect(error?.message).toContain(`before storing trace "${VICTIM}"`);
  });

  it('a server restarted with another model: the dropped request is retried, then the model is asked again', async () => {
    const { run, server } = await hostileRun({
      hostile: onVictimCompletion(2, (_honest, s) => ({
        handle: (res: ServerResponse) => {
          s.model = MODEL_B;
          res.socket?.destroy(); // the restart drops the connection
        },
      })),
    });
    const error = failure(run);
    expect(error?.code).toBe('SERVER_MODEL_MISMATCH');
    expect(error?.message).toContain(`${server.url} now serves llama-server:${MODEL_B.name}@`);
    expect(error?.message).toContain('after a retried request');
    expect(run.events.some((e) => e.type === 'status' && e.message?.includes(`${server.url}/completion failed`))).toBe(true);
  });
});

describe('finding 4: an answer that never ends is cut off, and a slow one is reported while it is awaited', () => {
  it('a 200 declaring 10 GiB and sending a byte a second is refused at once (the size cap)', async () => {
    const { run, server } = await hostileRun({
      hostile: onVictimCompletion(1, () => ({ handle: (res: ServerResponse) => drip(res, 1000, { 'content-length': String(10 * 1024 ** 3) }) })),
    });
    const error = failure(run);
    expect(error?.code).toBe('SERVER_PROTOCOL');
    expect(error?.message).toContain(`POST ${server.url}/completion answered 200 with a body of 10.0 GiB`);
  });

  it('a body dripped without end is given up at its deadline on every attempt, saying what it waits for', async () => {
    const { run, server } = await hostileRun({
      hostile: (r) => (r.path === '/completion' && isVictim(r) ? { handle: (res: ServerResponse) => drip(res, 100) } : undefined),
      retry: { bodyTimeoutMs: 1500, idleMs: 1000 },
    });
    const error = failure(run);
    expect(error?.code).toBe('NO_ENDPOINT_LEFT');
    expect(error?.message).toContain(`POST ${server.url}/completion: the body was not complete 1.5 s after the headers`);
    const said = run.events.flatMap((e) => (e.type === 'status' && e.message ? [e.message] : []));
    expect(said.some((m) => m.startsWith(`waiting for POST ${server.url}/completion to finish its answer`))).toBe(true);
    expect(said.some((m) => m.startsWith(`${server.url}/completion failed (BodyStalled`))).toBe(true);
  });

  it('an answer that takes long is awaited, and the job says what it waits for until it comes', async () => {
    let release: (() => void) | undefined;
    const { run, server } = await hostileRun({
      hostile: onVictimCompletion(1, (honest) => new Promise((done) => (release = () => done({ json: honest() })))),
      onEvent: (e, s) => {
        if (e.type === 'status' && e.message?.startsWith(`waiting for POST ${s.url}/completion to answer`)) release?.();
      },
      victimStored: true,
    });
    expect(run.last).toMatchObject({ type: 'finished', status: 'done' });
    // The first notice about /completion: on a loaded machine another request (a /tokenize) may be slow
    // enough to be waited for too, and say so first.
    const said = run.events.find((e) => e.type === 'status' && e.message?.startsWith(`waiting for POST ${server.url}/completion`));
    expect(said).toMatchObject({
      message: expect.stringMatching(new RegExp(`^waiting for POST ${server.url}/completion to answer: .* so far \\(attempt 1 of 3`)),
    });
  });
});

describe('finding 5: token ids of the wrong type say so', () => {
  it('/completion ids as strings: "the types differ"', async () => {
    const { run, server } = await hostileRun({
      hostile: onVictimCompletion(1, (honest) => {
        const answer = honest();
        for (const p of answer.completion_probabilities as Array<{ id: unknown }>) p.id = String(p.id);
        return { json: answer };
      }),
    });
    const error = failure(run);
    expect(error?.code).toBe('SERVER_PROTOCOL');
    expect(error?.message).toContain(`${server.url}/completion did not follow the forced answer tokens`);
    expect(error?.message).toMatch(/the types differ: token 0 came back as "\d+" \(a string\), where a token id is a number/);
  });

  it('/tokenize ids as strings: "the types differ"', async () => {
    const { run, server } = await hostileRun({
      hostile: (r, honest) => {
        if (r.path !== '/tokenize' || !String(r.body.content).includes('(request 1)')) return undefined;
        const answer = honest();
        for (const t of answer.tokens as Array<{ id: unknown }>) t.id = String(t.id);
        return { json: answer };
      },
    });
    const error = failure(run);
    expect(error?.code).toBe('SERVER_PROTOCOL');
    expect(error?.message).toMatch(new RegExp(`^${server.url}/tokenize gave token 0 the id "\\d+" \\(a string\\): the types differ`));
  });
});

/** A 200 whose body starts and then comes a byte every `everyMs`, without end. */
function drip(res: ServerResponse, everyMs: number, headers: Record<string, string> = {}): void {
  res.writeHead(200, { 'content-type': 'application/json', ...headers });
  res.write('{');
  const timer = setInterval(() => res.write(' '), everyMs);
  res.once('close', () => clearInterval(timer));
}
