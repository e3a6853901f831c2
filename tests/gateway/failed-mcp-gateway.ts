// A real MCP gateway (over HTTP) whose upstream, the tiny MCP server, crashes on a call and then refuses
// to start again: the gateway gives up after one restart and stops with a failure. For the tests that
// read what a failed gateway leaves in the project (the Gateway view's data, the view in Chromium).
import { writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { expect } from 'vitest';
import { McpGateway } from '../../electron/engine/gateway/mcp-gateway';
import { ProjectStore } from '../../electron/engine/store';

/** Runs it for task `files` of `project` until it failed and is closed; `work` holds the refusal marker. */
export async function runFailedMcpGateway(project: string, work: string): Promise<void> {
  const marker = join(work, 'refuse');
  const gateway = await McpGateway.start({
    store: ProjectStore.open(project),
    task: 'files',
    upstream: { command: process.execPath, args: ['--import', 'tsx', resolve('tests/gateway/tiny-mcp-server.ts'), '--refuse-if', marker] },
    restartAttempts: 1,
    log: () => undefined,
  });
  try {
    const client = new Client({ name: 'test-agent', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(await gateway.serveHttp())));
    writeFileSync(marker, '');
    await expect(client.callTool({ name: 'crash', arguments: {} })).rejects.toThrow(/exited with code 3/);
    await gateway.ended;
    await client.close();
  } finally {
    await gateway.close();
  }
}
