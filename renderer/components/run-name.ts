// A scoring run as a person reads it (issue 40: no raw run keys on screen): the model's file name, the
// intervention and span, and when its last scores were written, from the project's run list.
import type { RunInfo } from '../../shared/api';
import { fmtTime, runLabel } from '../format';

/** The last path segment of a model path (a GGUF file name), or the text itself. */
export function modelName(model: string): string {
  return model.split(/[\\/]/).pop() || model;
}

/** "qwen2.5-0.5b.gguf · reexecute · answer · 03 Dec 2026, 15:27" for a run key; the key shortened when the project does not list it. */
export function runName(run: string, runs: readonly RunInfo[] | undefined): string {
  const info = runs?.find((r) => r.run === run);
  const label = runLabel(run, info?.model ? modelName(info.model) : undefined);
  return info?.lastAt ? `${label} · ${fmtTime(info.lastAt)}` : label;
}

/** The run whose scores were written last (the project's current way of scoring). */
export function latestRun(runs: readonly RunInfo[] | undefined): RunInfo | undefined {
  return [...(runs ?? [])].filter((r) => !r.run.startsWith('import:')).sort((a, b) => ((a.lastAt ?? '') < (b.lastAt ?? '') ? 1 : -1))[0];
}
