// The MCP gateway's two stdio transports, in place of the SDK's: toward the upstream server it starts (a
// child process) and toward the client that started the gateway (this process's stdin and stdout). Both
// frame lines with shared/gateway/jsonrpc-frames.ts, so a message over the limit (--max-message-mib)
// costs that one request, answered with an error, and never the connection (the SDK's reader closes its
// transport instead, and the gateway answered "Not connected" ever after). The upstream transport also
// keeps how its process ended and the tail of its stderr, so the gateway can say why it is gone.
import type { ChildProcess, ChildProcessWithoutNullStreams } from 'node:child_process';
import spawn from 'cross-spawn';
import type { Readable, Writable } from 'node:stream';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { ErrorCode, JSONRPCMessageSchema, type JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { LineFramer, type Frame } from '../../../shared/gateway/jsonrpc-frames';

/** The limit of one message when no flag sets it: the SDK's own (STDIO_DEFAULT_MAX_BUFFER_SIZE). */
export const DEFAULT_MAX_MESSAGE_BYTES = 10 * 1024 * 1024;

/** A JSON-RPC error the gateway answers for a message it did not take: `data.lotsGateway` says why. */
export const OVERSIZED = 'oversized';

const STDERR_TAIL = 2000;

export const mib = (bytes: number): string => `${(bytes / 1024 / 1024).toFixed(1)} MiB`;

/** How the upstream process ended. */
export interface UpstreamExit {
  code: number | null;
  signal: NodeJS.Signals | null;
  /** The last lines it wrote to stderr (at most 2,000 characters). */
  stderrTail: string;
}

export function describeExit(exit: UpstreamExit | undefined): string {
  if (!exit) return 'closed the connection';
  const how = exit.signal ? `was killed by ${exit.signal}` : `exited with code ${exit.code ?? '?'}`;
  const last = exit.stderrTail.trim().split('\n').at(-1)?.trim();
  return last ? `${how} (its last stderr line: ${JSON.stringify(last.slice(0, 300))})` : how;
}

function parse(text: string): JSONRPCMessage | Error {
  try {
    return JSONRPCMessageSchema.parse(JSON.parse(text));
  } catch (e) {
    return new Error(`not a JSON-RPC message (${e instanceof Error ? e.message.split('\n')[0] : String(e)}): ${JSON.stringify(text.slice(0, 120))}`);
  }
}

function write(stream: Writable, message: JSONRPCMessage): Promise<void> {
  return new Promise((resolve, reject) => {
    if (stream.destroyed || stream.writableEnded) {
      reject(new Error('the stream is closed'));
      return;
    }
    if (stream.write(JSON.stringify(message) + '\n')) resolve();
    else stream.once('drain', resolve);
  });
}

export interface UpstreamParams {
  command: string;
  args: string[];
  env: Record<string, string>;
  maxMessageBytes: number;
  /** A line about a message that was not taken. */
  log: (line: string) => void;
  /** Where the upstream's stderr goes on (default: this process's stderr). */
  stderr?: Writable;
}

/** The client side of the upstream MCP server: its process's stdin and stdout. */
export class UpstreamTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;
  private child?: ChildProcess;
  private readonly framer: LineFramer;
  private tail = '';
  /** Set once the process has ended. */
  exit?: UpstreamExit;
  /** When the process started (ms since the epoch). */
  startedAt = 0;

  constructor(private readonly params: UpstreamParams) {
    this.framer = new LineFramer(params.maxMessageBytes);
  }

  get pid(): number | undefined {
    return this.child?.pid;
  }

  start(): Promise<void> {
    return new Promise((resolve, reject) => {
      // cross-spawn, as the SDK's own transport: on Windows it finds `npx` (a .cmd) on PATH and quotes for cmd.exe.
      const child = spawn(this.params.command, [...this.params.args], {
        env: this.params.env,
        stdio: ['pipe', 'pipe', 'pipe'],
        shell: false,
        windowsHide: true,
      }) as ChildProcessWithoutNullStreams; // stdio 'pipe': the three streams exist
      this.child = child;
      child.once('error', (e) => {
        if (this.startedAt === 0) reject(e);
        else this.onerror?.(e);
      });
      child.once('spawn', () => {
        this.startedAt = Date.now();
        resolve();
      });
      child.stdout.on('data', (chunk: Buffer) => {
        for (const frame of this.framer.push(chunk)) this.frame(frame);
      });
      child.stderr.on('data', (chunk: Buffer) => {
        (this.params.stderr ?? process.stderr).write(chunk);
        this.tail = (this.tail + chunk.toString('utf8')).slice(-STDERR_TAIL);
      });
      // Writes after the process died fail here, not as an uncaught error; 'close' says the rest.
      child.stdin.on('error', () => undefined);
      child.once('close', (code, signal) => {
        this.exit = { code, signal, stderrTail: this.tail };
        this.child = undefined;
        this.onclose?.();
      });
    });
  }

  private frame(frame: Frame): void {
    if (frame.kind === 'line') {
      const message = parse(frame.text);
      if (message instanceof Error) this.onerror?.(new Error(`the upstream sent ${message.message}`));
      else this.onmessage?.(message);
      return;
    }
    const limit = this.params.maxMessageBytes;
    if (!frame.method && frame.id !== undefined) {
      // A result too large to take: its request is answered with an error, the connection stays.
      this.params.log(`gateway: the upstream's answer to request ${frame.id} was ${mib(frame.bytes)}, over the limit of ${mib(limit)}: answered an error`);
      this.onmessage?.({
        jsonrpc: '2.0',
        id: frame.id,
        error: {
          code: ErrorCode.InternalError,
          message: `the upstream's answer was ${mib(frame.bytes)} (${frame.bytes} bytes), over this gateway's limit of ${mib(limit)} for one message (lots gateway mcp --max-message-mib); ask for less (a part, a smaller file)`,
          data: { lotsGateway: OVERSIZED, bytes: frame.bytes, limit },
        },
      });
    } else
      this.params.log(
        `gateway: the upstream sent a ${frame.method ? 'request' : 'message'} of ${mib(frame.bytes)}, over the limit of ${mib(limit)} (--max-message-mib): dropped`,
      );
  }

  send(message: JSONRPCMessage): Promise<void> {
    const stdin = this.child?.stdin;
    if (!stdin) return Promise.reject(new Error('the upstream MCP server is not running'));
    return write(stdin, message);
  }

  /** End its stdin, then SIGTERM after 2 s, then SIGKILL after 2 s more (as the SDK's transport does). */
  async close(): Promise<void> {
    const child = this.child;
    if (!child) return;
    const closed = new Promise<void>((done) => child.once('close', () => done()));
    const wait = (ms: number) => Promise.race([closed, new Promise<void>((done) => setTimeout(done, ms).unref())]);
    child.stdin?.end();
    await wait(2000);
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGTERM');
      await wait(2000);
    }
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    await closed;
  }
}

