// The header of a stored run's record (demo.json, stream.json): which model made it, by which command,
// on which machine and when, so a result in a project always says how it was made and how to make it
// again. Each record is this header and its own fields.
import { z } from 'zod';
import { listText } from '../text';

/** How the engine's contexts decoded when a run was made: `one-sequence`, one sequence a decode batch (since
 * 2026-12-07). A record without it was served before, when sequences shared decode batches and the CPU decode
 * of the bundled llama.cpp could change some of them (docs/benchmark.md, "Serving"). */
export const DecodeSchema = z.literal('one-sequence');
export type Decode = z.infer<typeof DecodeSchema>;
export const CURRENT_DECODE: Decode = 'one-sequence';

export const RunHeaderSchema = z.object({
  /** The model file's path, its name and its hash. */
  model: z.string(),
  modelName: z.string(),
  modelHash: z.string(),
  /** The command line as typed (or the equivalent one for a run started in the Studio). */
  command: z.string(),
  /** Later sittings' command lines where they differ from the first, in order (a resume that widened the
   * run: more seeds, more baselines), so the record says every command that made what it shows. */
  resumedWith: z.array(z.string()).optional(),
  /** Cores, CPU model, memory, Node version and platform (the engine's machineDescription()). */
  machine: z.string(),
  startedAt: z.string(),
  finishedAt: z.string().optional(),
  /** Wall time in all (a resumed demo adds its runs up). */
  seconds: z.number().nonnegative().optional(),
  /** How the run was served (DecodeSchema): set when the run was made with one sequence a decode batch; a run
   * begun before keeps it absent when resumed (its first sittings' traces stay as served). */
  decode: DecodeSchema.optional(),
});
export type RunHeader = z.infer<typeof RunHeaderSchema>;

/** Where a run (a demo, each of its seeds, a stream) was served before the one-sequence decode, the sentence that
 * says so and what it means for the figures; undefined where every run was served with it. One rule for the Demo
 * view, the History view's stream card, the report and the CLI. */
export function decodeCaveat(r: Pick<RunHeader, 'startedAt' | 'decode'> & { seeds?: readonly { seed: string; decode?: Decode }[] }): string | undefined {
  const seeds = r.seeds && r.seeds.length > 1 ? r.seeds : undefined;
  const before = seeds ? seeds.filter((p) => p.decode === undefined).map((p) => p.seed) : r.decode ? [] : ['.'];
  if (before.length === 0) return undefined;
  const which = !seeds
    ? 'This run was'
    : before.length === seeds.length
      ? 'Every seed of this run was'
      : `${before.length === 1 ? 'Seed' : 'Seeds'} ${listText(before)} of this run ${before.length === 1 ? 'was' : 'were'}`;
  return (
    `${which} served before 2026-12-07, when the requests sharing a decode batch could change one another's replies on a CPU ` +
    `(a bug of the bundled llama.cpp; the engine now decodes one sequence a batch). Served again, some replies come out ` +
    `different, so read these figures as a few points uncertain beyond their intervals; run it again in a new folder ` +
    `to measure them with today's engine (docs/benchmark.md, "Serving").`
  );
}
