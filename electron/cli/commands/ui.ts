// `lots ui`: serve the Studio's UI and API to a browser from this machine (e.g. a GPU box).
import { statSync } from 'node:fs';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { flagInt, flagList, flagString, UsageError, type ParsedArgs } from '../args';
import { EXIT_OK, type CliIO, type Command } from '../command';
import { ensureRendererBuilt, rendererBuildPaths } from '../renderer-build';
import { ProjectStore } from '../../engine/store';
import { StudioService, defaultConfigDir } from '../../engine/api';
import { startWebHost, type WebHost } from '../../host/host';
import { listenFailure } from '../listen-errors';
import { onStopSignals } from '../stop-signals';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));

export const command: Command = {
  name: 'ui',
  summary: 'serve the Studio UI to a browser (local web host with an access token)',
  usage: 'lots ui [--project <dir>] [--root <dir>] [--port N] [--bind 127.0.0.1] [--allow-host name]',
  flags: {
    project: { type: 'string', description: 'open this project folder on start' },
    root: {
      type: 'string',
      description: 'confine every file path the UI may use (projects, imports, exports, models) to this folder, symbolic links resolved',
    },
    port: { type: 'string', description: 'port to listen on (0: any free port)', default: '0' },
    bind: {
      type: 'string',
      description: 'address to bind; anything but 127.0.0.1 exposes the engine on your network (the token still guards it)',
      default: '127.0.0.1',
    },
    'allow-host': { type: 'string', multi: true, description: "extra Host names to answer to (e.g. this machine's name when --bind 0.0.0.0)" },
    'allow-key-env': {
      type: 'string',
      multi: true,
      description: 'an environment variable the UI may send to a scoring server as its API key, besides those named LOTS_SCORING_KEY_* (repeat for several)',
    },
  },
  details: [
    "Prints a URL that carries this session's access token; open it in a browser. Requests without the token,",
    'or addressed to another Host / from another Origin, are refused. Stop with Ctrl+C.',
    '',
    'On a remote GPU box: run `lots ui --root ~/lots --project ~/lots/<project>` there and forward the port',
    'over SSH (ssh -L 8731:127.0.0.1:8731 box), then open the printed URL locally.',
    '',
    'Anyone with the token can read and write files as the user running `lots ui` (open or create projects,',
    'import traces, save exports and reports, load models, anywhere that user can). With --root <dir>, every',
    'path the UI gives is confined to <dir> (relative paths are taken from it; `..` and symbolic links are',
    'resolved, and a path that ends up outside is refused with OUTSIDE_ROOT), and so are the recent projects',
    "and models it lists and the model file of a run a job is started from. LOTS Studio's own folders stay",
    'usable: the models folder (pulled and generated models) and the demo and sample projects it makes.',
    "Uploaded trace files are written to the host's temp folder while they are imported.",
    '',
    'A second, view-only link is printed for an audience: it reads the open project and its Demo view; every',
    'other API method is refused with 403. A scoring server is sent a key only from a variable named',
    'LOTS_SCORING_KEY_* or allowed with --allow-key-env. See docs/security.md.',
  ].join('\n'),
  async run(args: ParsedArgs, io: CliIO): Promise<number> {
    const host = await startUi(args, io);
    const signals = onStopSignals({ onForce: () => io.err('lots ui: stopping now.') });
    await signals.stopped;
    try {
      await host.close();
    } catch (e) {
      signals.release();
      throw e;
    }
    io.err('lots ui: stopped.');
    return signals.exit(EXIT_OK);
  },
};

export async function startUi(args: ParsedArgs, io: CliIO): Promise<WebHost> {
  const root = flagString(args, 'root');
  if (root !== undefined && !isFolder(root)) throw new UsageError(`--root ${root}: no such folder; give an existing folder to confine the Studio's files to`);
  ensureRendererBuilt(ROOT, { log: (line) => io.err(`lots ui: ${line}`) });
  const allowKeyEnv = flagList(args, 'allow-key-env');
  for (const name of allowKeyEnv)
    if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(name))
      throw new UsageError(`--allow-key-env ${name}: give the name of an environment variable (letters, digits, _), not its value`);
  const service = new StudioService({ transport: 'web', configDir: defaultConfigDir(), allowKeyEnv, ...(root !== undefined ? { root } : {}) });
  const project = flagString(args, 'project');
  // The operator's --project obeys --root like a path given in the UI.
  if (project) service.setProject(ProjectStore.openOrCreate(service.paths.confined ? service.paths.resolve(resolve(project), '--project') : project));
  const bind = flagString(args, 'bind') ?? '127.0.0.1';
  const port = flagInt(args, 'port', { min: 0 }) ?? 0;
  let host: WebHost;
  try {
    host = await startWebHost({
      service,
      events: service.events,
      staticDir: rendererBuildPaths(ROOT).outDir,
      bind,
      port,
      allowHosts: flagList(args, 'allow-host'),
    });
  } catch (e) {
    // Nothing may stay running after a failed start (the service's job runtime and watchers included).
    service.dispose();
    throw listenFailure(e, bind, port) ?? e;
  }
  io.out(`LOTS Studio is served at ${host.url}${service.paths.confined ? `; files confined to ${service.paths.root} (--root)` : ''}`);
  io.out(`Open: ${host.openUrl}`);
  io.out(`View only (for an audience: the open project and its Demo view, nothing can be changed): ${host.viewUrl}`);
  return {
    ...host,
    close: async () => {
      await host.close();
      service.dispose();
    },
  };
}

function isFolder(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}
