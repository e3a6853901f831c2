// The store's JSON documents, each rewritten atomically under the write lock: per task its accepted
// spaces (spaces/), budget sweep (sweeps/), faithfulness checks (faithfulness/) and continual updates
// (updates/); per project the demo record (demo.json) and a benchmark stream (stream.json); and the
// source of each import (traces/NNNN.meta.json). One record type of the project store.
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';
import { TaskSpacesSchema, type SpaceAcceptance, type SpaceVersion, type TaskSpaces } from '../../../shared/project/spaces';
import { SweepResultSchema, type SweepResult } from '../../../shared/project/sweeps';
import { mergeFaithfulness, TaskFaithfulnessSchema, type FaithfulnessCheck, type TaskFaithfulness } from '../../../shared/project/faithfulness';
import { DemoRecordSchema, type DemoRecord } from '../../../shared/project/demo';
import { TaskUpdatesSchema, type TaskUpdates } from '../../../shared/project/updates';
import { StreamRecordSchema, type StreamRecord } from '../../../shared/project/streams';
import { plural } from '../../../shared/text';
import { writeJsonAtomic } from './atomic';
import { readProjectFile, taskFileName, type StoreContext } from './project-file';

const ImportMetaSchema = z.object({ source: z.string() }).passthrough();

export class DocumentRecords {
  constructor(private readonly ctx: StoreContext) {}

  readSpaces(task: string): TaskSpaces {
    const raw = readProjectFile(
      join(this.ctx.dir, 'spaces', taskFileName(task)),
      TaskSpacesSchema,
      `or delete it to start the space history of task "${task}" anew`,
    );
    return raw ?? { task, versions: [] };
  }

  listSpaces(): TaskSpaces[] {
    const dir = join(this.ctx.dir, 'spaces');
    if (!existsSync(dir)) return [];
    return readdirSync(dir)
      .filter((f) => f.endsWith('.json'))
      .map((f) => readProjectFile(join(dir, f), TaskSpacesSchema, "or delete it to start that task's space history anew"))
      .filter((s): s is TaskSpaces => s !== undefined);
  }

  /** Record a new accepted version of a task's space (numbered after the latest). */
  acceptSpace(version: SpaceAcceptance): SpaceVersion {
    return this.ctx.lock.run('accept space', () => {
      const current = this.readSpaces(version.task);
      const next: SpaceVersion = {
        ...version,
        deferred: version.deferred ?? [],
        deferEdits: version.deferEdits ?? [],
        version: current.versions.length,
        createdAt: version.createdAt ?? this.ctx.now().toISOString(),
      };
      writeJsonAtomic(join(this.ctx.dir, 'spaces', taskFileName(version.task)), { task: version.task, versions: [...current.versions, next] });
      // Committed: from here on the approval stands (failing now would invite a second, duplicate one).
      this.ctx.logActivityAfterCommit(
        {
          kind: 'space',
          message: `space v${next.version} of ${version.task} accepted (${plural(next.tools.length, 'tool')}${next.deferred.length > 0 ? ` pinned, ${next.deferred.length} deferred` : ''})`,
          data: { task: version.task, version: next.version },
        },
        `space v${next.version} of ${version.task} was accepted`,
      );
      return next;
    });
  }

  private sweepPath(task: string): string {
    return join(this.ctx.dir, 'sweeps', taskFileName(task));
  }

  readSweep(task: string): SweepResult | undefined {
    return readProjectFile(this.sweepPath(task), SweepResultSchema, `or delete it and run the budget sweep of task "${task}" again`);
  }

  listSweeps(): SweepResult[] {
    const dir = join(this.ctx.dir, 'sweeps');
    if (!existsSync(dir)) return [];
    return readdirSync(dir)
      .filter((f) => f.endsWith('.json'))
      .map((f) => readProjectFile(join(dir, f), SweepResultSchema, "or delete it and run that task's budget sweep again"))
      .filter((s): s is SweepResult => s !== undefined);
  }

