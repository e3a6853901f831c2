// How a serving command stops on signals (electron/cli/stop-signals.ts): the first SIGINT/SIGTERM (or the
// serving's own end) starts the shutdown, a repeat within a second is ignored, a later one forces exit 130,
// and the normal end exits with the handlers still installed, so a late repeat cannot kill the process.
import { afterEach, describe, expect, it } from 'vitest';
import { onStopSignals, type StopSignals } from '../../electron/cli/stop-signals';

class Exited extends Error {
  constructor(readonly code: number) {
    super(`exit ${code}`);
  }
}

let signals: StopSignals | undefined;
afterEach(() => signals?.release());

function setUp(forceAfterMs = 1000, ended?: Promise<void>) {
  const exits: { code: number; sigintListeners: number; sigtermListeners: number }[] = [];
  const forced: string[] = [];
  const before = { SIGINT: process.listenerCount('SIGINT'), SIGTERM: process.listenerCount('SIGTERM') };
  signals = onStopSignals({
    onForce: () => forced.push('forced'),
    forceAfterMs,
    ...(ended ? { ended } : {}),
    exitProcess: (code) => {
      exits.push({ code, sigintListeners: process.listenerCount('SIGINT'), sigtermListeners: process.listenerCount('SIGTERM') });
      throw new Exited(code);
    },
  });
  return { exits, forced, before, signals };
}

async function settled(p: Promise<void>): Promise<boolean> {
  let done = false;
  void p.then(() => (done = true));
  await new Promise((r) => setImmediate(r));
  return done;
}

describe('onStopSignals', () => {
  it('resolves on the first signal, ignores a repeat within the window, and exits with its handlers installed', async () => {
    const { exits, forced, before, signals: s } = setUp();
    expect(await settled(s.stopped)).toBe(false);
    process.emit('SIGINT', 'SIGINT');
    expect(await settled(s.stopped)).toBe(true);
    process.emit('SIGINT', 'SIGINT'); // npm's relayed copy of the same Ctrl+C
    process.emit('SIGTERM', 'SIGTERM');
    expect(exits).toEqual([]);
    expect(forced).toEqual([]);
    expect(() => s.exit(0)).toThrow(Exited);
    expect(exits).toEqual([{ code: 0, sigintListeners: before.SIGINT + 1, sigtermListeners: before.SIGTERM + 1 }]);
  });

  it('forces exit 130 on a signal after the window', async () => {
    const { exits, forced, signals: s } = setUp(20);
    process.emit('SIGTERM', 'SIGTERM');
    await s.stopped;
    await new Promise((r) => setTimeout(r, 40));
    expect(() => process.emit('SIGINT', 'SIGINT')).toThrow(Exited);
    expect(forced).toEqual(['forced']);
    expect(exits.map((e) => e.code)).toEqual([130]);
  });

  it('stops when serving ends by itself; release removes the handlers', async () => {
    let end = (): void => undefined;
    const { before, signals: s } = setUp(1000, new Promise<void>((r) => (end = r)));
    expect(await settled(s.stopped)).toBe(false);
    end();
    expect(await settled(s.stopped)).toBe(true);
    s.release();
    expect(process.listenerCount('SIGINT')).toBe(before.SIGINT);
    expect(process.listenerCount('SIGTERM')).toBe(before.SIGTERM);
  });
});
