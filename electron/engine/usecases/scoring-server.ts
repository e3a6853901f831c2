// Use case "scoring server" (the Models view's Scoring server card): the settings kept per user
// (user-data/scoring-server.ts), each endpoint checked on its own, and the saved settings' last check
// composed from this session's checks of each of their endpoints (a server's state changes, so checks are
// kept for the session only, never written).
import type { ScoringEndpointCheck, ScoringServerCheck, ScoringServerSettings, ScoringServerState } from '../../../shared/api/model-types';
import { ExpectedError } from '../../../shared/api/errors';
import { checkScoringEndpoint, composeScoringCheck } from '../scoring/remote/check';
import { ScoringServerSettingsFile, scoringServerSettings } from '../user-data/scoring-server';

/** The settings as the API takes them (normalized and checked by scoringServerSettings). */
export type ScoringServerInput = Parameters<typeof scoringServerSettings>[0];

/** What an endpoint check depends on besides the endpoint: the same URL checked with another backend, key variable or served name is another check. */
function endpointCheckKey(settings: ScoringServerSettings, endpoint: string): string {
  return JSON.stringify([settings.backend, settings.apiKeyEnv ?? null, settings.servedModel ?? null, endpoint]);
}

export class ScoringServer {
  private readonly file: ScoringServerSettingsFile;
  /** This session's endpoint checks, by what was checked (backend, key variable, served name, endpoint). */
  private readonly endpointChecks = new Map<string, { check: ScoringEndpointCheck; checkedAt: string }>();

  /** `allowKeyEnv`: variables besides LOTS_SCORING_KEY_* whose value may be sent as an API key (`lots ui --allow-key-env`). */
  constructor(
    configDir: string,
    private readonly allowKeyEnv: readonly string[] = [],
  ) {
    this.file = new ScoringServerSettingsFile(configDir);
  }

  /** The saved settings, or null. */
  settings(): ScoringServerSettings | null {
    return this.file.read();
  }

  state(): ScoringServerState {
    const settings = this.file.read();
    return { settings, lastCheck: settings ? this.composedCheck(settings) : null, file: this.file.file };
  }

  save(input: ScoringServerInput): ScoringServerState {
    this.file.save(scoringServerSettings(input, this.allowKeyEnv));
    return this.state();
  }

  /** Contacts the one endpoint given (each endpoint is its own check), with a key only from an allowed
   * variable; what comes back is a status line and the model id, never a body. The saved settings are not
   * changed; their last check is composed from this session's checks of each of their endpoints. */
  async check(input: ScoringServerInput): Promise<ScoringServerState> {
    const settings = scoringServerSettings(input, this.allowKeyEnv);
    if (settings.endpoints.length !== 1)
      throw new ExpectedError(
        'INVALID_INPUT',
        `a check contacts one endpoint, and ${settings.endpoints.length} were given: check each endpoint in turn (the Models view does); the saved settings' last check is composed from them`,
      );
    const checkedAt = new Date().toISOString();
    const endpoint = await checkScoringEndpoint(settings, settings.endpoints[0]!);
    this.endpointChecks.set(endpointCheckKey(settings, endpoint.endpoint), { check: endpoint, checkedAt });
    const saved = this.file.read();
    const ofSaved =
      saved !== null &&
      endpointCheckKey(saved, endpoint.endpoint) === endpointCheckKey(settings, endpoint.endpoint) &&
      saved.endpoints.includes(endpoint.endpoint);
    const composed = ofSaved ? this.composedCheck(saved) : null;
    return { settings: saved, lastCheck: composed ?? composeScoringCheck(settings, [endpoint], process.env, checkedAt), file: this.file.file };
  }

  forget(): ScoringServerState {
    this.file.forget();
    this.endpointChecks.clear();
    return { settings: null, lastCheck: null, file: this.file.file };
  }

  /** The check of these settings from this session's endpoint checks, once every endpoint has one (the earliest time is the check's). */
  private composedCheck(settings: ScoringServerSettings): ScoringServerCheck | null {
    const found = settings.endpoints.map((e) => this.endpointChecks.get(endpointCheckKey(settings, e)));
    if (found.some((f) => f === undefined)) return null;
    const checks = found as { check: ScoringEndpointCheck; checkedAt: string }[];
    const checkedAt = checks.map((c) => c.checkedAt).sort()[0]!;
    return composeScoringCheck(
      settings,
      checks.map((c) => c.check),
      process.env,
      checkedAt,
    );
  }
}
