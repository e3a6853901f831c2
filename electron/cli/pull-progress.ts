// Progress of a model pull on stderr (lots models pull, and lots demo when the default model is missing).
import type { CliIO } from './command';
import { formatBytes } from '../engine/llama/model-file';
import type { PullProgress } from '../engine/models/pull';

/** Progress on stderr: a bar redrawn in place on a terminal, else a line per phase and every 10%. */
export function pullProgressLine(io: CliIO): { update: (p: PullProgress) => void; end: () => void } {
  const tty = Boolean(process.stderr.isTTY);
  let lastMessage = '';
  let lastTenth = -1;
  let drawn = false;
  return {
    update(p) {
      const fraction = p.total ? Math.min(1, p.done / p.total) : null;
      const amount = p.total ? `${formatBytes(p.done)} / ${formatBytes(p.total)}` : p.done ? formatBytes(p.done) : '';
      if (tty) {
        const bar = fraction === null ? '' : `[${'#'.repeat(Math.round(fraction * 24)).padEnd(24, '.')}] `;
        process.stderr.write(`\r${bar}${p.message}${amount ? ` ${amount}` : ''}\x1b[K`);
        drawn = true;
        return;
      }
      const tenth = fraction === null ? -1 : Math.floor(fraction * 10);
      if (p.message !== lastMessage || tenth > lastTenth) {
        if (p.message !== lastMessage) lastTenth = -1;
        if (p.message === lastMessage && tenth <= lastTenth) return;
        lastMessage = p.message;
        lastTenth = tenth;
        io.err(`${p.message}${amount ? ` ${amount}` : ''}`);
      }
    },
    end() {
      if (drawn) process.stderr.write('\n');
      drawn = false;
    },
  };
}
