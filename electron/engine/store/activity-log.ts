// The store's activity log (activity.jsonl): append-only lines of what happened (imports, scoring,
// approvals), streamed back newest first. One record type of the project store.
import { join } from 'node:path';
import { appendLines } from './atomic';
import { scanJsonlRecords } from './jsonl';
import type { ActivityEntry, StoreWarning } from './project-file';

export class ActivityLog {
  constructor(private readonly ctx: { readonly dir: string; readonly warnings: StoreWarning[]; readonly now: () => Date }) {}

  logActivity(entry: Omit<ActivityEntry, 'at'>): void {
    appendLines(join(this.ctx.dir, 'activity.jsonl'), [JSON.stringify({ at: this.ctx.now().toISOString(), ...entry })]);
  }

  /** Logs what a committed write did; failing to log it is a warning (the write stands), not an error. */
  logActivityAfterCommit(entry: Omit<ActivityEntry, 'at'>, what: string): void {
    try {
      this.logActivity(entry);
    } catch (e) {
      this.ctx.warnings.push({ file: join(this.ctx.dir, 'activity.jsonl'), message: `${what}, but could not be logged: ${(e as Error).message}` });
    }
  }

  /** The latest `limit` entries, newest first (the log is streamed: only they are kept). */
  listActivity(limit = 50): ActivityEntry[] {
    const latest: ActivityEntry[] = [];
    scanJsonlRecords<ActivityEntry>(
      join(this.ctx.dir, 'activity.jsonl'),
      0,
      (v) => v as ActivityEntry,
      (entry) => {
        latest.push(entry);
        if (latest.length > limit) latest.shift();
      },
    );
    return latest.reverse();
  }
}
