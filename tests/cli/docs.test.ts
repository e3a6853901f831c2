// The README and docs/ are a contract: every relative link points at a file that exists, and every
// `npx lots …` line in a code block names a command the CLI has (electron/cli/commands/index.ts).
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { commandIndex } from '../../electron/cli/commands/index';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
const DOCS = [
  'README.md',
  ...readdirSync(join(ROOT, 'docs'))
    .filter((f) => f.endsWith('.md'))
    .map((f) => `docs/${f}`),
];

/** Markdown links outside code, as [file, line, target]. */
export function relativeLinks(text: string): { line: number; target: string }[] {
  const found: { line: number; target: string }[] = [];
  let fence = false;
  text.split('\n').forEach((line, i) => {
    if (/^\s*```/.test(line)) fence = !fence;
    if (fence) return;
    for (const m of line.replace(/`[^`]*`/g, '').matchAll(/\]\(([^)\s]+)\)/g)) {
      const target = m[1]!;
      if (/^(https?:|mailto:|#)/.test(target)) continue;
      found.push({ line: i + 1, target: target.split('#')[0]! });
    }
  });
  return found;
}

/** The `lots` subcommands named by `npx lots …` lines inside code blocks, as [line, words]. */
export function lotsInvocations(text: string): { line: number; words: string[] }[] {
  const found: { line: number; words: string[] }[] = [];
  let fence = false;
  text.split('\n').forEach((line, i) => {
    if (/^\s*```/.test(line)) {
      fence = !fence;
      return;
    }
    if (!fence) return;
    for (const m of line.matchAll(/(?:^|[;&|]\s*|\s)npx lots((?:\s+[a-z][a-z-]*)*)/g)) {
      found.push({ line: i + 1, words: m[1]!.trim().split(/\s+/).filter(Boolean) });
    }
  });
  return found;
}

const commandNames = new Set(commandIndex.map((c) => c.name));

function knownCommand(words: string[]): boolean {
  if (words.length === 0) return true; // `npx lots --help`
  return commandNames.has(words.slice(0, 2).join(' ')) || commandNames.has(words[0]!);
}

describe('README and docs', () => {
  it('the README stays short enough to read in five minutes', () => {
    expect(readFileSync(join(ROOT, 'README.md'), 'utf8').split('\n').length).toBeLessThanOrEqual(250);
  });

  it.each(DOCS)('%s: every relative link points at a file that exists', (file) => {
    const text = readFileSync(join(ROOT, file), 'utf8');
    const broken = relativeLinks(text)
      .filter(({ target }) => target !== '' && !existsSync(resolve(ROOT, dirname(file), decodeURI(target))))
      .map(({ line, target }) => `${file}:${line}: ${target}`);
    expect(broken).toEqual([]);
  });

  it.each(DOCS)('%s: every `npx lots …` in a code block names a real command', (file) => {
    const text = readFileSync(join(ROOT, file), 'utf8');
    const unknown = lotsInvocations(text)
      .filter(({ words }) => !knownCommand(words))
      .map(({ line, words }) => `${file}:${line}: lots ${words.join(' ')}`);
    expect(unknown).toEqual([]);
  });

  it('the checks bite: a missing file and an unknown command are found', () => {
    expect(relativeLinks('see [x](docs/nope.md) and [y](https://example.org)')).toEqual([{ line: 1, target: 'docs/nope.md' }]);
    const calls = lotsInvocations('```sh\nnpx lots frobnicate --x 1\nnpx lots models pull pypi:x\n```');
    expect(calls.map((c) => knownCommand(c.words))).toEqual([false, true]);
  });
});
