// Issue 41: a view is read in one sitting. No file of renderer/views/ (its folders included) is over
// 250 lines; a large view is a folder of parts (renderer/views/<view>/), its entry file at the top.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, it } from 'vitest';

const ROOT = join(__dirname, '..', '..', 'renderer', 'views');
const files = (dir: string): string[] =>
  readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? files(join(dir, e.name)) : /\.tsx?$/.test(e.name) ? [join(dir, e.name)] : []));

it('keeps every file of renderer/views/ at 250 lines or fewer', () => {
  const all = files(ROOT);
  expect(all.length).toBeGreaterThan(20);
  const long = all.map((f) => ({ file: f.slice(ROOT.length + 1), lines: readFileSync(f, 'utf8').split('\n').length - 1 })).filter((f) => f.lines > 250);
  expect(long).toEqual([]);
});
