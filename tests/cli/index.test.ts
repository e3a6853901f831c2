import { describe, expect, it } from 'vitest';
import { readdirSync } from 'node:fs';
import { commandIndex } from '../../electron/cli/commands/index';
import { commands } from '../../electron/cli/registry';

describe('the CLI command index', () => {
  it('lists every command module with the name and summary the module registers', async () => {
    for (const entry of commandIndex) await entry.load();
    expect(commandIndex.map((e) => [e.name, e.summary])).toEqual(commandIndex.map((e) => {
      const c = commands.find((x) => x.name === e.name);
      return [e.name, c?.summary];
    }));
    expect(commands.map((c) => c.name).sort()).toEqual(commandIndex.map((e) => e.name).sort());
    const files = readdirSync('electron/cli/commands').filter((f) => f.endsWith('.ts') && f !== 'index.ts');
    expect(files.length).toBeGreaterThan(10);
  });
});
