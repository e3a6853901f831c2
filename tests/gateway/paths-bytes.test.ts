// The OpenAI gateway's two pure readings (shared/gateway/request-path.ts, json-splice.ts): one path the
// gateway decides on and forwards, and a body edited only where the cut changes it.
import { describe, expect, it } from 'vitest';
import { duplicateTopKey, editBody } from '../../shared/gateway/json-splice';
import { printable } from '../../shared/gateway/printable';
import { normalizeRequestPath, unservedApi } from '../../shared/gateway/request-path';
import { adapterFor } from '../../electron/engine/gateway/apis/registry';

const path = (raw: string) => {
  const p = normalizeRequestPath(raw);
  if (!p.ok) throw new Error(p.message);
  return p.value;
};
const bytes = (s: string) => new TextEncoder().encode(s);
const text = (b: Uint8Array) => new TextDecoder().decode(b);

describe('normalizeRequestPath', () => {
  it('resolves dot segments (also escaped), empty segments and backslashes, and keeps the query as sent', () => {
    for (const raw of ['/v1/chat/completions', '/v1/./chat/completions', '/v1/x/%2E%2e/chat/completions', '//v1///chat/completions/', '/v1\\chat\\completions'])
      expect(path(raw).path, raw).toBe('/v1/chat/completions');
    expect(path('/v1/models/a%20b?x=1&y=%2F').path).toBe('/v1/models/a%20b');
    expect(path('/v1/models?x=1&y=%2F').query).toBe('x=1&y=%2F');
    // Served paths are matched by the adapters' registry, case folded, with or without v1.
    expect(adapterFor(path('/CHAT/Completions').segments)?.id).toBe('chat');
    expect(adapterFor(path('/v1/chat/./completions/').segments)?.id).toBe('chat');
    expect(adapterFor(path('/v1/chat/completions/x').segments)).toBeUndefined();
  });

  it('refuses climbing above the root, hidden separators, control characters and broken escapes', () => {
    for (const raw of ['/..', '/v1/../../x', '/v1/%2e%2e/%2E%2E/x', '/a%2fb', '/a%5cb', '/a%0ab', '/a%zz', 'v1/chat'])
      expect(normalizeRequestPath(raw).ok, raw).toBe(false);
  });

  it('names the APIs with tools that are not served yet', () => {
    expect(unservedApi(path('/v1/responses'))).toMatch(/Responses API/);
    expect(unservedApi(path('/messages'))).toMatch(/Messages API/);
    expect(unservedApi(path('/v1/threads/t/runs'))).toMatch(/Assistants API/);
    expect(unservedApi(path('/v1/models'))).toBeUndefined();
  });
});

describe('editBody', () => {
  const body =
    '{"a":"}{[\\"]" , "tools" : [ {"n":1} ,{"n":"]"}, {"n":3} ] ,"tool_choice":"auto","metadata":{"lots_task":"fx","u":[1e309]},"z":9223372036854775807}';

  it('keeps chosen tools and removes members, every other byte as it was', () => {
    expect(text(editBody(bytes(body), { drop: new Set(), keepTools: [0, 2] }))).toBe(
      '{"a":"}{[\\"]" , "tools" : [ {"n":1}, {"n":3} ] ,"tool_choice":"auto","metadata":{"lots_task":"fx","u":[1e309]},"z":9223372036854775807}',
    );
    expect(text(editBody(bytes(body), { drop: new Set(['tools', 'tool_choice']), dropMetadataKey: 'lots_task' }))).toBe(
      '{"a":"}{[\\"]","metadata":{"u":[1e309]},"z":9223372036854775807}',
    );
    expect(text(editBody(bytes('{"metadata":{"lots_task":"fx"}}'), { drop: new Set(), dropMetadataKey: 'lots_task' }))).toBe('{}');
    expect(text(editBody(bytes(' {"tools":[{"n":1}]} '), { drop: new Set(), keepTools: [] }))).toBe(' {"tools":[]} ');
  });

  it('finds a key given twice, escaped or not', () => {
    expect(duplicateTopKey(bytes('{"tools":[],"x":{"tools":1},"t\\u006fols":[]}'))).toBe('tools');
    expect(duplicateTopKey(bytes('{"tools":[],"x":{"tools":1}}'))).toBeUndefined();
  });
});

describe('printable', () => {
  it('escapes every control character and line separator, and cuts long values', () => {
    expect(printable('a\nb\r\u001b[31m\u2028')).toBe('a\\x0ab\\x0d\\x1b[31m\\u2028');
    expect(printable('x'.repeat(10), 4)).toBe('xxxx…');
  });
});