  writeSweep(result: SweepResult): void {
    this.ctx.lock.run('write sweep', () => writeJsonAtomic(this.sweepPath(result.task), SweepResultSchema.parse(result)));
  }

  /** Read a task's stored sweep and write what `update` makes of it, both under the write lock, so no other
   * process saves the sweep in between (two `lots evaluate` runs on one project each merge in the other's rows). */
  updateSweep(task: string, update: (stored: SweepResult | undefined) => SweepResult): SweepResult {
    return this.ctx.lock.run('update sweep', () => {
      const next = SweepResultSchema.parse(update(this.readSweep(task)));
      writeJsonAtomic(this.sweepPath(next.task), next);
      return next;
    });
  }

  readDemo(): DemoRecord | undefined {
    return readProjectFile(
      join(this.ctx.dir, 'demo.json'),
      DemoRecordSchema,
      "or delete it (the demo's results stay in the sweeps; only its provenance and registry-growth figures are lost)",
    );
  }

  writeDemo(record: DemoRecord): void {
    this.ctx.lock.run('write demo record', () => writeJsonAtomic(join(this.ctx.dir, 'demo.json'), DemoRecordSchema.parse(record)));
  }

  readFaithfulness(task: string): TaskFaithfulness {
    const raw = readProjectFile(
      join(this.ctx.dir, 'faithfulness', taskFileName(task)),
      TaskFaithfulnessSchema,
      `or delete it and run the faithfulness check of task "${task}" again`,
    );
    return raw ?? { task, checks: [] };
  }

  /** Record a check of one run; K values measured before for the same run and not now are kept. */
  writeFaithfulness(task: string, check: FaithfulnessCheck): TaskFaithfulness {
    return this.ctx.lock.run('write faithfulness check', () => {
      const next = TaskFaithfulnessSchema.parse(mergeFaithfulness(this.readFaithfulness(task), check));
      writeJsonAtomic(join(this.ctx.dir, 'faithfulness', taskFileName(task)), next);
      return next;
    });
  }

  readUpdates(task: string): TaskUpdates | undefined {
    return readProjectFile(
      join(this.ctx.dir, 'updates', taskFileName(task)),
      TaskUpdatesSchema,
      `or delete it: \`lots update\` folds the task's batches again from its scores`,
    );
  }

  listUpdates(): TaskUpdates[] {
    const dir = join(this.ctx.dir, 'updates');
    if (!existsSync(dir)) return [];
    return readdirSync(dir)
      .filter((f) => f.endsWith('.json'))
      .map((f) => readProjectFile(join(dir, f), TaskUpdatesSchema, "or delete it: `lots update` folds the task's batches again from its scores"))
      .filter((u): u is TaskUpdates => u !== undefined);
  }

  writeUpdates(updates: TaskUpdates): void {
    this.ctx.lock.run('write updates', () => writeJsonAtomic(join(this.ctx.dir, 'updates', taskFileName(updates.task)), TaskUpdatesSchema.parse(updates)));
  }

  readStream(): StreamRecord | undefined {
    return readProjectFile(join(this.ctx.dir, 'stream.json'), StreamRecordSchema, 'or delete it and run `lots bench stream` again');
  }

  writeStream(record: StreamRecord): void {
    this.ctx.lock.run('write stream record', () => writeJsonAtomic(join(this.ctx.dir, 'stream.json'), StreamRecordSchema.parse(record)));
  }

  /** Where an import's traces came from (its NNNN.meta.json), for labelling batches. */
  importSource(file: string): string | undefined {
    const meta = readProjectFile(
      join(this.ctx.dir, 'traces', file.replace(/\.jsonl$/, '.meta.json')),
      ImportMetaSchema,
      "or delete it (only the import's source name is lost)",
    );
    return meta?.source;
  }
}
