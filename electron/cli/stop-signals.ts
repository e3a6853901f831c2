// How a serving command (`lots ui`, `lots gateway …`) stops on Ctrl+C or SIGTERM.
//
// Ctrl+C can deliver SIGINT twice: to the terminal's process group, and again from npm when the command
// runs under `npm run web` / `npx lots`; a sender on a busy machine can also be descheduled between two
// signals. So the handlers stay installed until the process is gone, and the command ends with
// `process.exit` after its cleanup: returning instead lets Node close its signal watchers while it tears
// down (the handler reverts to the default action), and a repeat arriving in that window killed the
// process by the signal, after "stopped." was printed (seen in CI: exit status SIGINT instead of 0).
// A signal more than a second after the first one forces the exit at once (code 130).

export interface StopSignals {
  /** Resolves on the first SIGINT or SIGTERM (or when `ended` resolves). */
  readonly stopped: Promise<void>;
  /**
   * Ends the process with `code`, the handlers still installed (a late repeat is ignored). For the
   * normal end of a serving command, after its cleanup and last words.
   */
  exit(code: number): never;
  /** Removes the handlers: for a command that does not end the process itself (a failure it throws). */
  release(): void;
}

export interface StopSignalOptions {
  /** Called before the forced exit (130) on a signal more than `forceAfterMs` after the first. */
  onForce: () => void;
  /** Serving ended by itself (e.g. a stdio client went away): stop as if signalled. */
  ended?: Promise<void>;
  forceAfterMs?: number;
  /** Injected in tests; `process.exit` otherwise. */
  exitProcess?: (code: number) => never;
}

const SIGNALS = ['SIGINT', 'SIGTERM'] as const;

export function onStopSignals(options: StopSignalOptions): StopSignals {
  const forceAfterMs = options.forceAfterMs ?? 1000;
  const exitProcess = options.exitProcess ?? ((code: number): never => process.exit(code));
  let first = 0;
  let resolveStopped = (): void => undefined;
  const stopped = new Promise<void>((resolve) => (resolveStopped = resolve));
  const handler = (): void => {
    if (!first) {
      first = Date.now();
      resolveStopped();
    } else if (Date.now() - first > forceAfterMs) {
      options.onForce();
      exitProcess(130);
    }
  };
  for (const signal of SIGNALS) process.on(signal, handler);
  void options.ended?.then(() => {
    first ||= Date.now();
    resolveStopped();
  });
  return {
    stopped,
    exit: (code) => exitProcess(code),
    release: () => {
      for (const signal of SIGNALS) process.off(signal, handler);
    },
  };
}
