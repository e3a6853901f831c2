// The store's traces: the immutable trace files of a project's imports (traces/NNNN.jsonl), what is kept
// of each trace without reading it (trace-index.ts), the routes of unlabelled traces (routes.json), and
// reading a trace back from its line. One record type of the project store (project-store.ts).
import { closeSync, existsSync, mkdirSync, openSync, readdirSync, statSync } from 'node:fs';
import { basename, join } from 'node:path';
import { z } from 'zod';
import { ownRecord, ownValue } from '../../../shared/trace/own-record';
import type { ToolDef, Trace } from '../../../shared/trace/schema';
import { writeJsonAtomic } from './atomic';
import { readLineAt } from './jsonl';
import { parseTrace, readSidecar, scanTracesFile, ToolTable, type TraceEntry } from './trace-index';
import { damagedFile, readProjectFile, type StoreContext } from './project-file';
import { errorCode } from '../../../shared/api/errors';

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

const RoutesFileSchema = z.object({ routes: ownRecord(z.string(), z.string()).optional() });

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

export class TraceRecords {
  /** id → what is kept of the trace (see trace-index.ts); the trace itself is read from its file when asked for. */
  private traces = new Map<string, TraceEntry>();
  /** The tool definitions of every menu, interned (used by TraceImport). */
  readonly tools = new ToolTable();
  private traceFiles = new Set<string>();
  private routesCache?: { stamp: number; routes: Record<string, string> };

  constructor(private readonly ctx: StoreContext) {}

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
    const path = join(this.ctx.dir, 'traces', file);
    try {
      return openSync(path, 'r');
    } catch (e) {
      throw damagedFile(path, `it cannot be read (${errorCode(e) ?? (e as Error).message})`, 'or re-import the file it came from into a new project');
    }
  }

  /** One trace from its line; a line that no longer holds it (the file was changed by hand) is a warning. */
  private readTrace(fd: number, id: string, e: TraceEntry): Trace | undefined {
    const path = join(this.ctx.dir, 'traces', e.file);
    let parsed: Trace | string;
    try {
      parsed = parseTrace(JSON.parse(readLineAt(fd, e.start, e.bytes)));
    } catch (err) {
      parsed = (err as Error).message;
    }
    if (typeof parsed === 'string' || parsed.id !== id) {
      const message = `trace "${id}" is no longer where this project recorded it (bytes ${e.start}–${e.start + e.bytes}: ${typeof parsed === 'string' ? parsed : `trace "${parsed.id}"`}); the file was changed after it was imported, left out`;
      if (!this.ctx.warnings.some((w) => w.file === path && w.message === message)) this.ctx.warnings.push({ file: path, message });
      return undefined;
    }
    return parsed;
  }

  /** Task assignments of unlabelled traces (paper D.1); imported files stay untouched. */
  readRoutes(): Record<string, string> {
    const path = join(this.ctx.dir, 'routes.json');
    const stamp = existsSync(path) ? statSync(path).mtimeMs : -1;
    if (this.routesCache?.stamp !== stamp) {
      const raw =
        stamp === -1 ? undefined : readProjectFile(path, RoutesFileSchema, 'or delete it and run `lots route` again to route the unlabelled requests');
      this.routesCache = { stamp, routes: raw?.routes ?? {} };
    }
    return this.routesCache.routes;
  }

  writeRoutes(routes: Record<string, string>, method: string): void {
    this.ctx.lock.run('write routes', () => writeJsonAtomic(join(this.ctx.dir, 'routes.json'), { method, createdAt: this.ctx.now().toISOString(), routes }));
    this.ctx.logActivityAfterCommit(
      { kind: 'route', message: `routed ${Object.keys(routes).length} unlabelled requests (${method})` },
      'the routes were written',
    );
  }

  getTraceHash(id: string): string | undefined {
    return this.traces.get(id)?.hash;
  }

  get traceCount(): number {
    return this.traces.size;
  }

  /** @internal used by TraceImport */
  knownTrace(id: string): { hash: string } | undefined {
    return this.traces.get(id);
  }

  /** @internal used by TraceImport */
  nextTraceFile(): string {
    const dir = join(this.ctx.dir, 'traces');
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

  /** Index the trace files other processes added since the last look. */
  loadNew(): void {
    const dir = join(this.ctx.dir, 'traces');
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
      else for (const w of scanTracesFile(path, f, this.tools, add)) this.ctx.warnings.push({ file: path, message: w });
    }
  }

  /** @internal called by TraceImport.commit once its file (and its meta file) is in place */
  finishImport(path: string, added: ReadonlyMap<string, TraceEntry>): void {
    this.traceFiles.add(basename(path));
    for (const [id, entry] of added) if (!this.traces.has(id)) this.traces.set(id, entry);
  }
}
