// What the commands that run a real model share: the default model pulled with progress when it is
// missing, and the command line as typed (recorded with the results).
import type { ParsedArgs } from './args';
import type { CliIO } from './command';
import { resolveModelArg } from '../engine/models/model-arg';
import { ExpectedError } from '../../shared/api/errors';
import { modelsDir } from '../engine/models/model-dir';
import { pullModel } from '../engine/models/pull';
import { DEFAULT_MODEL_SOURCE, SENTENCE_ENCODER_SOURCE } from '../engine/models/sources';
import { pullProgressLine } from './pull-progress';

/** The models pulled by themselves when a command needs them: the default model and the sentence encoder. */
const AUTO_PULLED: Record<string, { source: string; what: string }> = {
  default: { source: DEFAULT_MODEL_SOURCE, what: `the default model (${DEFAULT_MODEL_SOURCE}, 491 MB)` },
  [DEFAULT_MODEL_SOURCE]: { source: DEFAULT_MODEL_SOURCE, what: `the default model (${DEFAULT_MODEL_SOURCE}, 491 MB)` },
  [SENTENCE_ENCODER_SOURCE]: { source: SENTENCE_ENCODER_SOURCE, what: `the sentence encoder (${SENTENCE_ENCODER_SOURCE}, ~83 MB)` },
};

/** The model file; the default model and the sentence encoder are pulled (with progress) when they are not in the models folder. */
export async function ensureModel(model: string, io: CliIO, command: string): Promise<string> {
  const auto = Object.hasOwn(AUTO_PULLED, model) ? AUTO_PULLED[model] : undefined;
  try {
    return resolveModelArg(model);
  } catch (e) {
    if (!(e instanceof ExpectedError) || e.code !== 'MODEL_NOT_PULLED' || !auto) throw e;
  }
  io.err(`lots ${command}: ${auto.what} is not pulled yet; pulling it into ${modelsDir()}`);
  const show = pullProgressLine(io);
  try {
    return (await pullModel(auto.source, { dir: modelsDir(), onProgress: show.update })).path;
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
