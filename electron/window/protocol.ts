// The renderer is served from app://lots/ (a standard, secure custom scheme) instead of file://, with the
// same CSP header as the web host.
import { contentSecurityPolicy } from '../../shared/api/csp';
import { resolveStatic } from '../host/static-files';
import { APP_HOST } from './window-options';

export function appProtocolResponse(rendererDir: string, requestUrl: string): Response {
  const url = new URL(requestUrl);
  if (url.host !== APP_HOST) return new Response('not found', { status: 404 });
  const file = resolveStatic(rendererDir, url.pathname) ?? resolveStatic(rendererDir, '/index.html');
  if (!file) return new Response(`the UI is not built: run \`npm run build\` (looked in ${rendererDir})`, { status: 404 });
  return new Response(new Uint8Array(file.body), {
    status: 200,
    headers: {
      'Content-Type': file.type,
      'Content-Security-Policy': contentSecurityPolicy(),
      'X-Content-Type-Options': 'nosniff',
    },
  });
}
