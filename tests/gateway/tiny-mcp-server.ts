// A small real MCP server on the official SDK (McpServer over stdio), the upstream of the MCP gateway's
// fault tests: tools that echo, answer N bytes, or end the process (as a crashing server does), a
// prompt, a resource and a resource template. Run as `node --import tsx tests/gateway/tiny-mcp-server.ts`
// [--refuse-if FILE].
// It writes its pid to stderr on start, so a test can tell a restarted upstream from the first one.
import { McpServer, ResourceTemplate } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { z } from 'zod';

import { existsSync } from 'node:fs';

// `--refuse-if FILE`: end at once with code 4 while FILE exists (a server that can no longer start).
const refuseIf = process.argv.indexOf('--refuse-if');
if (refuseIf !== -1 && existsSync(process.argv[refuseIf + 1]!)) {
  process.stderr.write('tiny-mcp: refusing to start\n');
  process.exit(4);
}

const server = new McpServer({ name: 'tiny-mcp', version: '1.0.0' }, { instructions: 'A tiny server for the gateway tests.' });

server.registerTool('echo', { description: 'Echo the text back.', inputSchema: { text: z.string() } }, ({ text }) => ({
  content: [{ type: 'text', text }],
}));
server.registerTool('big', { description: 'Answer this many bytes of text.', inputSchema: { bytes: z.number().int() } }, ({ bytes }) => ({
  content: [{ type: 'text', text: 'x'.repeat(bytes) }],
}));
server.registerTool('crash', { description: 'End the server process with exit code 3, as a crashing server does.' }, () => {
  process.stderr.write('tiny-mcp: crashing on purpose\n');
  process.exit(3);
});
server.registerTool('pid', { description: "This server process's id." }, () => ({ content: [{ type: 'text', text: String(process.pid) }] }));

server.registerPrompt('greet', { description: 'Greet someone.', argsSchema: { name: z.string() } }, ({ name }) => ({
  messages: [{ role: 'user', content: { type: 'text', text: `Say hello to ${name}.` } }],
}));
server.registerResource('readme', 'note://readme', { description: 'The readme note.', mimeType: 'text/plain' }, (uri) => ({
  contents: [{ uri: uri.href, mimeType: 'text/plain', text: 'the readme of the tiny server' }],
}));
server.registerResource('greeting', new ResourceTemplate('greeting://{name}', { list: undefined }), { description: 'A greeting.' }, (uri, { name }) => ({
  contents: [{ uri: uri.href, text: `Hello, ${String(name)}!` }],
}));

process.stderr.write(`tiny-mcp: started, pid ${process.pid}\n`);
await server.connect(new StdioServerTransport());
