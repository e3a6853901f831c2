// Progress output shared by the bench commands (serve, sweep, evaluate, demo): one line per stage.
import type { CliIO } from './command';

/** Progress of one stage: a redrawn line on a terminal, a few lines otherwise. */
export function progressReporter(io: CliIO, stage: string): (done: number, total: number) => void {
  const reporter = stageReporter(io);
  return (done, total) => {
    reporter.update(stage, done, total);
    if (done >= total) reporter.flush();
  };
}

export function stageReporter(io: CliIO): { update: (stage: string, done: number, total: number) => void; flush: () => void } {
  let open = false;
  let lastStage = '';
  let lastQuarter = -1;
  return {
    update(stage, done, total) {
      if (io.isTTY) {
        process.stdout.write(`\r\x1b[K${stage} ${done}/${total}`);
        open = true;
        return;
      }
      const quarter = total === 0 ? 4 : Math.floor((4 * done) / total);
      if (stage !== lastStage) lastQuarter = -1;
      if (quarter !== lastQuarter) io.err(`${stage} ${done}/${total}`);
      lastStage = stage;
      lastQuarter = quarter;
    },
    flush() {
      if (open) process.stdout.write('\n');
      open = false;
    },
  };
}
