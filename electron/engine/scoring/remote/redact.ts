// Secrets never leave the scoring clients in text: a server may quote the key it was sent (`invalid key:
// Bearer …`) in an error body, a model name or a build string, and that text reaches `lots score`'s
// output, the job's state file (jobs/score-*.json) and the Studio. Every known secret (the key in use, the
// values of the variables a key may be read from) and anything shaped like a bearer or basic credential
// is replaced by [redacted] before any of it is printed, stored or shown.

/** Environment variables whose names start with this may hold a scoring server's API key (the Studio sends
 * no other variable; `lots ui --allow-key-env NAME` adds one). */
export const SCORING_KEY_PREFIX = 'LOTS_SCORING_KEY_';

export const REDACTED = '[redacted]';

/** Shorter values are not treated as secrets (they would blank out ordinary words and numbers). */
const MIN_SECRET = 6;

/** The secrets to hide from a server's text: `apiKey` and the value of every LOTS_SCORING_KEY_* variable. */
export function knownSecrets(apiKey?: string, env: NodeJS.ProcessEnv = process.env, allowedNames: readonly string[] = []): string[] {
  const values = [apiKey];
  for (const [name, value] of Object.entries(env)) if (name.startsWith(SCORING_KEY_PREFIX) || allowedNames.includes(name)) values.push(value);
  return [...new Set(values.filter((v): v is string => typeof v === 'string' && v.length >= MIN_SECRET))];
}

/** `text` with each secret (as is, URL-encoded and JSON-escaped) and every `Bearer …`/`Basic …` credential replaced. */
export function redactSecrets(text: string, secrets: readonly string[]): string {
  let out = text;
  for (const secret of secrets) {
    for (const form of new Set([secret, encodeURIComponent(secret), JSON.stringify(secret).slice(1, -1)])) {
      if (form.length >= MIN_SECRET) out = out.split(form).join(REDACTED);
    }
  }
  return out.replace(/\b(Bearer|Basic)(\s+|%20)(?!\[redacted\])[^\s"',;]{4,}/gi, `$1$2${REDACTED}`);
}
