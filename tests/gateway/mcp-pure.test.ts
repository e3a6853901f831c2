// The MCP gateway's pure parts (shared/gateway/): how its upstream command is shown (never a secret from
// the command line), and the stdio framing that keeps a connection when one message is over the limit.
import { describe, expect, it } from 'vitest';
import { LineFramer, TopLevelScanner } from '../../shared/gateway/jsonrpc-frames';
import { shownCommand } from '../../shared/gateway/shown-command';

describe('shownCommand', () => {
  it("shows the command's base name and one path or package argument", () => {
    expect(shownCommand('npx', ['-y', '@modelcontextprotocol/server-filesystem', '/data'])).toBe('npx @modelcontextprotocol/server-filesystem');
    expect(shownCommand('/usr/local/bin/node', ['/srv/mcp/dist/index.js', '/data'])).toBe('node index.js');
    expect(shownCommand('uvx', ['mcp-server-fetch'])).toBe('uvx mcp-server-fetch');
    expect(shownCommand('C:\\tools\\server.exe', [])).toBe('server.exe');
  });

  it('never shows a NAME=VALUE, a flag value or a word that looks like a key', () => {
    const token = 'ghp_16C7e42F292c6912E7710c838347Ae178B4a';
    expect(shownCommand('env', [`GITHUB_TOKEN=${token}`, 'node', 'server.js'])).toBe('env server.js');
    expect(shownCommand('env', [`GITHUB_TOKEN=${token}`, '/usr/bin/node', '/x/server.js'])).toBe('env server.js');
    expect(shownCommand('wrapper.sh', ['--token', 'VALUE'])).toBe('wrapper.sh');
    expect(shownCommand('wrapper.sh', ['--token', 'some/path/like/value', 'x'])).toBe('wrapper.sh x');
    expect(shownCommand('wrapper.sh', ['--token=VALUE', 'server.js'])).toBe('wrapper.sh server.js');
    expect(shownCommand('tool', [token])).toBe('tool');
    expect(shownCommand('tool', ['sk-proj-4f9a8b7c6d5e4f3a2b1c'])).toBe('tool');
    expect(shownCommand('tool', ['https://user:pass@host/x'])).toBe('tool');
    expect(shownCommand('KEY=v', ['server.js'])).toBe('(command) server.js');
    expect(shownCommand('docker', ['run', '-i', '--rm', '-e', 'GITHUB_PERSONAL_ACCESS_TOKEN', 'ghcr.io/github/github-mcp-server'])).toBe('docker run');
  });
});

describe('LineFramer', () => {
  const enc = (s: string) => new TextEncoder().encode(s);

  it('frames lines split anywhere, multi-byte characters included', () => {
    const framer = new LineFramer(1000);
    const text = '{"jsonrpc":"2.0","id":1,"result":{"t":"é✓"}}\n\n{"jsonrpc":"2.0","method":"x"}\r\n';
    const bytes = enc(text);
    const frames = [];
    for (let i = 0; i < bytes.length; i += 3) frames.push(...framer.push(bytes.subarray(i, i + 3)));
    expect(frames).toEqual([
      { kind: 'line', text: '{"jsonrpc":"2.0","id":1,"result":{"t":"é✓"}}' },
      { kind: 'line', text: '{"jsonrpc":"2.0","method":"x"}' },
    ]);
  });

  it('skips a line over the limit without keeping it, reporting its size, top-level id and kind, and goes on', () => {
    const framer = new LineFramer(100);
    const big = JSON.stringify({ result: { content: [{ type: 'text', text: 'a"b\\"}{,' + 'x'.repeat(5000), id: 99 }] }, jsonrpc: '2.0', id: 7 });
    const frames = [];
    const bytes = enc(big + '\n{"id":8}\n');
    for (let i = 0; i < bytes.length; i += 64) {
      frames.push(...framer.push(bytes.subarray(i, i + 64)));
      expect(framer.pending).toBeLessThanOrEqual(bytes.length);
    }
    expect(frames).toEqual([
      { kind: 'oversized', bytes: big.length, id: 7, method: false },
      { kind: 'line', text: '{"id":8}' },
    ]);
  });

  it('reads a string id and a request, and no id from a nested one', () => {
    const scan = (s: string) => {
      const t = new TopLevelScanner();
      t.feed(enc(s));
      return t.result();
    };
    expect(scan('{"jsonrpc":"2.0","id":"abc-1","method":"tools/call","params":{"id":5}}')).toEqual({ id: 'abc-1', method: true });
    expect(scan('{"params":{"id":5,"method":"m"},"jsonrpc":"2.0"}')).toEqual({ method: false });
    expect(scan('{ "id" : 12 , "result" : [1,{"id":3}] }')).toEqual({ id: 12, method: false });
  });
});
