// What the commands that run a real model share: the default model pulled with progress when it is
// missing, and the command line as typed (recorded with the results).
import type { ParsedArgs } from './args';
import type { CliIO } from './command';
import { resolveModelArg } from '../engine/models/model-arg';
import { ExpectedError } from '../../shared/api/errors';
import { modelsDir } from '../engine/models/model-dir';
import { pullModel } from '../engine/models/pull';
import { DEFAULT_MODEL_SOURCE } from '../engine/models/sources';
import { pullProgressLine } from './pull-progress';

/** The model file; the default model is pulled (with progress) when it is not in the models folder. */
export async function ensureModel(model: string, io: CliIO, command: string): Promise<string> {
  try {
    return resolveModelArg(model);
  } catch (e) {
    if (!(e instanceof ExpectedError) || e.code !== 'MODEL_NOT_PULLED' || (model !== 'default' && model !== DEFAULT_MODEL_SOURCE)) throw e;
  }
  io.err(`lots ${command}: the default model (${DEFAULT_MODEL_SOURCE}) is not pulled yet; pulling it (~470 MB) into ${modelsDir()}`);
  const show = pullProgressLine(io);
  try {
    return (await pullModel(DEFAULT_MODEL_SOURCE, { dir: modelsDir(), onProgress: show.update })).path;
  } finally {
    show.end();
  }
}

/** The command as typed, rebuilt from the parsed flags. */
export function commandLine(command: string, args: ParsedArgs): string {
  const parts = ['lots', ...command.split(' ')];
  for (const [name, value] of Object.entries(args.flags)) {
    if (value === undefined || value === false) continue;
    if (value === true) parts.push(`--${name}`);
    else
      for (const v of Array.isArray(value) ? value : [value])
        parts.push(`--${name}`, /^[\w.,/:@=+-]+$/.test(String(v)) ? String(v) : JSON.stringify(String(v)));
  }
  return parts.join(' ');
}
