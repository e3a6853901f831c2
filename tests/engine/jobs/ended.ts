// Following a job through the JobInfo updates its JobCenter sent: the first one that is no longer running.
import type { JobInfo } from '../../../shared/api/types';

export function ended(updates: readonly JobInfo[], id: string): Promise<JobInfo> {
  return new Promise((done) => {
    const timer = setInterval(() => {
      const last = updates.filter((u) => u.id === id).at(-1);
      if (last && last.status !== 'running') {
        clearInterval(timer);
        done(last);
      }
    }, 20);
  });
}
