// The CLI's lazy command index (electron/cli/commands/index.ts) against the command modules themselves.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Command } from '../../electron/cli/command';
import { commandIndex } from '../../electron/cli/commands/index';

const dir = 'electron/cli/commands';
const modules = readdirSync(dir).filter((f) => f.endsWith('.ts') && f !== 'index.ts');

function isCommand(value: unknown): value is Command {
  return Boolean(value) && typeof value === 'object' && typeof (value as Command).name === 'string' && typeof (value as Command).run === 'function';
}

/** Imports of other command modules (`./x`); the CLI's shared helpers live one folder up. */
function commandImports(file: string): string[] {
  return [...readFileSync(join(dir, file), 'utf8').matchAll(/from '\.\/([^']+)'/g)].map((m) => m[1]!);
}

describe('the CLI command index', () => {
  it('loads, for every entry, a command of that name and summary', async () => {
    for (const entry of commandIndex) {
      const command = await entry.load();
      expect(isCommand(command), entry.name).toBe(true);
      expect([command.name, command.summary]).toEqual([entry.name, entry.summary]);
    }
    expect(new Set(commandIndex.map((e) => e.name)).size).toBe(commandIndex.length);
  });

  it('lists every command that a command module exports, and only those', async () => {
    const loaded = new Set(await Promise.all(commandIndex.map((e) => e.load())));
    const exported: string[] = [];
    for (const file of modules) {
      const mod = (await import(`../../electron/cli/commands/${file.replace(/\.ts$/, '')}`)) as Record<string, unknown>;
      const commands = Object.values(mod).filter(isCommand);
      expect(commands.length, `${file} exports no command`).toBeGreaterThan(0);
      for (const c of commands) {
        expect(loaded.has(c), `${file}: "${c.name}" is not in the index`).toBe(true);
        exported.push(c.name);
      }
    }
    expect(exported.sort()).toEqual(commandIndex.map((e) => e.name).sort());
  });

  it('has no command importing another command module', () => {
    for (const file of modules) expect(commandImports(file), file).toEqual([]);
  });
});

describe('a group of subcommands named alone', () => {
  it('lists its subcommands (on --help, exit 0; alone, on stderr with exit 2), and a real unknown command is still unknown', async () => {
    const { runCli } = await import('./io');
    const help = await runCli(['space', '--help']);
    expect(help.code).toBe(0);
    for (const e of commandIndex.filter((c) => c.name.startsWith('space '))) expect(help.out).toContain(e.name);
    expect(help.out).toContain('lots space <subcommand> --help');
    const alone = await runCli(['bench']);
    expect(alone.code).toBe(2);
    expect(alone.err).toContain('bench scoring');
    const unknown = await runCli(['nosuch', '--help']);
    expect(unknown.code).toBe(2);
    expect(unknown.err).toContain('unknown command "nosuch --help"');
  });
});
