// What the store keeps in memory about each trace — never the trace itself: its content hash, where its
// line is (file, byte range), its task, whether it was answered correctly and its menu (interned tool
// definitions). A project of any size opens with memory proportional to its number of traces; a trace
// is read from its file when it is asked for.
//
// Each traces file `NNNN.jsonl` gets a sidecar `NNNN.index` (JSON lines), written by the import before the
// traces file is committed, so opening a project reads a few bytes per trace instead of parsing every
// trace again. A sidecar that is missing, damaged or not about the file as it is (its size) is ignored
// and the traces file itself is read (streamed), as for projects written before sidecars existed.
import { existsSync, statSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { canonicalJson } from '../../../shared/trace/canonical';
import { correctness } from '../../../shared/trace/correctness';
import { TraceSchema, type ToolDef, type Trace } from '../../../shared/trace/schema';
import { scanJsonl, scanJsonlRecords, type JsonlScanOptions } from './jsonl';

export interface TraceEntry {
  hash: string;
  /** Name of the traces file (in `traces/`). */
  file: string;
  /** Byte range of the trace's line in it (without the line break). */
  start: number;
  bytes: number;
  /** The task as imported (a routed task is applied on top: routes.json). */
  task?: string;
  correct: boolean | null;
  /** The menu, as indices into the store's ToolTable (interned: traces with one menu share the array). */
  tools: readonly number[];
}

export function traceHash(trace: Trace): string {
  return createHash('sha256').update(canonicalJson(trace)).digest('hex').slice(0, 16);
}

/** Tool definitions and menus interned: each distinct definition once, each distinct menu once. */
export class ToolTable {
  private readonly defs: ToolDef[] = [];
  private readonly byKey = new Map<string, number>();
  private readonly menus = new Map<string, readonly number[]>();

  def(i: number): ToolDef {
    return this.defs[i]!;
  }

  intern(def: ToolDef): number {
    const key = canonicalJson(def);
    let i = this.byKey.get(key);
    if (i === undefined) {
      i = this.defs.push(def) - 1;
      this.byKey.set(key, i);
    }
    return i;
  }

  menu(indices: readonly number[]): readonly number[] {
    const key = indices.join(',');
    let menu = this.menus.get(key);
    if (!menu) this.menus.set(key, (menu = Object.freeze([...indices])));
    return menu;
  }

  menuOf(tools: readonly ToolDef[]): readonly number[] {
    return this.menu(tools.map((t) => this.intern(t)));
  }
}

/** The index entry of a trace whose line is at `start` (`bytes` long) in `file`. */
export function entryOf(trace: Trace, file: string, start: number, bytes: number, table: ToolTable, hash = traceHash(trace)): TraceEntry {
  return {
    hash,
    file,
    start,
    bytes,
    ...(trace.task !== undefined ? { task: trace.task } : {}),
    correct: correctness(trace),
    tools: table.menuOf(trace.tools),
  };
}

export function parseTrace(value: unknown): Trace | string {
  const r = TraceSchema.safeParse(value);
  return r.success ? r.data : (r.error.issues[0]?.message ?? 'invalid trace');
}

export function sidecarPath(tracesPath: string): string {
  return tracesPath.replace(/\.jsonl$/, '.index');
}

const SIDECAR_VERSION = 1;

/**
 * The lines of a sidecar: a header naming the traces file's size and trace count, the tool definitions
 * its traces use (numbered in order), then one line per trace.
 */
export function* sidecarLines(file: string, size: number, entries: ReadonlyArray<readonly [string, TraceEntry]>, table: ToolTable): Generator<string> {
  yield JSON.stringify({ v: SIDECAR_VERSION, traces: file, bytes: size, count: entries.length });
  const local = new Map<number, number>();
  for (const [, e] of entries) {
    for (const i of e.tools) {
      if (local.has(i)) continue;
      local.set(i, local.size);
      yield JSON.stringify(['d', table.def(i)]);
    }
  }
  for (const [id, e] of entries) {
    yield JSON.stringify(['t', id, e.hash, e.start, e.bytes, e.task ?? null, e.correct, e.tools.map((i) => local.get(i)!)]);
  }
}

/** Reads a sidecar; undefined when it cannot be trusted for the traces file as it is now. */
export function readSidecar(tracesPath: string, file: string, table: ToolTable): Array<[string, TraceEntry]> | undefined {
  const path = sidecarPath(tracesPath);
  if (!existsSync(path)) return undefined;
  let size: number;
  try {
    size = statSync(tracesPath).size;
  } catch {
    return undefined;
  }
  const entries: Array<[string, TraceEntry]> = [];
  const defs: number[] = [];
  let header: { bytes: number; count: number } | undefined;
  let ok = true;
  const result = scanJsonl(path, 0, (line) => {
    if (!ok) return;
    let v: unknown;
    try {
      v = JSON.parse(line.text);
    } catch {
      ok = false;
      return;
    }
    if (!header) {
      const h = v as { v?: unknown; traces?: unknown; bytes?: unknown; count?: unknown };
      if (h?.v !== SIDECAR_VERSION || h.traces !== file || h.bytes !== size || typeof h.count !== 'number') ok = false;
      else header = { bytes: h.bytes, count: h.count };
      return;
    }
    if (!Array.isArray(v)) {
      ok = false;
    } else if (v[0] === 'd' && v.length === 2 && typeof v[1] === 'object' && v[1] !== null && typeof (v[1] as ToolDef).name === 'string') {
      defs.push(table.intern(v[1] as ToolDef));
    } else if (
      v[0] === 't' &&
      v.length === 8 &&
      typeof v[1] === 'string' &&
      typeof v[2] === 'string' &&
      Number.isInteger(v[3]) &&
      Number.isInteger(v[4]) &&
      (v[5] === null || typeof v[5] === 'string') &&
      (v[6] === null || typeof v[6] === 'boolean') &&
      Array.isArray(v[7]) &&
      (v[7] as unknown[]).every((i) => Number.isInteger(i) && defs[i as number] !== undefined)
    ) {
      const [, id, hash, start, bytes, task, correct, tools] = v as [unknown, string, string, number, number, string | null, boolean | null, number[]];
      if (start < 0 || bytes < 0 || start + bytes > size) ok = false;
      else entries.push([id, { hash, file, start, bytes, ...(task !== null ? { task } : {}), correct, tools: table.menu(tools.map((i) => defs[i]!)) }]);
    } else ok = false;
  });
  if (!ok || !header || result.warnings.length > 0 || entries.length !== header.count) return undefined;
  return entries;
}

/** Index a traces file by reading every trace in it (streamed); warnings are `line N: reason`. */
export function scanTracesFile(
  path: string,
  file: string,
  table: ToolTable,
  onEntry: (id: string, entry: TraceEntry) => void,
  options: JsonlScanOptions = {},
): string[] {
  return scanJsonlRecords(path, 0, parseTrace, (trace, line) => onEntry(trace.id, entryOf(trace, file, line.start, line.bytes, table)), options).warnings;
}
