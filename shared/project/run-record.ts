// The header of a stored run's record (demo.json, stream.json): which model made it, by which command,
// on which machine and when, so a result in a project always says how it was made and how to make it
// again. Each record is this header and its own fields.
import { z } from 'zod';

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
});
export type RunHeader = z.infer<typeof RunHeaderSchema>;
