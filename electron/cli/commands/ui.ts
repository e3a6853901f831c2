// `lots ui`: serve the Studio's UI and API to a browser from this machine (e.g. a GPU box).
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { flagInt, flagList, flagString, type ParsedArgs } from '../args';
import { EXIT_OK, type CliIO, type Command } from '../command';
import { registerCommands } from '../registry';
import { ProjectStore } from '../../engine/store';
import { StudioService, defaultConfigDir } from '../../engine/service';
import { startWebHost, type WebHost } from '../../host/host';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const RENDERER_DIR = fileURLToPath(new URL('../../../dist/renderer/', import.meta.url));

export const uiCommand: Command = {
  name: 'ui',
  summary: 'serve the Studio UI to a browser (local web host with an access token)',
  usage: 'lots ui [--project <dir>] [--port N] [--bind 127.0.0.1] [--allow-host name]',
  flags: {
    project: { type: 'string', description: 'open this project folder on start' },
    port: { type: 'string', description: 'port to listen on (0: any free port)', default: '0' },
    bind: { type: 'string', description: 'address to bind; anything but 127.0.0.1 exposes the engine on your network (the token still guards it)', default: '127.0.0.1' },
    'allow-host': { type: 'string', multi: true, description: 'extra Host names to answer to (e.g. this machine\'s name when --bind 0.0.0.0)' },
  },
  details: [
    'Prints a URL that carries this session\'s access token; open it in a browser. Requests without the token,',
    'or addressed to another Host / from another Origin, are refused. Stop with Ctrl+C.',
    '',
    'On a remote GPU box: run `lots ui --project <dir>` there and forward the port over SSH',
    '(ssh -L 8731:127.0.0.1:8731 box), then open the printed URL locally.',
  ].join('\n'),
  async run(args: ParsedArgs, io: CliIO): Promise<number> {
    const host = await startUi(args, io);
    await new Promise<void>((resolve) => {
      const stop = () => resolve();
      process.once('SIGINT', stop);
      process.once('SIGTERM', stop);
    });
    await host.close();
    return EXIT_OK;
  },
};

export async function startUi(args: ParsedArgs, io: CliIO): Promise<WebHost> {
  await ensureRendererBuilt(io);
  const service = new StudioService({ transport: 'web', configDir: defaultConfigDir() });
  const project = flagString(args, 'project');
  if (project) service.setProject(ProjectStore.openOrCreate(project));
  const host = await startWebHost({
    service,
    events: service.events,
    staticDir: RENDERER_DIR,
    bind: flagString(args, 'bind'),
    port: flagInt(args, 'port', { min: 0 }),
    allowHosts: flagList(args, 'allow-host'),
  });
  io.out(`LOTS Studio is served at ${host.url}`);
  io.out(`Open: ${host.openUrl}`);
  return host;
}

async function ensureRendererBuilt(io: CliIO): Promise<void> {
  if (existsSync(`${RENDERER_DIR}index.html`)) return;
  io.err('lots ui: building the UI once (vite build)…');
  const { build } = await import('vite');
  await build({ root: ROOT, configFile: `${ROOT}vite.config.ts`, logLevel: 'warn' });
}

registerCommands([uiCommand]);
