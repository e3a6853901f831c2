// What a running gateway counts, per task: requests, how they found their task, tools hidden, the prompt
// tokens the hidden tools would have cost (estimated), and what it could not serve. Printed as a summary
// line by the CLI, and written into the gateway's status record (electron/engine/gateway/status.ts) for
// the Studio's Gateway view; pure, so both show the same numbers.

/** How a request found its task: a header, its metadata, the project's router, the gateway's own --task (MCP), or not at all. */
export type TaskSource = 'header' | 'metadata' | 'router' | 'flag' | 'none';

export interface TaskCounts {
  requests: number;
  /** Requests of a task with no approved space (passed through with their menu). */
  noSpace: number;
  toolsHidden: number;
  tokensSaved: number;
  /** Upstream prompt tokens, summed over the requests whose answer reported usage. */
  promptTokens: number;
  failed: number;
  /** The approved space version the task's latest request was served with. */
  spaceVersion?: number;
}

export const NO_TASK = '(no task)';

/** A request the router left without a task (under its threshold), as the status record lists it. */
export interface UnroutedRequest {
  at: string;
  /** Its text, on one line, at most UNROUTED_TEXT characters. */
  text: string;
  /** The nearest task, and the similarity to it that was under the threshold. */
  nearest: string;
  similarity: number;
  threshold: number;
}

/** The latest unrouted requests kept for the status record. */
export const UNROUTED_KEPT = 20;
export const UNROUTED_TEXT = 200;

export class GatewayStats {
  readonly tasks = new Map<string, TaskCounts>();
  readonly bySource: Record<TaskSource, number> = { header: 0, metadata: 0, router: 0, flag: 0, none: 0 };
  /** Requests refused before they reached the upstream (bad JSON, unknown task, too large, no token). */
  refused = 0;
  recorded = 0;
  /** Requests the router left without a task (under its threshold), and the latest of them. */
  unroutedCount = 0;
  readonly unroutedRecent: UnroutedRequest[] = [];
  /** Called after each request counted (the status record is rewritten soon after). */
  onChange?: () => void;

  private of(task: string | undefined): TaskCounts {
    const key = task ?? NO_TASK;
    let c = this.tasks.get(key);
    if (!c) this.tasks.set(key, (c = { requests: 0, noSpace: 0, toolsHidden: 0, tokensSaved: 0, promptTokens: 0, failed: 0 }));
    return c;
  }

  served(e: { task?: string; source: TaskSource; hasSpace: boolean; hidden: number; tokensSaved: number; promptTokens?: number; spaceVersion?: number }): void {
    const c = this.of(e.task);
    c.requests++;
    if (e.spaceVersion !== undefined) c.spaceVersion = e.spaceVersion;
    if (e.task !== undefined && !e.hasSpace) c.noSpace++;
    c.toolsHidden += e.hidden;
    c.tokensSaved += e.tokensSaved;
    c.promptTokens += e.promptTokens ?? 0;
    this.bySource[e.source]++;
    this.onChange?.();
  }

  unrouted(e: Omit<UnroutedRequest, 'at'> & { at?: string }): void {
    this.unroutedCount++;
    // One line (a newline in a request must not forge a log line), and short: the trace keeps the whole text.
    const text = e.text.replace(/[\u0000-\u001f\u007f\u2028\u2029]+/g, ' ').trim();
    this.unroutedRecent.push({
      at: e.at ?? new Date().toISOString(),
      text: text.length > UNROUTED_TEXT ? `${text.slice(0, UNROUTED_TEXT - 1)}…` : text,
      nearest: e.nearest,
      similarity: e.similarity,
      threshold: e.threshold,
    });
    if (this.unroutedRecent.length > UNROUTED_KEPT) this.unroutedRecent.shift();
    this.onChange?.();
  }

  failed(task: string | undefined): void {
    this.of(task).failed++;
    this.onChange?.();
  }

  get requests(): number {
    let n = 0;
    for (const c of this.tasks.values()) n += c.requests;
    return n;
  }

  /** One line per task, most requests first (and one for the unrouted requests, when there are any). */
  summary(): string[] {
    const unrouted = this.unroutedCount
      ? [
          `  unrouted: ${this.unroutedCount} request(s) under the router's threshold, passed through (listed in the status record; \`lots route\` makes tasks of them)`,
        ]
      : [];
    return [...this.tasks]
      .sort((a, b) => b[1].requests - a[1].requests || a[0].localeCompare(b[0]))
      .map(
        ([task, c]) =>
          `  ${task}: ${c.requests} request(s)${c.noSpace ? ` (${c.noSpace} without an approved space, passed through)` : ''}, ` +
          `${c.toolsHidden} tool(s) hidden, ~${c.tokensSaved} prompt tokens saved${c.failed ? `, ${c.failed} failed upstream` : ''}`,
      )
      .concat(unrouted);
  }
}
