// Every CLI command, in the order `lots --help` lists them. Add one line per command.
import type { Command } from './command';

export const commands: Command[] = [];

export function registerCommands(list: Command[]): void {
  commands.push(...list);
}
