// The store's gateway status records (gateways/<session>.json): what each `lots gateway` process serves
// and counts, for the Studio's Gateway view (shared/project/gateways.ts). Each file has one writer, its
// gateway, which rewrites it atomically on a heartbeat, so like the job state files it needs no project
// lock; a reader never sees a torn record. One record type of the project store.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { GatewayStatusSchema, type GatewayStatus } from '../../../shared/project/gateways';
import { isFsError } from '../../../shared/api/errors';
import { describeZodError } from '../../../shared/trace/validate';
import { writeJsonAtomic } from './atomic';
import type { StoreContext } from './project-file';

export class GatewayRecords {
  constructor(private readonly ctx: Pick<StoreContext, 'dir' | 'warnings'>) {}

  /** Every record, newest start first; one that cannot be read is a warning, never an error (it is not the project's data). */
  listGateways(): GatewayStatus[] {
    const dir = join(this.ctx.dir, 'gateways');
    if (!existsSync(dir)) return [];
    const records: GatewayStatus[] = [];
    for (const f of readdirSync(dir)
      .filter((x) => x.endsWith('.json'))
      .sort()) {
      const path = join(dir, f);
      try {
        const parsed = GatewayStatusSchema.safeParse(JSON.parse(readFileSync(path, 'utf8')));
        if (parsed.success) records.push(parsed.data);
        else this.warn(path, describeZodError(parsed.error));
      } catch (e) {
        // Gone between the listing and the read (removed by hand): nothing to say.
        if (!isFsError(e, 'ENOENT')) this.warn(path, e instanceof Error ? e.message : String(e));
      }
    }
    return records.sort((a, b) => b.startedAt.localeCompare(a.startedAt) || a.id.localeCompare(b.id));
  }

  /** Rewritten by its own gateway only (atomic; no lock needed). */
  writeGateway(record: GatewayStatus): void {
    writeJsonAtomic(join(this.ctx.dir, 'gateways', `${record.id}.json`), GatewayStatusSchema.parse(record));
  }

  private warn(file: string, why: string): void {
    if (this.ctx.warnings.some((w) => w.file === file)) return;
    this.ctx.warnings.push({ file, message: `unreadable gateway status (${why}); ignored` });
  }
}
