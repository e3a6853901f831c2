// Secrets never travel into a project: keys that name credentials are dropped from any metadata kept.
import { isObj } from './obj';
import { setOwn } from '../trace/own-record';

const SECRET_KEY =
  /^(authorization|proxy-authorization|x-api-key|api[-_]?key|apikey|openai[-_]api[-_]key|anthropic[-_]api[-_]key|secret|client[-_]secret|password|passwd|access[-_]token|refresh[-_]token|bearer|cookie|set-cookie|private[-_]key)$/i;

export function isSecretKey(key: string): boolean {
  return SECRET_KEY.test(key.trim());
}

/** A copy without secret-named keys (at any depth up to `maxDepth`); the input is not modified. */
export function withoutSecrets(value: unknown, maxDepth = 64): unknown {
  if (maxDepth <= 0) return value;
  if (Array.isArray(value)) return value.map((v) => withoutSecrets(v, maxDepth - 1));
  if (!isObj(value)) return value;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) if (!isSecretKey(k)) setOwn(out, k, withoutSecrets(v, maxDepth - 1));
  return out;
}

export function hasSecrets(value: unknown, maxDepth = 64): boolean {
  if (maxDepth <= 0) return false;
  if (Array.isArray(value)) return value.some((v) => hasSecrets(v, maxDepth - 1));
  if (!isObj(value)) return false;
  for (const [k, v] of Object.entries(value)) if (isSecretKey(k) || hasSecrets(v, maxDepth - 1)) return true;
  return false;
}

const SECRET_TEXT: RegExp[] = [
  /\b(sk|pk|rk)-[A-Za-z0-9_*-]{6,}/g,
  /\bsk-ant-[A-Za-z0-9_*-]{6,}/g,
  /\b(Bearer|Basic)\s+[A-Za-z0-9._~+/=*-]{6,}/gi,
  /\b(api[-_]?key|access[-_]?token|secret|password)(["']?\s*[:=]\s*["']?)[^\s"',;]{4,}/gi,
  /\b(gh[pousr]_|xox[baprs]-|AKIA)[A-Za-z0-9_-]{8,}/g,
];

/** Text with credential-looking tokens masked, for anything that quotes user data in a message. */
export function redactSecrets(text: string): string {
  let out = text;
  for (const re of SECRET_TEXT)
    out = out.replace(re, (m, a: string, b: string) => (typeof b === 'string' && /[:=]/.test(b) ? `${a}${b}[redacted]` : '[redacted]'));
  return out;
}
