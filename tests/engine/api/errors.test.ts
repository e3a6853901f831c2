// Expected errors against bugs, over both transports and in the CLI: an ExpectedError (or an fs error of the
// listed codes) keeps its code and message; anything else — a TypeError, Node's own ERR_INVALID_ARG_TYPE —
// is logged with its stack where the engine runs and reported as INTERNAL.
import { mkdtempSync, readFileSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { ApiError, errorCode, ExpectedError, isExpected, isFsError, rebuildError, serializeError, type Envelope } from '../../../shared/api/errors';
import { methodChannel } from '../../../shared/api/channels';
import type { ApiMethods } from '../../../shared/api/contract';
import { StudioService } from '../../../electron/engine/api';
import { startWebHost, type WebHost } from '../../../electron/host/host';
import { registerApiHandlers, type IpcMainLike } from '../../../electron/ipc/handlers';
import type { Command } from '../../../electron/cli/command';
import { commandIndex } from '../../../electron/cli/commands/index';
import { runCli } from '../../cli/io';

/** A real Node programming error: a wrong argument type (code ERR_INVALID_ARG_TYPE). */
function nodeBug(): Error {
  try {
    Buffer.alloc('eight' as unknown as number);
  } catch (e) {
    return e as Error;
  }
  throw new Error('Buffer.alloc accepted a string');
}

function missingFile(): Error {
  try {
    readFileSync(join(tmpdir(), 'lots-no-such-file-here', 'x.json'));
  } catch (e) {
    return e as Error;
  }
  throw new Error('read a file that is not there');
}

const bug = nodeBug();
const typeBug = new TypeError("Cannot read properties of undefined (reading 'tools')");
const locked = new ExpectedError('PROJECT_LOCKED', 'another process is writing to the project; wait for it to finish');
const enoent = missingFile();

/** A service whose methods throw the errors above. */
function throwingService(): ApiMethods {
  const service = new StudioService({ transport: 'web', configDir: mkdtempSync(join(tmpdir(), 'lots-config-')) });
  return Object.assign(service, {
    getAppInfo: async () => {
      throw bug;
    },
    listRecentProjects: async () => {
      throw typeBug;
    },
    openProject: async () => {
      throw locked;
    },
    listJobs: async () => {
      throw enoent;
    },
  });
}

let logged: { mock: { calls: unknown[][] }; mockRestore: () => void; mockClear: () => void };
afterEach(() => logged?.mockRestore());
const spyLog = () => (logged = vi.spyOn(console, 'error').mockImplementation(() => undefined));

/** Every error console.error was given. */
const loggedErrors = (): Error[] => logged.mock.calls.flat().filter((a): a is Error => a instanceof Error);
const hasStack = (e: Error) => /\n\s+at /.test(e.stack ?? '');

describe('classification', () => {
  it('takes ExpectedErrors and the listed fs codes as expected, and nothing else that has a code', () => {
    expect((bug as { code?: string }).code).toBe('ERR_INVALID_ARG_TYPE');
    expect(isExpected(bug)).toBe(false);
    expect(isExpected(typeBug)).toBe(false);
    expect(isExpected(Object.assign(new Error('x'), { code: 'SOMETHING_ELSE' }))).toBe(false);
    expect(isExpected(locked)).toBe(true);
    expect(isExpected(enoent)).toBe(true);
    expect(serializeError(bug)).toMatchObject({ code: 'INTERNAL' });
    expect(serializeError(enoent)).toMatchObject({ code: 'ENOENT' });
  });

  it("reads a Node error's code in one place: errorCode(), and isFsError() for the listed fs codes, one of them if named", () => {
    expect(errorCode(enoent)).toBe('ENOENT');
    expect(errorCode(bug)).toBe('ERR_INVALID_ARG_TYPE');
    expect(errorCode(typeBug)).toBeUndefined();
    expect(errorCode({ code: 'ENOENT' })).toBeUndefined(); // not an Error
    expect(isFsError(enoent)).toBe(true);
    expect(isFsError(enoent, 'ENOENT')).toBe(true);
    expect(isFsError(enoent, 'EEXIST')).toBe(false);
    expect(isFsError(bug)).toBe(false);
  });

  it('rebuilds an error over a transport with a code of the union; a code outside it arrives as INTERNAL, named in the message', () => {
    const known = rebuildError(serializeError(locked));
    expect(known).toBeInstanceOf(ApiError);
    expect(known.code).toBe('PROJECT_LOCKED');
    const unknown = rebuildError({ name: 'ExpectedError', code: 'FROM_A_NEWER_ENGINE', message: 'something new' });
    expect(unknown.code).toBe('INTERNAL');
    expect(unknown.message).toBe('something new (code FROM_A_NEWER_ENGINE)');
  });
});

describe('over the web host', () => {
  let host: WebHost;
  let cookie: string;

  beforeAll(async () => {
    const service = throwingService();
    host = await startWebHost({ service, events: (service as StudioService).events, staticDir: mkdtempSync(join(tmpdir(), 'lots-static-')) });
    const r = await post(host, `/?token=${encodeURIComponent(host.token)}`, undefined, 'GET');
    cookie = String(r.headers['set-cookie']).split(';')[0]!;
  });
  afterAll(async () => {
    await host?.close();
  });

  function post(h: WebHost, path: string, cookieHeader?: string, method = 'POST', body = 'null'): Promise<{ headers: Record<string, unknown>; body: string }> {
    return new Promise((resolve, reject) => {
      const headers: Record<string, string> = { Host: `127.0.0.1:${h.port}`, 'Content-Type': 'application/json' };
      if (cookieHeader) headers.Cookie = cookieHeader;
      const req = request({ host: '127.0.0.1', port: h.port, path, method, headers }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => resolve({ headers: res.headers, body: Buffer.concat(chunks).toString('utf8') }));
      });
      req.on('error', reject);
      if (method === 'POST') req.write(body);
      req.end();
    });
  }

  const call = async (method: string, input: unknown = null) =>
    JSON.parse((await post(host, `/api/call/${method}`, cookie, 'POST', JSON.stringify(input))).body) as Envelope<unknown>;

  it('reports a Node programming error as INTERNAL and logs it with its stack', async () => {
    spyLog();
    const reply = await call('getAppInfo');
    expect(reply).toEqual({ ok: false, error: { name: 'TypeError', code: 'INTERNAL', message: bug.message } });
    expect(loggedErrors()).toContain(bug);
    expect(hasStack(bug)).toBe(true);
  });

  it('reports a TypeError as INTERNAL and logs it with its stack', async () => {
    spyLog();
    const reply = await call('listRecentProjects');
    expect(reply).toMatchObject({ ok: false, error: { code: 'INTERNAL', message: typeBug.message } });
    expect(loggedErrors()).toContain(typeBug);
    expect(hasStack(typeBug)).toBe(true);
  });

  it("keeps an ExpectedError's code and message, and an fs error's code, without logging them", async () => {
    spyLog();
    expect(await call('openProject', { dir: '/somewhere' })).toEqual({
      ok: false,
      error: { name: 'ExpectedError', code: 'PROJECT_LOCKED', message: locked.message },
    });
    expect(await call('listJobs')).toMatchObject({ ok: false, error: { code: 'ENOENT', message: enoent.message } });
    expect(logged.mock.calls).toEqual([]);
  });
});

