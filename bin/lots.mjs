#!/usr/bin/env node
// The `lots` command: runs the TypeScript CLI through tsx so `npx lots …` works from a checkout.
import { register } from 'tsx/esm/api';
register();
const { main } = await import('../electron/cli/main.ts');
process.exitCode = await main(process.argv.slice(2));
