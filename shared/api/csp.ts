// The Content-Security-Policy of the renderer, wherever it is served (Electron's app:// protocol, the
// local web host): scripts and styles only from the app itself, no plugins, no framing, no form posts.
export function contentSecurityPolicy(connect: readonly string[] = []): string {
  return [
    "default-src 'self'",
    "script-src 'self'",
    "style-src 'self'",
    "img-src 'self' data: blob:",
    "font-src 'self'",
    `connect-src 'self'${connect.length ? ' ' + connect.join(' ') : ''}`,
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'none'",
    "frame-ancestors 'none'",
  ].join('; ');
}