/** The server side over this process's stdin and stdout: one client, the process that started the gateway. */
export class ClientStdioTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;
  private readonly framer: LineFramer;
  private closed = false;
  private readonly onData = (chunk: Buffer): void => {
    for (const frame of this.framer.push(chunk)) this.frame(frame);
  };
  private readonly onEnd = (): void => void this.close();

  constructor(
    private readonly maxMessageBytes: number,
    private readonly log: (line: string) => void,
    private readonly stdin: Readable = process.stdin,
    private readonly stdout: Writable = process.stdout,
  ) {
    this.framer = new LineFramer(maxMessageBytes);
  }

  start(): Promise<void> {
    this.stdin.on('data', this.onData);
    this.stdin.once('end', this.onEnd);
    return Promise.resolve();
  }

  private frame(frame: Frame): void {
    if (frame.kind === 'line') {
      const message = parse(frame.text);
      if (message instanceof Error) {
        this.log(`gateway: the client sent ${message.message}`);
        void this.send({ jsonrpc: '2.0', id: null, error: { code: ErrorCode.ParseError, message: message.message } } as unknown as JSONRPCMessage);
      } else this.onmessage?.(message);
      return;
    }
    const reason = `a ${frame.method ? 'request' : 'message'} of ${mib(frame.bytes)} (${frame.bytes} bytes), over this gateway's limit of ${mib(this.maxMessageBytes)} for one message (--max-message-mib)`;
    if (frame.method && frame.id !== undefined) {
      this.log(`gateway: the client sent ${reason}: answered an error, the session goes on`);
      void this.send({
        jsonrpc: '2.0',
        id: frame.id,
        error: {
          code: ErrorCode.InvalidRequest,
          message: `${reason}; send less`,
          data: { lotsGateway: OVERSIZED, bytes: frame.bytes, limit: this.maxMessageBytes },
        },
      }).catch(() => undefined);
    } else this.log(`gateway: the client sent ${reason}, without an id to answer: dropped`);
  }

  send(message: JSONRPCMessage): Promise<void> {
    if (this.closed) return Promise.reject(new Error('the client is gone'));
    return write(this.stdout, message);
  }

  close(): Promise<void> {
    if (this.closed) return Promise.resolve();
    this.closed = true;
    this.stdin.off('data', this.onData);
    this.stdin.off('end', this.onEnd);
    this.stdin.pause();
    this.onclose?.();
    return Promise.resolve();
  }
}
