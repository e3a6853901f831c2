// The store's scores: scores.jsonl, append-only StoredScore records unique by key (nothing is computed
// twice), read incrementally from where the last read stopped. One record type of the project store.
import { existsSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { StoredScoreSchema, type StoredScore } from '../../../shared/project/scores';
import { appendLines } from './atomic';
import { readJsonlFrom } from './jsonl';
import type { StoreContext } from './project-file';

export class ScoreRecords {
  private scores: StoredScore[] = [];
  private scoreKeys = new Set<string>();
  private scoresOffset = 0;
  private scoresLine = 1;

  constructor(private readonly ctx: StoreContext) {}

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
    return this.ctx.lock.run('append scores', () => {
      this.loadNew();
      const fresh: StoredScore[] = [];
      const seen = new Set<string>();
      for (const r of records) {
        if (this.scoreKeys.has(r.key) || seen.has(r.key)) continue;
        seen.add(r.key);
        fresh.push(r);
      }
      if (fresh.length === 0) return fresh;
      const path = join(this.ctx.dir, 'scores.jsonl');
      const torn = appendLines(
        path,
        fresh.map((r) => JSON.stringify(r)),
      );
      if (torn > 0) this.ctx.warnings.push({ file: path, message: `removed an incomplete last line (${torn} bytes) left by an interrupted write` });
      this.loadNew();
      return fresh;
    });
  }

  /** Read the records other processes appended since the last read. */
  loadNew(): void {
    const path = join(this.ctx.dir, 'scores.jsonl');
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
      if (!this.ctx.warnings.some((x) => x.file === path && x.message === w)) this.ctx.warnings.push({ file: path, message: w });
    }
    for (const r of res.records) {
      if (this.scoreKeys.has(r.key)) continue;
      this.scoreKeys.add(r.key);
      this.scores.push(r);
    }
    this.scoresOffset = res.offset;
    this.scoresLine += res.lines;
  }
}
