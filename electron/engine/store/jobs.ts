// Persistent job state (scoring runs, budget sweeps), so a killed run can be resumed.
import { z } from 'zod';
import type { JobStatus as ApiJobStatus } from '../../../shared/api/types';

/** The API's job statuses but `interrupted`, which is concluded when a state file's process is gone. */
export const JobStatusSchema = z.enum(['queued', 'running', 'paused', 'done', 'failed', 'cancelled']);
export type JobStatus = Exclude<ApiJobStatus, 'interrupted'>;
// Compile-time check that the schema lists exactly those statuses.
const SAME_STATUSES: [JobStatus, z.infer<typeof JobStatusSchema>] extends [z.infer<typeof JobStatusSchema>, JobStatus] ? true : never = true;
void SAME_STATUSES;

export const JobStateSchema = z.object({
  id: z.string().min(1),
  kind: z.enum(['score', 'sweep', 'serve', 'demo', 'faithfulness']),
  status: JobStatusSchema,
  createdAt: z.string(),
  updatedAt: z.string(),
  /** What the job does (model path, intervention, span, task, …): enough to resume it. */
  options: z.record(z.string(), z.unknown()),
  progress: z.object({
    done: z.number().nonnegative(),
    total: z.number().nonnegative(),
    tokensPerSecond: z.number().nonnegative().optional(),
    etaSeconds: z.number().nonnegative().optional(),
    message: z.string().optional(),
  }),
  /** Expected failure: a code and what to do. */
  error: z.object({ code: z.string(), message: z.string() }).optional(),
  pid: z.number().int().optional(),
});
export type JobState = z.infer<typeof JobStateSchema>;
