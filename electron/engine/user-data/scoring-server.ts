// The scoring server(s) the Studio's score jobs can use (the Models view's "Scoring server" card), kept per
// user in the config folder beside the recent projects: where servers run — URLs, the name of the variable
// holding an API key — is this user's setup, not a project's data (a project copied to another machine
// or shared with a colleague would carry URLs that mean nothing there), and every score row names the
// served model in its run key, so a project keeps what it was scored with anyway. The API key itself is
// never written: only the name of the environment variable that holds it.
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';
import type { ScoringServerSettings } from '../../../shared/api/model-types';
import { SCORING_SERVER_BACKENDS } from '../../../shared/scoring/backends';
import { writeJsonAtomic } from '../store/atomic';
import { ExpectedError, invalid } from '../../../shared/api/errors';
import { SCORING_KEY_PREFIX } from '../scoring/remote/redact';
import { normalizeEndpoint, type RemoteScoringSpec } from '../scoring/remote/client';

const FileSchema = z
  .object({
    backend: z.enum(SCORING_SERVER_BACKENDS),
    endpoints: z.array(z.string().min(1)).min(1),
    apiKeyEnv: z.string().min(1).optional(),
    servedModel: z.string().min(1).optional(),
  })
  .strict();

export const SCORING_SERVER_FILE = 'scoring-server.json';

export class ScoringServerSettingsFile {
  readonly file: string;

  constructor(configDir: string) {
    this.file = join(configDir, SCORING_SERVER_FILE);
  }

  /** The saved settings; null when none are (or the file is damaged: it is rewritten by the next Check). */
  read(): ScoringServerSettings | null {
    if (!existsSync(this.file)) return null;
    try {
      const parsed = FileSchema.safeParse(JSON.parse(readFileSync(this.file, 'utf8')));
      return parsed.success ? parsed.data : null;
    } catch {
      return null;
    }
  }

  save(settings: ScoringServerSettings): void {
    writeJsonAtomic(this.file, settings);
  }

  forget(): void {
    rmSync(this.file, { force: true });
  }
}

/**
 * The variable a scoring server's API key may be read from, in the Studio: one named LOTS_SCORING_KEY_*,
 * or one the operator allowed (`lots ui --allow-key-env NAME`). Anyone who can call the API chooses the
 * endpoint, so any other variable (a cloud key, DATABASE_URL, …) would be sent to a URL of their choice.
 */
export function checkKeyEnvAllowed(name: string, allowed: readonly string[] = []): void {
  if (name.startsWith(SCORING_KEY_PREFIX) && name.length > SCORING_KEY_PREFIX.length) return;
  if (allowed.includes(name)) return;
  throw new ExpectedError(
    'FORBIDDEN',
    `the API key variable ${name} may not be sent to a scoring server: name it ${SCORING_KEY_PREFIX}<something> (e.g. ${SCORING_KEY_PREFIX}${name}) where the Studio is started, or start \`lots ui\` with --allow-key-env ${name}`,
  );
}

/** The API's input as settings: URLs normalized (host:port → http://host:port) and de-duplicated; a URL
 * that is not http(s) is refused, naming it; an API key variable that is not allowed is refused. */
export function scoringServerSettings(
  input: {
    backend: ScoringServerSettings['backend'];
    endpoints: readonly string[];
    apiKeyEnv?: string;
    servedModel?: string;
  },
  allowKeyEnv: readonly string[] = [],
): ScoringServerSettings {
  if (input.apiKeyEnv) checkKeyEnvAllowed(input.apiKeyEnv, allowKeyEnv);
  const endpoints: string[] = [];
  for (const url of input.endpoints) {
    let normalized: string;
    try {
      normalized = normalizeEndpoint(url);
    } catch (e) {
      throw invalid(`"${url}" is not an endpoint URL (${(e as Error).message}); give http://host:port, e.g. http://127.0.0.1:8080`);
    }
    if (!endpoints.includes(normalized)) endpoints.push(normalized);
  }
  return {
    backend: input.backend,
    endpoints,
    ...(input.apiKeyEnv ? { apiKeyEnv: input.apiKeyEnv } : {}),
    ...(input.servedModel ? { servedModel: input.servedModel } : {}),
  };
}

/** The remote part of a score job's spec (jobs/protocol.ts) from the saved settings. */
export function remoteSpecOf(settings: ScoringServerSettings): RemoteScoringSpec {
  return {
    backend: settings.backend,
    endpoints: [...settings.endpoints],
    ...(settings.apiKeyEnv ? { apiKeyEnv: settings.apiKeyEnv } : {}),
    ...(settings.servedModel ? { servedModel: settings.servedModel } : {}),
  };
}
