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
//   gateways/<id>.json   GatewayStatus: what a running `lots gateway` serves and counts (its heartbeat)
//   activity.jsonl       append-only log of what happened (imports, scoring, approvals)
//   .lock                the write lock (see lock.ts)
// Every write is atomic (temp + rename) or an append of whole lines; readers never need the lock. Every
// JSONL file is read line by line in chunks (jsonl.ts), and traces stay on disk until asked for, so a
// project of any size opens with bounded memory.
//
// ProjectStore is the one facade over the record types, each in its own file: traces (trace-records.ts,
// trace-import.ts), scores (score-records.ts), the JSON documents (document-records.ts), job states
// (job-records.ts), the gateways' status records (gateway-records.ts) and the activity log
// (activity-log.ts). Callers see one object with one lock.
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { basename, join, resolve } from 'node:path';
import type { ToolDef, Trace } from '../../../shared/trace/schema';
import type { StoredScore } from '../../../shared/project/scores';
import type { SpaceAcceptance, SpaceVersion, TaskSpaces } from '../../../shared/project/spaces';
import type { SweepResult } from '../../../shared/project/sweeps';
import type { FaithfulnessCheck, TaskFaithfulness } from '../../../shared/project/faithfulness';
import type { DemoRecord } from '../../../shared/project/demo';
import type { TaskUpdates } from '../../../shared/project/updates';
import type { StreamRecord } from '../../../shared/project/streams';
import type { GatewayStatus } from '../../../shared/project/gateways';
import { writeJsonAtomic } from './atomic';
import type { ToolTable, TraceEntry } from './trace-index';
import { processAlive, ProjectLock, type AcquireOptions } from './lock';
import type { JobState } from './jobs';
import { ExpectedError } from '../../../shared/api/errors';
import { STUDIO_VERSION } from '../version';
import type { ActivityEntry, StoreContext, StoreWarning } from './project-file';
import { TraceRecords, type TraceInfo } from './trace-records';
import { TraceImport } from './trace-import';
import { ScoreRecords } from './score-records';
import { DocumentRecords } from './document-records';
import { JobRecords } from './job-records';
import { GatewayRecords } from './gateway-records';
import { ActivityLog } from './activity-log';

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

export interface ImportSummary {
  file: string;
  source: string;
  added: number;
  duplicates: number;
  conflicts: Array<{ id: string; message: string }>;
}

export interface StoreOptions {
  clock?: () => Date;
}

export class ProjectStore implements StoreContext {
  readonly dir: string;
  readonly info: ProjectInfo;
  readonly lock: ProjectLock;
  /** Problems found while reading (torn lines, bad records); shown to the user, never fatal. */
  readonly warnings: StoreWarning[] = [];

  /** The store's clock (injectable so a generated project can be byte-identical for a seed). */
  readonly now: () => Date;

  private readonly traces: TraceRecords;
  private readonly scores: ScoreRecords;
  private readonly documents: DocumentRecords;
  private readonly jobs: JobRecords;
  private readonly gateways: GatewayRecords;
  private readonly activity: ActivityLog;

