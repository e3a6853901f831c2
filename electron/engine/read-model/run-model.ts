// The model file a task's scoring run was computed with, when it is on this machine: what the Ranking
// view offers for the faithfulness check and what the check's job spec defaults to.
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { parseRunKey } from '../../../shared/project/scores';
import type { TaskData } from './project-index';

/** The model file recorded with the run's scores, when it is on this machine. */
export function checkModelOf(data: TaskData): string | null {
  if (!data.run || !parseRunKey(data.run)) return null;
  const recorded = data.rows.find((r) => r.model !== undefined)?.model;
  return recorded !== undefined && existsSync(recorded) ? resolve(recorded) : null;
}
