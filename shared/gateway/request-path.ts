// The one reading of a request's path that the OpenAI gateway decides on and forwards: percent-escapes
// decoded, `\` read as `/` (as WHATWG URL parsers read it), empty segments (`//`) dropped, `.` and `..`
// resolved, so `/v1/chat/./completions`, `/v1/chat/x/../completions`, `/v1//chat/completions` and
// `/v1/chat/%2e%2e/chat/completions` are all the chat path, decided on and forwarded as such. A `..` above
// the root (which would leave the upstream's base path) and a segment that decodes to a separator or a
// control character are refused: no upstream can read them the same way the gateway did. Pure.
import type { Parsed } from './chat-request';
import { printable } from './printable';

export interface RequestPath {
  /** The segments, decoded. */
  segments: string[];
  /** The canonical path (`/a/b`, re-encoded): what the gateway decides on and forwards. */
  path: string;
  /** The query as the client sent it, without the `?` ('' when none). */
  query: string;
}

/** A segment re-encoded: RFC 3986 pchar characters (`$&+,;=:@`, which encodeURIComponent escapes) left as they are. */
function encodeSegment(s: string): string {
  return encodeURIComponent(s).replace(/%(24|26|2B|2C|3B|3D|3A|40)/g, (m) => decodeURIComponent(m));
}

/** `rawUrl` is the request target as received (`/v1/chat/completions?x=1`). */
export function normalizeRequestPath(rawUrl: string): Parsed<RequestPath> {
  const q = rawUrl.indexOf('?');
  const rawPath = q === -1 ? rawUrl : rawUrl.slice(0, q);
  const query = q === -1 ? '' : rawUrl.slice(q + 1).replace(/#.*$/, '');
  if (!rawPath.startsWith('/')) return { ok: false, message: `the request target must be a path starting with "/", got "${shown(rawPath)}"` };
  const segments: string[] = [];
  for (const raw of rawPath.replace(/#.*$/, '').split(/[/\\]/)) {
    let seg: string;
    try {
      seg = decodeURIComponent(raw);
    } catch {
      return { ok: false, message: `the path has a malformed percent-escape in "${shown(raw)}"` };
    }
    if (/[/\\\u0000-\u001f\u007f]/.test(seg))
      return { ok: false, message: `the path segment "${shown(raw)}" decodes to a separator or a control character; send it unencoded or not at all` };
    if (seg === '' || seg === '.') continue;
    if (seg === '..') {
      if (segments.length === 0) return { ok: false, message: 'the path climbs above the gateway\'s root with ".."; send the path without dot segments' };
      segments.pop();
      continue;
    }
    segments.push(seg);
  }
  return { ok: true, value: { segments, path: '/' + segments.map(encodeSegment).join('/'), query } };
}

const shown = (s: string): string => printable(s, 80);

/**
 * APIs that carry a menu of tools and that the gateway does not serve yet: forwarded, their tools would
 * reach the upstream uncut and unrecorded, so each request is refused (501) with this name.
 */
export function unservedApi(p: RequestPath): string | undefined {
  const s = p.segments.map((x) => x.toLowerCase());
  const rest = s[0] === 'v1' ? s.slice(1) : s;
  if (rest[0] === 'responses') return 'the Responses API (/v1/responses)';
  if (rest[0] === 'messages') return "Anthropic's Messages API (/v1/messages)";
  if (rest[0] === 'assistants') return 'the Assistants API (/v1/assistants)';
  if (rest[0] === 'threads') return 'the Assistants API (/v1/threads)';
  if (rest[0] === 'realtime') return 'the Realtime API (/v1/realtime)';
  return undefined;
}