describe('over IPC', () => {
  const handlers = new Map<string, (event: unknown, ...args: unknown[]) => Promise<unknown>>();
  const ipc: IpcMainLike = {
    handle: (channel, listener) => void handlers.set(channel, listener as never),
    removeHandler: (channel) => void handlers.delete(channel),
  };
  registerApiHandlers(ipc, throwingService(), () => true);
  const call = (method: string, input: unknown = null) => handlers.get(methodChannel(method))!({}, input) as Promise<Envelope<unknown>>;

  it('reports a bug as INTERNAL with its stack logged, and an expected error with its code', async () => {
    spyLog();
    expect(await call('getAppInfo')).toMatchObject({ ok: false, error: { code: 'INTERNAL' } });
    expect(loggedErrors()).toContain(bug);
    logged.mockClear();
    expect(await call('openProject', { dir: '/somewhere' })).toMatchObject({ ok: false, error: { code: 'PROJECT_LOCKED', message: locked.message } });
    expect(logged.mock.calls).toEqual([]);
  });
});

describe('in the CLI', () => {
  const entry = commandIndex.find((e) => e.name === 'route')!;
  const load = entry.load;
  afterEach(() => {
    entry.load = load;
  });
  const failing = (error: Error): Command => ({ name: 'route', summary: '', usage: 'lots route', flags: {}, run: async () => Promise.reject(error) });

  it('prints a bug with its stack', async () => {
    entry.load = async () => failing(bug);
    const r = await runCli(['route']);
    expect(r.code).toBe(2);
    expect(r.err).toContain('lots route: unexpected error (a bug; please report it):');
    expect(r.err).toContain(bug.stack);
    expect(hasStack(bug)).toBe(true);
  });

  it('prints an expected error as `lots <command>: message`', async () => {
    entry.load = async () => failing(locked);
    const r = await runCli(['route']);
    expect(r.code).toBe(2);
    expect(r.err).toBe(`lots route: ${locked.message}\n`);
    entry.load = async () => failing(enoent);
    expect((await runCli(['route'])).err).toBe(`lots route: ${enoent.message}\n`);
  });
});
