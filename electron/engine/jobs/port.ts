// The worker's side of a WorkerChannel: the same few calls whether the process was started by
// child_process.fork (messages over process.send / 'message') or by Electron's utilityProcess
// (process.parentPort, where a message arrives as `event.data`).

/** The part of Electron's ParentPort a worker uses (typed here: the engine never imports electron). */
interface ParentPortLike {
  on(event: 'message', listener: (event: { data: unknown }) => void): unknown;
  postMessage(message: unknown): void;
}

/** The part of `process` a worker uses; a fake in tests. */
export interface WorkerProcess {
  parentPort?: ParentPortLike;
  send?: (message: unknown, sendHandle?: undefined, options?: undefined, callback?: (error: Error | null) => void) => boolean;
  connected?: boolean;
  on(event: 'message', listener: (message: unknown) => void): unknown;
  on(event: 'disconnect', listener: () => void): unknown;
  exit(code?: number): never;
}

export interface WorkerPort {
  readonly kind: 'fork' | 'utility';
  /** Dropped once the parent is gone. */
  send(message: unknown): void;
  onMessage(listener: (message: unknown) => void): void;
  /** The parent went away (fork: the IPC channel closed). A utility process is ended by Electron itself. */
  onParentGone(listener: () => void): void;
  /** Exit once the messages sent so far have left this process. */
  exit(code?: number): Promise<never>;
}

/**
 * A utility process hands postMessage to Chromium's IPC without a completion callback; this pause
 * before exiting lets the last message (the job's outcome) leave first.
 */
const UTILITY_EXIT_GRACE_MS = 100;

/** The channel to whoever started this process, or null when it was started by hand (no parent). */
export function workerPort(proc: WorkerProcess = process): WorkerPort | null {
  const parentPort = proc.parentPort;
  if (parentPort) {
    // A utility process may end once its script has run even while parentPort listens (seen in
    // packaged apps, electron#42978); the worker always ends through exit(), so hold it open until then.
    const keepAlive = setInterval(() => undefined, 1 << 30);
    return {
      kind: 'utility',
      send: (message) => parentPort.postMessage(message),
      onMessage: (listener) => {
        parentPort.on('message', (event) => listener(event.data));
      },
      onParentGone: () => undefined,
      exit: async (code = 0) => {
        await new Promise((resolve) => setTimeout(resolve, UTILITY_EXIT_GRACE_MS));
        clearInterval(keepAlive);
        return proc.exit(code);
      },
    };
  }
  const send = proc.send?.bind(proc);
  if (!send) return null;
  // process.send is asynchronous: exiting before its callbacks have run loses the last messages.
  const pending = new Set<Promise<void>>();
  return {
    kind: 'fork',
    send: (message) => {
      if (!proc.connected) return;
      const sent = new Promise<void>((done) => {
        send(message, undefined, undefined, () => done());
      });
      pending.add(sent);
      void sent.then(() => pending.delete(sent));
    },
    onMessage: (listener) => {
      proc.on('message', listener);
    },
    onParentGone: (listener) => {
      proc.on('disconnect', listener);
    },
    exit: async (code = 0) => {
      await Promise.all(pending);
      return proc.exit(code);
    },
  };
}

/** For a worker's entry: its port, or a message and exit code 2 when it was run by hand. */
export function requireWorkerPort(what: string): WorkerPort {
  const port = workerPort();
  if (port) return port;
  process.stderr.write(`lots: ${what} is a worker process: the Studio or \`lots\` starts it and sends it its job; it does nothing on its own.\n`);
  process.exit(2);
}
