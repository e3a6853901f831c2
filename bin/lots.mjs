#!/usr/bin/env node
// The `lots` command: runs the TypeScript CLI through tsx so `npx lots …` works from a checkout.
import { register } from 'tsx/esm/api';

// Started by npm (`npx lots …`, `npm run web`, an MCP host's `npx` config), this process is a grandchild of
// the process its supervisor signals: npm does not pass SIGTERM on, and the shell between them dies with
// npm, leaving this server orphaned, still serving, its batch never committed. So when the process that
// started it goes away, it stops as if it had been sent SIGTERM itself (the commands' own handlers run:
// `lots ui` closes, a gateway commits its batch). Run directly (`node bin/lots.mjs`), signals reach it
// as they are, and a parent that exits on purpose (`lots ui &` in a script) does not stop it.
if (process.env.npm_command) {
  const launcher = process.ppid;
  const watch = setInterval(() => {
    if (process.ppid === launcher) return;
    clearInterval(watch);
    process.kill(process.pid, 'SIGTERM');
  }, 250);
  watch.unref();
}

register();
const { main } = await import('../electron/cli/main.ts');
process.exitCode = await main(process.argv.slice(2));