  private constructor(dir: string, info: ProjectInfo, options: StoreOptions = {}) {
    this.dir = dir;
    this.info = info;
    this.now = options.clock ?? (() => new Date());
    this.lock = new ProjectLock(join(dir, '.lock'));
    this.activity = new ActivityLog(this);
    this.traces = new TraceRecords(this);
    this.scores = new ScoreRecords(this);
    this.documents = new DocumentRecords(this);
    this.jobs = new JobRecords(this);
    this.gateways = new GatewayRecords(this);
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
    for (const sub of ['', 'traces', 'spaces', 'sweeps', 'faithfulness', 'updates', 'jobs', 'gateways']) {
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
    this.traces.loadNew();
    this.scores.loadNew();
  }

  // ---------------------------------------------------------------- traces

  /**
   * Traces as imported, read from their files; a trace without a task gets its routed task (`lots
   * route`), marked in meta.routed. `where` picks traces by what the store knows of them without
   * reading them (only those are read).
   */
  listTraces(where?: (info: TraceInfo) => boolean): Trace[] {
    return this.traces.listTraces(where);
  }

  /** Like listTraces, one trace at a time (memory holds one trace, whatever the project's size). */
  iterTraces(where?: (info: TraceInfo) => boolean): Generator<Trace> {
    return this.traces.iterTraces(where);
  }

  /** What the store knows of every trace (task, label, menu), in import order, without reading a trace. */
  traceInfos(): Generator<TraceInfo> {
    return this.traces.traceInfos();
  }

  /** Trace id → task (routed tasks included). */
  traceTasks(): Map<string, string | undefined> {
    return this.traces.traceTasks();
  }

  /**
   * The traces `where` picks, in listTraces' order, read one at a time and handed over in batches of at most
   * `traces` traces and about `bytes` bytes of trace lines (a longer trace is a batch of its own): memory
   * holds one batch, whatever the project's size. Each batch is read when it is asked for.
   */
  traceBatches(where: ((info: TraceInfo) => boolean) | undefined, limits: { traces: number; bytes: number }): Generator<Trace[]> {
    return this.traces.traceBatches(where, limits);
  }

  /** Every trace's menu (its tool definitions), in import order, without reading a trace. */
  traceMenus(): Generator<{ tools: ToolDef[] }> {
    return this.traces.traceMenus();
  }

  /** @internal the tool definitions of every menu, interned (used by TraceImport). */
  get tools(): ToolTable {
    return this.traces.tools;
  }

  /** @internal used by TraceImport */
  knownTrace(id: string): { hash: string } | undefined {
    return this.traces.knownTrace(id);
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

  /** A tool definition of a menu (`TraceInfo.menu` holds these indices). */
  toolDef(index: number): ToolDef {
    return this.traces.toolDef(index);
  }

  getTrace(id: string): Trace | undefined {
    return this.traces.getTrace(id);
  }

  /** Task assignments of unlabelled traces (paper D.1); imported files stay untouched. */
  readRoutes(): Record<string, string> {
    return this.traces.readRoutes();
  }

  writeRoutes(routes: Record<string, string>, method: string): void {
    return this.traces.writeRoutes(routes, method);
  }

  getTraceHash(id: string): string | undefined {
    return this.traces.getTraceHash(id);
  }

  get traceCount(): number {
    return this.traces.traceCount;
  }

  /** @internal used by TraceImport */
  nextTraceFile(): string {
    return this.traces.nextTraceFile();
  }

  /** @internal called by TraceImport.commit once its file (and its meta file) is in place */
  finishImport(path: string, added: ReadonlyMap<string, TraceEntry>): void {
    return this.traces.finishImport(path, added);
  }

  // ---------------------------------------------------------------- scores

  /** All score records (optionally of one run), in the order they were appended. */
  listScores(run?: string): StoredScore[] {
    return this.scores.listScores(run);
  }

  /** Runs present, most recently appended last. */
  listRuns(): string[] {
    return this.scores.listRuns();
  }

  hasScore(key: string): boolean {
    return this.scores.hasScore(key);
  }

  /**
   * Append score records; a record whose key is already stored (by this or another process) is skipped.
   * Returns the records actually appended.
   */
  appendScores(records: readonly StoredScore[]): StoredScore[] {
    return this.scores.appendScores(records);
  }

  /**
   * Like appendScores, waiting for another writer without blocking the event loop (a job's worker keeps
   * talking to its parent meanwhile: `options.onWait` says who holds the lock, up to the wait limit).
   */
  async appendScoresAsync(records: readonly StoredScore[], options?: AcquireOptions): Promise<StoredScore[]> {
    return this.lock.runAsync('append scores', async () => this.appendScores(records), options);
  }

  // ---------------------------------------------------------------- spaces, sweeps, checks, updates, records

  readSpaces(task: string): TaskSpaces {
    return this.documents.readSpaces(task);
  }

  listSpaces(): TaskSpaces[] {
    return this.documents.listSpaces();
  }

  /** Record a new accepted version of a task's space (numbered after the latest). */
  acceptSpace(version: SpaceAcceptance): SpaceVersion {
    return this.documents.acceptSpace(version);
  }

  readSweep(task: string): SweepResult | undefined {
    return this.documents.readSweep(task);
  }

  listSweeps(): SweepResult[] {
    return this.documents.listSweeps();
  }

  writeSweep(result: SweepResult): void {
    return this.documents.writeSweep(result);
  }

  /** Read-modify-write of a task's sweep under the write lock (see DocumentRecords.updateSweep). */
  updateSweep(task: string, update: (stored: SweepResult | undefined) => SweepResult): SweepResult {
    return this.documents.updateSweep(task, update);
  }

  readDemo(): DemoRecord | undefined {
    return this.documents.readDemo();
  }

  writeDemo(record: DemoRecord): void {
    return this.documents.writeDemo(record);
  }

  readFaithfulness(task: string): TaskFaithfulness {
    return this.documents.readFaithfulness(task);
  }

  /** Record a check of one run; K values measured before for the same run and not now are kept. */
  writeFaithfulness(task: string, check: FaithfulnessCheck): TaskFaithfulness {
    return this.documents.writeFaithfulness(task, check);
  }

  readUpdates(task: string): TaskUpdates | undefined {
    return this.documents.readUpdates(task);
  }

  listUpdates(): TaskUpdates[] {
    return this.documents.listUpdates();
  }

  writeUpdates(updates: TaskUpdates): void {
    return this.documents.writeUpdates(updates);
  }

  readStream(): StreamRecord | undefined {
    return this.documents.readStream();
  }

  writeStream(record: StreamRecord): void {
    return this.documents.writeStream(record);
  }

  /** Where an import's traces came from (its NNNN.meta.json), for labelling batches. */
  importSource(file: string): string | undefined {
    return this.documents.importSource(file);
  }

  // ---------------------------------------------------------------- jobs

  listJobs(): JobState[] {
    return this.jobs.listJobs();
  }

  readJob(id: string): JobState | undefined {
    return this.jobs.readJob(id);
  }

  /** Job state files are owned by one job runner at a time; an atomic rewrite needs no project lock. */
  writeJob(job: JobState): void {
    return this.jobs.writeJob(job);
  }

  // ---------------------------------------------------------------- gateways

  /** The status records of the gateways that served this project (running or not), newest first. */
  listGateways(): GatewayStatus[] {
    return this.gateways.listGateways();
  }

  /** A gateway's own record, rewritten by it alone (atomic; no project lock, so serving never waits). */
  writeGateway(record: GatewayStatus): void {
    return this.gateways.writeGateway(record);
  }

  // ---------------------------------------------------------------- activity

  logActivity(entry: Omit<ActivityEntry, 'at'>): void {
    return this.activity.logActivity(entry);
  }

  /** Logs what a committed write did; failing to log it is a warning (the write stands), not an error. */
  logActivityAfterCommit(entry: Omit<ActivityEntry, 'at'>, what: string): void {
    return this.activity.logActivityAfterCommit(entry, what);
  }

  /** The latest `limit` entries, newest first (the log is streamed: only they are kept). */
  listActivity(limit = 50): ActivityEntry[] {
    return this.activity.listActivity(limit);
  }
}
