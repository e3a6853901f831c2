// A project is a folder:
//   project.json         format marker + version (a newer version is refused)
//   traces/NNNN.jsonl    each import as an immutable file of native traces (+ NNNN.meta.json: source, counts;
//                        NNNN.index: where each trace is and what the store keeps of it, see trace-index.ts)
//   scores.jsonl         append-only StoredScore records, unique by `key` (nothing is computed twice)
//   spaces/<task>.json   TaskSpaces: every accepted version of the task's space
//   sweeps/<task>.json   SweepResult: the budget sweep of a task
//   faithfulness/<task>.json  TaskFaithfulness: the faithfulness checks of a task, per scoring run
//   stream.json          StreamRecord: a benchmark stream's arms batch by batch (lots bench stream)
//   updates/<task>.json  TaskUpdates: the task's running scores batch by batch and the proposals (lots update)
//   jobs/<id>.json       job state (scoring, sweeps), so a killed run can resume
//   activity.jsonl       append-only log of what happened (imports, scoring, approvals)
//   .lock                the write lock (see lock.ts)
// Every write is atomic (temp + rename) or an append of whole lines; readers never need the lock. Every
// JSONL file is read line by line in chunks (jsonl.ts), and traces stay on disk until asked for, so a
// project of any size opens with bounded memory.
import { createHash } from 'node:crypto';
import { closeSync, existsSync, fsyncSync, mkdirSync, openSync, readdirSync, readFileSync, renameSync, rmSync, statSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { z } from 'zod';
import { describeZodError } from '../../../shared/trace/validate';
import { ownRecord, ownValue } from '../../../shared/trace/own-record';
import type { ToolDef, Trace } from '../../../shared/trace/schema';
import { StoredScoreSchema, type StoredScore } from '../../../shared/project/scores';
import { TaskSpacesSchema, type SpaceVersion, type TaskSpaces } from '../../../shared/project/spaces';
import { SweepResultSchema, type SweepResult } from '../../../shared/project/sweeps';
import { mergeFaithfulness, TaskFaithfulnessSchema, type FaithfulnessCheck, type TaskFaithfulness } from '../../../shared/project/faithfulness';
import { DemoRecordSchema, type DemoRecord } from '../../../shared/project/demo';
import { TaskUpdatesSchema, type TaskUpdates } from '../../../shared/project/updates';
import { StreamRecordSchema, type StreamRecord } from '../../../shared/project/streams';
import { appendLines, fsyncDir, uniqueTempName, writeAll, writeError, writeFileAtomic, writeJsonAtomic } from './atomic';
import { readJsonlFrom, readLineAt, scanJsonlRecords } from './jsonl';
import { entryOf, parseTrace, readSidecar, scanTracesFile, sidecarLines, sidecarPath, ToolTable, traceHash, type TraceEntry } from './trace-index';

import { processAlive, ProjectLock, type AcquireOptions } from './lock';
import { JobStateSchema, type JobState } from './jobs';
import { errorCode, ExpectedError, isFsError } from '../../../shared/api/errors';
import { plural } from '../../../shared/text';
import { STUDIO_VERSION } from '../version';

export const PROJECT_FORMAT = 'lots-project';

/**
 * The pids a writer's temp file may belong to: `<name>.<pid>.tmp` or `<name>.<pid>.<stamp>.tmp` (the
 * lock's `.stale` too). A stamp can be all digits, so both readings count; none for other names.
 */
function tempFileOwners(name: string): number[] {
  const parts = name.split('.');
  if (parts.length < 3 || (parts.at(-1) !== 'tmp' && parts.at(-1) !== 'stale')) return [];
  return [parts.at(-2)!, ...(parts.length >= 4 ? [parts.at(-3)!] : [])].filter((p) => /^[1-9]\d{0,9}$/.test(p)).map(Number);
}
export const PROJECT_VERSION = 1;

export interface ProjectInfo {
  format: typeof PROJECT_FORMAT;
  version: number;
  name: string;
  createdAt: string;
  createdBy: string;
}

export interface ActivityEntry {
  at: string;
  kind: string;
  message: string;
  data?: Record<string, unknown>;
}

export interface ImportSummary {
  file: string;
  source: string;
  added: number;
  duplicates: number;
  conflicts: Array<{ id: string; message: string }>;
}

export interface StoreWarning {
  file: string;
  message: string;
}

export { traceHash };

/** What the store knows about a trace without reading it. */
export interface TraceInfo {
  id: string;
  /** Its task, routed when it had none and `lots route` gave it one. */
  task?: string;
  routed: boolean;
  correct: boolean | null;
  /** Its menu, as indices for `ProjectStore.toolDef`. */
  menu: readonly number[];
  /** The trace file it was imported into (`0003.jsonl`): one import, one batch for `lots update`. */
  file: string;
}

/** A file-system-safe name for a task (tasks are free text). */
export function taskFileName(task: string): string {
  const safe = task.replace(/[^A-Za-z0-9._-]+/g, '_').slice(0, 60);
  return `${safe}-${createHash('sha256').update(task).digest('hex').slice(0, 8)}.json`;
}

const ImportMetaSchema = z.object({ source: z.string() }).passthrough();

const RoutesFileSchema = z.object({ routes: ownRecord(z.string(), z.string()).optional() });

/**
 * A JSON file of the project, checked against its schema. Missing: undefined. Damaged (cut short by a
 * crash or a full disk, edited by hand, written by something else): an expected error that names the
 * file, says what is wrong and what to do (`remedy` starts with "or …", after "restore it from a backup").
 */
export function readProjectFile<T>(path: string, schema: z.ZodType<T>, remedy: string): T | undefined {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (e) {
    if (isFsError(e, 'ENOENT')) return undefined;
    throw e;
  }
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (e) {
    throw damagedFile(path, text.trim() === '' ? 'the file is empty' : (e as Error).message, remedy);
  }
  const parsed = schema.safeParse(raw);
  if (!parsed.success) throw damagedFile(path, `not what LOTS Studio wrote: ${describeZodError(parsed.error)}`, remedy);
  return parsed.data;
}

function damagedFile(path: string, why: string, remedy: string): ExpectedError {
  return new ExpectedError('PROJECT_FILE_DAMAGED', `${path} is damaged (${why}); restore it from a backup, ${remedy}.`);
}

function infoOf(id: string, e: TraceEntry, routes: Record<string, string>): TraceInfo {
  if (e.task !== undefined) return { id, task: e.task, routed: false, correct: e.correct, menu: e.tools, file: e.file };
  const task = ownValue(routes, id);
  return typeof task === 'string' && task
    ? { id, task, routed: true, correct: e.correct, menu: e.tools, file: e.file }
    : { id, routed: false, correct: e.correct, menu: e.tools, file: e.file };
}

function withRoute(trace: Trace, routes: Record<string, string>): Trace {
  if (trace.task) return trace;
  const task = ownValue(routes, trace.id);
  return typeof task === 'string' && task ? { ...trace, task, meta: { ...trace.meta, routed: true } } : trace;
}

export interface StoreOptions {
  clock?: () => Date;
}

export class ProjectStore {
  readonly dir: string;
  readonly info: ProjectInfo;
  readonly lock: ProjectLock;
  /** Problems found while reading (torn lines, bad records); shown to the user, never fatal. */
  readonly warnings: StoreWarning[] = [];

  /** id → what is kept of the trace (see trace-index.ts); the trace itself is read from its file when asked for. */
  private traces = new Map<string, TraceEntry>();
  /** @internal the tool definitions of every menu, interned (used by TraceImport). */
  readonly tools = new ToolTable();
  private traceFiles = new Set<string>();
  private scores: StoredScore[] = [];
  private scoreKeys = new Set<string>();
  private scoresOffset = 0;
  private scoresLine = 1;
  private routesCache?: { stamp: number; routes: Record<string, string> };

  /** The store's clock (injectable so a generated project can be byte-identical for a seed). */
  readonly now: () => Date;

  private constructor(dir: string, info: ProjectInfo, options: StoreOptions = {}) {
    this.dir = dir;
    this.info = info;
    this.now = options.clock ?? (() => new Date());
    this.lock = new ProjectLock(join(dir, '.lock'));
  }

  /** Open an existing project; refuses a folder that is not one, or one written by a newer version. */
  static open(dir: string, options: StoreOptions = {}): ProjectStore {
    const abs = resolve(dir);
    const infoPath = join(abs, 'project.json');
    if (!existsSync(infoPath)) {
      throw new ExpectedError('PROJECT_NOT_FOUND', `${abs} is not a LOTS project (no project.json). Create one with \`lots import <file> --project ${dir}\`.`);
    }
    let info: ProjectInfo;
    try {
      info = JSON.parse(readFileSync(infoPath, 'utf8')) as ProjectInfo;
    } catch (e) {
      throw new ExpectedError('PROJECT_INVALID', `${infoPath}: not valid JSON (${(e as Error).message}).`);
    }
    if (info.format !== PROJECT_FORMAT || typeof info.version !== 'number') {
      throw new ExpectedError('PROJECT_INVALID', `${infoPath}: not a LOTS project file (format "${String(info.format)}").`);
    }
    if (info.version > PROJECT_VERSION) {
      throw new ExpectedError(
        'PROJECT_TOO_NEW',
        `${abs} was written by a newer LOTS Studio (project format v${info.version}; this version reads up to v${PROJECT_VERSION}). Update LOTS Studio to open it.`,
      );
    }
    const store = new ProjectStore(abs, info, options);
    store.removeDeadTempFiles();
    store.refresh();
    return store;
  }

  static create(dir: string, name = basename(resolve(dir)), options: StoreOptions = {}): ProjectStore {
    const abs = resolve(dir);
    if (existsSync(join(abs, 'project.json'))) return ProjectStore.open(abs, options);
    if (existsSync(abs) && !statSync(abs).isDirectory()) {
      throw new ExpectedError('INVALID_INPUT', `${abs} exists and is not a folder; choose another --project path.`);
    }
    mkdirSync(abs, { recursive: true });
    const info: ProjectInfo = {
      format: PROJECT_FORMAT,
      version: PROJECT_VERSION,
      name,
      createdAt: (options.clock ?? (() => new Date()))().toISOString(),
      createdBy: `lots-studio ${STUDIO_VERSION}`,
    };
    writeJsonAtomic(join(abs, 'project.json'), info);
    return ProjectStore.open(abs, options);
  }

  static openOrCreate(dir: string): ProjectStore {
    return existsSync(join(resolve(dir), 'project.json')) ? ProjectStore.open(dir) : ProjectStore.create(dir);
  }

  /**
   * Temp files left by writers that were killed (an import's `traces/NNNN.jsonl.PID….tmp`, an atomic
   * write's `name.PID.STAMP.tmp`, the lock's own): removed when the project is opened, once their
   * owner pid — the same liveness check the lock uses — is no process of this machine. A temp file of
   * a live process (or of this one) is left alone: it may be a write in progress. (Temp names carry no
   * host, so a project shared by two machines could lose a temp file of the other's write in progress;
   * that write then fails loudly — its rename finds nothing — and commits nothing.)
   */
  private removeDeadTempFiles(): void {
    for (const sub of ['', 'traces', 'spaces', 'sweeps', 'faithfulness', 'updates', 'jobs']) {
      const dir = join(this.dir, sub);
      let names: string[];
      try {
        names = readdirSync(dir);
      } catch {
        continue;
      }
      for (const name of names) {
        const owners = tempFileOwners(name);
        if (owners.length === 0 || owners.some((pid) => pid === process.pid || processAlive(pid))) continue;
        const pid = owners.at(-1);
        try {
          rmSync(join(dir, name), { force: true });
          this.warnings.push({
            file: join(dir, name),
            message: `removed a temp file left by process ${pid}, which is gone (an interrupted write; nothing of it had been committed)`,
          });
        } catch {
          /* not ours to remove (permissions): harmless, left */
        }
      }
    }
  }

  /** Pick up what other processes wrote since the last read (new imports, appended scores). */
  refresh(): void {
    this.loadNewTraceFiles();
    this.loadNewScores();
  }

  // ---------------------------------------------------------------- traces

  /**
   * Traces as imported, read from their files; a trace without a task gets its routed task (`lots
   * route`), marked in meta.routed. `where` picks traces by what the store knows of them without
   * reading them (only those are read).
   */
  listTraces(where?: (info: TraceInfo) => boolean): Trace[] {
    return [...this.iterTraces(where)];
  }

  /** Like listTraces, one trace at a time (memory holds one trace, whatever the project's size). */
  *iterTraces(where?: (info: TraceInfo) => boolean): Generator<Trace> {
    const routes = this.readRoutes();
    const byFile = new Map<string, Array<[string, TraceEntry]>>();
    for (const [id, e] of this.traces) {
      if (where && !where(infoOf(id, e, routes))) continue;
      let list = byFile.get(e.file);
      if (!list) byFile.set(e.file, (list = []));
      list.push([id, e]);
    }
    for (const [file, list] of byFile) {
      list.sort((a, b) => a[1].start - b[1].start);
      const fd = this.openTraceFile(file);
      try {
        for (const [id, e] of list) {
          const trace = this.readTrace(fd, id, e);
          if (trace) yield withRoute(trace, routes);
        }
      } finally {
        closeSync(fd);
      }
    }
  }

  /**
   * The traces `where` picks, in listTraces' order, read one at a time and handed over in batches of at most
   * `traces` traces and about `bytes` bytes of trace lines (a longer trace is a batch of its own): memory
   * holds one batch, whatever the project's size. Each batch is read when it is asked for.
   */
  *traceBatches(where: ((info: TraceInfo) => boolean) | undefined, limits: { traces: number; bytes: number }): Generator<Trace[]> {
    let batch: Trace[] = [];
    let bytes = 0;
    for (const trace of this.iterTraces(where)) {
      const size = this.traces.get(trace.id)?.bytes ?? 0;
      if (batch.length > 0 && (batch.length >= limits.traces || bytes + size > limits.bytes)) {
        yield batch;
        batch = [];
        bytes = 0;
      }
      batch.push(trace);
      bytes += size;
    }
    if (batch.length > 0) yield batch;
  }

  /** What the store knows of every trace (task, label, menu), in import order, without reading a trace. */
  *traceInfos(): Generator<TraceInfo> {
    const routes = this.readRoutes();
    for (const [id, e] of this.traces) yield infoOf(id, e, routes);
  }

  /** Every trace's menu (its tool definitions), in import order, without reading a trace. */
  *traceMenus(): Generator<{ tools: ToolDef[] }> {
    for (const e of this.traces.values()) yield { tools: e.tools.map((i) => this.tools.def(i)) };
  }

  /** Trace id → task (routed tasks included). */
  traceTasks(): Map<string, string | undefined> {
    const routes = this.readRoutes();
    const tasks = new Map<string, string | undefined>();
    for (const [id, e] of this.traces) tasks.set(id, infoOf(id, e, routes).task);
    return tasks;
  }

  /** A tool definition of a menu (`TraceInfo.menu` holds these indices). */
  toolDef(index: number): ToolDef {
    return this.tools.def(index);
  }

  getTrace(id: string): Trace | undefined {
    const e = this.traces.get(id);
    if (!e) return undefined;
    const fd = this.openTraceFile(e.file);
    let trace: Trace | undefined;
    try {
      trace = this.readTrace(fd, id, e);
    } finally {
      closeSync(fd);
    }
    return trace && withRoute(trace, this.readRoutes());
  }

  private openTraceFile(file: string): number {
    const path = join(this.dir, 'traces', file);
    try {
      return openSync(path, 'r');
    } catch (e) {
      throw damagedFile(path, `it cannot be read (${errorCode(e) ?? (e as Error).message})`, 'or re-import the file it came from into a new project');
    }
  }

  /** One trace from its line; a line that no longer holds it (the file was changed by hand) is a warning. */
  private readTrace(fd: number, id: string, e: TraceEntry): Trace | undefined {
    const path = join(this.dir, 'traces', e.file);
    let parsed: Trace | string;
    try {
      parsed = parseTrace(JSON.parse(readLineAt(fd, e.start, e.bytes)));
    } catch (err) {
      parsed = (err as Error).message;
    }
    if (typeof parsed === 'string' || parsed.id !== id) {
      const message = `trace "${id}" is no longer where this project recorded it (bytes ${e.start}–${e.start + e.bytes}: ${typeof parsed === 'string' ? parsed : `trace "${parsed.id}"`}); the file was changed after it was imported, left out`;
      if (!this.warnings.some((w) => w.file === path && w.message === message)) this.warnings.push({ file: path, message });
      return undefined;
    }
    return parsed;
  }

  /** Task assignments of unlabelled traces (paper D.1); imported files stay untouched. */
  readRoutes(): Record<string, string> {
    const path = join(this.dir, 'routes.json');
    const stamp = existsSync(path) ? statSync(path).mtimeMs : -1;
    if (this.routesCache?.stamp !== stamp) {
      const raw =
        stamp === -1 ? undefined : readProjectFile(path, RoutesFileSchema, 'or delete it and run `lots route` again to route the unlabelled requests');
      this.routesCache = { stamp, routes: raw?.routes ?? {} };
    }
    return this.routesCache.routes;
  }

  writeRoutes(routes: Record<string, string>, method: string): void {
    this.lock.run('write routes', () => writeJsonAtomic(join(this.dir, 'routes.json'), { method, createdAt: this.now().toISOString(), routes }));
    this.logActivityAfterCommit({ kind: 'route', message: `routed ${Object.keys(routes).length} unlabelled requests (${method})` }, 'the routes were written');
  }

  getTraceHash(id: string): string | undefined {
    return this.traces.get(id)?.hash;
  }

  get traceCount(): number {
    return this.traces.size;
  }

  /**
   * Start an import. Traces are checked against what the project holds (same id and content:
   * duplicate, skipped; same id, other content: conflict, rejected) and written to a new immutable
   * traces file on commit. Holds the write lock until commit/abort.
   */
  beginImport(source: string): TraceImport {
    this.lock.acquire(`import ${source}`);
    return this.startImport(source);
  }

  /** Like beginImport, waiting for another writer without blocking the event loop (the web host, the app). */
  async beginImportAsync(source: string, options?: AcquireOptions): Promise<TraceImport> {
    await this.lock.acquireAsync(`import ${source}`, options);
    return this.startImport(source);
  }

  private startImport(source: string): TraceImport {
    try {
      this.refresh();
      return new TraceImport(this, source);
    } catch (e) {
      this.lock.release();
      throw e;
    }
  }

  /** Convenience: import an in-memory list of traces in one go. */
  addTraces(traces: Iterable<Trace>, source: string): ImportSummary {
    const imp = this.beginImport(source);
    try {
      for (const t of traces) imp.add(t);
      return imp.commit();
    } catch (e) {
      imp.abort();
      throw e;
    }
  }

  /** @internal used by TraceImport */
  knownTrace(id: string): { hash: string } | undefined {
    return this.traces.get(id);
  }

  /** @internal used by TraceImport */
  nextTraceFile(): string {
    const dir = join(this.dir, 'traces');
    mkdirSync(dir, { recursive: true });
    const n =
      Math.max(
        0,
        ...readdirSync(dir)
          .filter((f) => /^\d{4,}\.jsonl$/.test(f))
          .map((f) => parseInt(f, 10)),
      ) + 1;
    return join(dir, `${String(n).padStart(4, '0')}.jsonl`);
  }

  private loadNewTraceFiles(): void {
    const dir = join(this.dir, 'traces');
    if (!existsSync(dir)) return;
    const files = readdirSync(dir)
      .filter((f) => /^\d{4,}\.jsonl$/.test(f))
      .sort();
    for (const f of files) {
      if (this.traceFiles.has(f)) continue;
      this.traceFiles.add(f);
      const path = join(dir, f);
      const add = (id: string, entry: TraceEntry): void => {
        if (!this.traces.has(id)) this.traces.set(id, entry);
      };
      const indexed = readSidecar(path, f, this.tools);
      if (indexed) for (const [id, entry] of indexed) add(id, entry);
      else for (const w of scanTracesFile(path, f, this.tools, add)) this.warnings.push({ file: path, message: w });
    }
  }

  // ---------------------------------------------------------------- scores

  /** All score records (optionally of one run), in the order they were appended. */
  listScores(run?: string): StoredScore[] {
    return run === undefined ? this.scores : this.scores.filter((s) => s.run === run);
  }

  /** Runs present, most recently appended last. */
  listRuns(): string[] {
    const order = new Map<string, number>();
    this.scores.forEach((s, i) => order.set(s.run, i));
    return [...order.entries()].sort((a, b) => a[1] - b[1]).map(([r]) => r);
  }

  hasScore(key: string): boolean {
    return this.scoreKeys.has(key);
  }

  /**
   * Append score records; a record whose key is already stored (by this or another process) is skipped.
   * Returns the records actually appended.
   */
  appendScores(records: readonly StoredScore[]): StoredScore[] {
    return this.lock.run('append scores', () => {
      this.loadNewScores();
      const fresh: StoredScore[] = [];
      const seen = new Set<string>();
      for (const r of records) {
        if (this.scoreKeys.has(r.key) || seen.has(r.key)) continue;
        seen.add(r.key);
        fresh.push(r);
      }
      if (fresh.length === 0) return fresh;
      const path = join(this.dir, 'scores.jsonl');
      const torn = appendLines(
        path,
        fresh.map((r) => JSON.stringify(r)),
      );
      if (torn > 0) this.warnings.push({ file: path, message: `removed an incomplete last line (${torn} bytes) left by an interrupted write` });
      this.loadNewScores();
      return fresh;
    });
  }

  /**
   * Like appendScores, waiting for another writer without blocking the event loop (a job's worker keeps
   * talking to its parent meanwhile: `options.onWait` says who holds the lock, up to the wait limit).
   */
  async appendScoresAsync(records: readonly StoredScore[], options?: AcquireOptions): Promise<StoredScore[]> {
    return this.lock.runAsync('append scores', async () => this.appendScores(records), options);
  }

  private loadNewScores(): void {
    const path = join(this.dir, 'scores.jsonl');
    if (!existsSync(path)) return;
    if (statSync(path).size < this.scoresOffset) {
      // The torn tail we had not read yet was cut by a writer; nothing we parsed was lost.
      this.scoresOffset = Math.min(this.scoresOffset, statSync(path).size);
    }
    const res = readJsonlFrom(
      path,
      this.scoresOffset,
      (v) => {
        const r = StoredScoreSchema.safeParse(v);
        return r.success ? r.data : `invalid score record (${r.error.issues[0]?.path.join('.')}: ${r.error.issues[0]?.message})`;
      },
      this.scoresLine,
    );
    for (const w of res.warnings) {
      if (!this.warnings.some((x) => x.file === path && x.message === w)) this.warnings.push({ file: path, message: w });
    }
    for (const r of res.records) {
      if (this.scoreKeys.has(r.key)) continue;
      this.scoreKeys.add(r.key);
      this.scores.push(r);
    }
    this.scoresOffset = res.offset;
    this.scoresLine += res.lines;
  }

  // ---------------------------------------------------------------- spaces

  readSpaces(task: string): TaskSpaces {
    const raw = readProjectFile(
      join(this.dir, 'spaces', taskFileName(task)),
      TaskSpacesSchema,
      `or delete it to start the space history of task "${task}" anew`,
    );
    return raw ?? { task, versions: [] };
  }

  listSpaces(): TaskSpaces[] {
    const dir = join(this.dir, 'spaces');
    if (!existsSync(dir)) return [];
    return readdirSync(dir)
      .filter((f) => f.endsWith('.json'))
      .map((f) => readProjectFile(join(dir, f), TaskSpacesSchema, "or delete it to start that task's space history anew"))
      .filter((s): s is TaskSpaces => s !== undefined);
  }

  /** Record a new accepted version of a task's space (numbered after the latest). */
  acceptSpace(version: Omit<SpaceVersion, 'version' | 'createdAt'> & { createdAt?: string }): SpaceVersion {
    return this.lock.run('accept space', () => {
      const current = this.readSpaces(version.task);
      const next: SpaceVersion = {
        ...version,
        version: current.versions.length,
        createdAt: version.createdAt ?? this.now().toISOString(),
      };
      writeJsonAtomic(join(this.dir, 'spaces', taskFileName(version.task)), { task: version.task, versions: [...current.versions, next] });
      // Committed: from here on the approval stands (failing now would invite a second, duplicate one).
      this.logActivityAfterCommit(
        {
          kind: 'space',
          message: `space v${next.version} of ${version.task} accepted (${plural(next.tools.length, 'tool')})`,
          data: { task: version.task, version: next.version },
        },
        `space v${next.version} of ${version.task} was accepted`,
      );
      return next;
    });
  }

  // ---------------------------------------------------------------- sweeps

  readSweep(task: string): SweepResult | undefined {
    return readProjectFile(join(this.dir, 'sweeps', taskFileName(task)), SweepResultSchema, `or delete it and run the budget sweep of task "${task}" again`);
  }

  listSweeps(): SweepResult[] {
    const dir = join(this.dir, 'sweeps');
    if (!existsSync(dir)) return [];
    return readdirSync(dir)
      .filter((f) => f.endsWith('.json'))
      .map((f) => readProjectFile(join(dir, f), SweepResultSchema, "or delete it and run that task's budget sweep again"))
      .filter((s): s is SweepResult => s !== undefined);
  }

  writeSweep(result: SweepResult): void {
    this.lock.run('write sweep', () => writeJsonAtomic(join(this.dir, 'sweeps', taskFileName(result.task)), SweepResultSchema.parse(result)));
  }

  // ---------------------------------------------------------------- the demo record

  readDemo(): DemoRecord | undefined {
    return readProjectFile(
      join(this.dir, 'demo.json'),
      DemoRecordSchema,
      "or delete it (the demo's results stay in the sweeps; only its provenance and registry-growth figures are lost)",
    );
  }

  writeDemo(record: DemoRecord): void {
    this.lock.run('write demo record', () => writeJsonAtomic(join(this.dir, 'demo.json'), DemoRecordSchema.parse(record)));
  }

  // ---------------------------------------------------------------- faithfulness checks

  readFaithfulness(task: string): TaskFaithfulness {
    const raw = readProjectFile(
      join(this.dir, 'faithfulness', taskFileName(task)),
      TaskFaithfulnessSchema,
      `or delete it and run the faithfulness check of task "${task}" again`,
    );
    return raw ?? { task, checks: [] };
  }

  /** Record a check of one run; K values measured before for the same run and not now are kept. */
  writeFaithfulness(task: string, check: FaithfulnessCheck): TaskFaithfulness {
    return this.lock.run('write faithfulness check', () => {
      const next = TaskFaithfulnessSchema.parse(mergeFaithfulness(this.readFaithfulness(task), check));
      writeJsonAtomic(join(this.dir, 'faithfulness', taskFileName(task)), next);
      return next;
    });
  }

  // ---------------------------------------------------------------- continual updates

  readUpdates(task: string): TaskUpdates | undefined {
    return readProjectFile(
      join(this.dir, 'updates', taskFileName(task)),
      TaskUpdatesSchema,
      `or delete it: \`lots update\` folds the task's batches again from its scores`,
    );
  }

  listUpdates(): TaskUpdates[] {
    const dir = join(this.dir, 'updates');
    if (!existsSync(dir)) return [];
    return readdirSync(dir)
      .filter((f) => f.endsWith('.json'))
      .map((f) => readProjectFile(join(dir, f), TaskUpdatesSchema, "or delete it: `lots update` folds the task's batches again from its scores"))
      .filter((u): u is TaskUpdates => u !== undefined);
  }

  writeUpdates(updates: TaskUpdates): void {
    this.lock.run('write updates', () => writeJsonAtomic(join(this.dir, 'updates', taskFileName(updates.task)), TaskUpdatesSchema.parse(updates)));
  }

  readStream(): StreamRecord | undefined {
    return readProjectFile(join(this.dir, 'stream.json'), StreamRecordSchema, 'or delete it and run `lots bench stream` again');
  }

  writeStream(record: StreamRecord): void {
    this.lock.run('write stream record', () => writeJsonAtomic(join(this.dir, 'stream.json'), StreamRecordSchema.parse(record)));
  }

  /** Where an import's traces came from (its NNNN.meta.json), for labelling batches. */
  importSource(file: string): string | undefined {
    const meta = readProjectFile(
      join(this.dir, 'traces', file.replace(/\.jsonl$/, '.meta.json')),
      ImportMetaSchema,
      "or delete it (only the import's source name is lost)",
    );
    return meta?.source;
  }

  // ---------------------------------------------------------------- jobs

  listJobs(): JobState[] {
    const dir = join(this.dir, 'jobs');
    if (!existsSync(dir)) return [];
    const jobs: JobState[] = [];
    for (const f of readdirSync(dir).filter((x) => x.endsWith('.json'))) {
      try {
        jobs.push(JobStateSchema.parse(JSON.parse(readFileSync(join(dir, f), 'utf8'))));
      } catch (e) {
        this.warnings.push({ file: join(dir, f), message: `unreadable job state (${(e as Error).message}); ignored` });
      }
    }
    return jobs.sort((a, b) => a.createdAt.localeCompare(b.createdAt));
  }

  readJob(id: string): JobState | undefined {
    return readProjectFile(
      join(this.dir, 'jobs', `${id}.json`),
      JobStateSchema,
      'or delete it (the job cannot be resumed then; the scores it stored are kept)',
    );
  }

  /** Job state files are owned by one job runner at a time; an atomic rewrite needs no project lock. */
  writeJob(job: JobState): void {
    writeJsonAtomic(join(this.dir, 'jobs', `${job.id}.json`), JobStateSchema.parse(job));
  }

  // ---------------------------------------------------------------- activity

  logActivity(entry: Omit<ActivityEntry, 'at'>): void {
    appendLines(join(this.dir, 'activity.jsonl'), [JSON.stringify({ at: this.now().toISOString(), ...entry })]);
  }

  /** Logs what a committed write did; failing to log it is a warning (the write stands), not an error. */
  logActivityAfterCommit(entry: Omit<ActivityEntry, 'at'>, what: string): void {
    try {
      this.logActivity(entry);
    } catch (e) {
      this.warnings.push({ file: join(this.dir, 'activity.jsonl'), message: `${what}, but could not be logged: ${(e as Error).message}` });
    }
  }

  /** The latest `limit` entries, newest first (the log is streamed: only they are kept). */
  listActivity(limit = 50): ActivityEntry[] {
    const latest: ActivityEntry[] = [];
    scanJsonlRecords<ActivityEntry>(
      join(this.dir, 'activity.jsonl'),
      0,
      (v) => v as ActivityEntry,
      (entry) => {
        latest.push(entry);
        if (latest.length > limit) latest.shift();
      },
    );
    return latest.reverse();
  }

  /** @internal called by TraceImport.commit once its file (and its meta file) is in place */
  finishImport(path: string, added: ReadonlyMap<string, TraceEntry>): void {
    this.traceFiles.add(basename(path));
    for (const [id, entry] of added) if (!this.traces.has(id)) this.traces.set(id, entry);
  }
}

/** Why a trace was rejected: its id is held with other content (the one wording of the CLI, the API and the import summary). */
export function traceIdConflictMessage(id: string): string {
  return `trace id "${id}" is already in the project with different content; give it another id or import into another project`;
}

/** An import in progress; holds the project's write lock until commit() or abort(). Traces stream to a
 * temporary file (memory stays bounded by the id index), renamed into place on commit. */
export class TraceImport {
  private readonly pending = new Map<string, TraceEntry>();
  private readonly summary: ImportSummary;
  private readonly path: string;
  private readonly tmp: string;
  private fd: number;
  private buffer: string[] = [];
  private bufferBytes = 0;
  /** Bytes of the traces file so far (written and buffered): where the next line starts. */
  private size = 0;
  private done = false;

  constructor(
    private readonly store: ProjectStore,
    source: string,
  ) {
    this.summary = { file: '', source, added: 0, duplicates: 0, conflicts: [] };
    this.path = store.nextTraceFile();
    this.tmp = uniqueTempName(this.path);
    this.fd = openSync(this.tmp, 'w');
  }

  /** Returns what happened to the trace: added, a duplicate of one already held, or a conflicting id. */
  add(trace: Trace): 'added' | 'duplicate' | 'conflict' {
    const hash = traceHash(trace);
    const known = this.store.knownTrace(trace.id)?.hash ?? this.pending.get(trace.id)?.hash;
    if (known !== undefined) {
      if (known === hash) {
        this.summary.duplicates++;
        return 'duplicate';
      }
      this.summary.conflicts.push({ id: trace.id, message: traceIdConflictMessage(trace.id) });
      return 'conflict';
    }
    const line = JSON.stringify(trace);
    const bytes = Buffer.byteLength(line);
    this.pending.set(trace.id, entryOf(trace, basename(this.path), this.size, bytes, this.store.tools, hash));
    this.size += bytes + 1;
    this.buffer.push(line, '\n');
    this.bufferBytes += line.length + 1;
    if (this.bufferBytes > 1 << 20) this.flush();
    this.summary.added++;
    return 'added';
  }

  get counts(): Readonly<ImportSummary> {
    return this.summary;
  }

  /**
   * Everything that can fail comes before the commit point — the rename of the traces file into place:
   * the last bytes written (all of them), fsynced, and the meta file written. A failure before it
   * removes the temp file and commits nothing; the activity log entry after it is best effort (the
   * import is complete; a failure to log it is a warning).
   */
  commit(): ImportSummary {
    if (this.done) return this.summary;
    this.done = true;
    try {
      let meta: string | undefined;
      let sidecar: string | undefined;
      try {
        this.flush();
        fsyncSync(this.fd);
        closeSync(this.fd);
        this.fd = -1;
        if (this.summary.added > 0) {
          meta = this.path.replace(/\.jsonl$/, '.meta.json');
          writeJsonAtomic(meta, {
            source: this.summary.source,
            importedAt: this.store.now().toISOString(),
            added: this.summary.added,
            duplicates: this.summary.duplicates,
            conflicts: this.summary.conflicts.length,
          });
          sidecar = sidecarPath(this.path);
          writeFileAtomic(sidecar, linesOf(sidecarLines(basename(this.path), this.size, [...this.pending], this.store.tools)));
          renameSync(this.tmp, this.path);
          fsyncDir(dirname(this.path));
        }
      } catch (e) {
        this.closeQuietly();
        rmSync(this.tmp, { force: true });
        if (meta) rmSync(meta, { force: true });
        if (sidecar) rmSync(sidecar, { force: true });
        throw writeError(this.tmp, e);
      }
      if (this.summary.added > 0) {
        this.summary.file = this.path;
        this.store.finishImport(this.path, this.pending);
        this.store.logActivityAfterCommit(
          {
            kind: 'import',
            message: `imported ${this.summary.added} traces from ${basename(this.summary.source)}`,
            data: { source: this.summary.source, added: this.summary.added, duplicates: this.summary.duplicates, conflicts: this.summary.conflicts.length },
          },
          'the import was committed',
        );
      } else rmSync(this.tmp, { force: true });
      return this.summary;
    } finally {
      this.store.lock.release();
    }
  }

  abort(): void {
    if (this.done) return;
    this.done = true;
    try {
      this.closeQuietly();
      rmSync(this.tmp, { force: true });
    } finally {
      this.store.lock.release();
    }
  }

  private closeQuietly(): void {
    if (this.fd < 0) return;
    try {
      closeSync(this.fd);
    } catch {
      /* closed already */
    }
    this.fd = -1;
  }

  /** Writes the buffered traces, all of them (or throws: the caller aborts, nothing is committed). */
  private flush(): void {
    if (this.buffer.length === 0) return;
    try {
      writeAll(this.fd, this.buffer.join(''));
    } catch (e) {
      throw writeError(this.tmp, e);
    }
    this.buffer = [];
    this.bufferBytes = 0;
  }
}

function* linesOf(lines: Iterable<string>): Generator<string> {
  for (const line of lines) yield line + '\n';
}
