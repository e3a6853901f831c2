// Issue 13 #8: task labels, tool names and rejected lines come from files anyone can write. Printed raw,
// an OSC sequence retitles the terminal, `ESC[2J` clears it, a NUL or CR hides text. The CLI escapes
// every control character it prints (electron/cli/escape.ts), keeping JSON output valid JSON.
import { afterAll, describe, expect, it } from 'vitest';
import { escapeControl, escapeTerminal } from '../../electron/cli/escape';
import { jsonl, runCli, tempDir } from '../cli/io';

const tmp = tempDir('lots-escape-');
afterAll(() => tmp.cleanup());

const OSC_TITLE = '\u001b]0;pwned\u0007';
const CLEAR = '\u001b[2J\u001b[H';
const CSI_C1 = '\u009b31m';
const HOSTILE = `fx${OSC_TITLE}${CLEAR}${CSI_C1}\r\u0000\u007f\u202e`;

/** Nothing a terminal would act on: C0 except tab and newline, DEL, C1, bidi overrides. */
function expectInert(text: string): void {
  expect(text).not.toMatch(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/);
}

describe('escapeControl / escapeTerminal', () => {
  it('shows control characters as JSON escapes and leaves the rest alone', () => {
    expect(escapeControl('a\u001b[2Jb')).toBe('a\\u001b[2Jb');
    expect(escapeControl('a\nb\rc\td')).toBe('a\\nb\\rc\td');
    expect(escapeControl('\u0000\u007f\u0085\u009b')).toBe('\\u0000\\u007f\\u0085\\u009b');
    expect(escapeControl('\u202eevil')).toBe('\\u202eevil');
    expect(escapeControl('Zürich 東京 🚀 — “ok”')).toBe('Zürich 東京 🚀 — “ok”');
    expect(escapeTerminal('line 1\nline\t2\u001b]0;x\u0007')).toBe('line 1\nline\t2\\u001b]0;x\\u0007');
  });

  it('keeps JSON valid and equal in value', () => {
    const value = { tool: `t\u007f\u0085\u009b${OSC_TITLE}` };
    const text = JSON.stringify(value);
    expect(JSON.parse(escapeTerminal(text))).toEqual(value);
    expectInert(escapeTerminal(text));
  });
});

describe('the CLI never prints a control sequence from its input', () => {
  it('lots import: task labels, ids and rejected lines (with NUL bytes) are escaped', async () => {
    const trace = (id: string, task: string) => ({
      v: 1,
      id,
      task,
      tools: [{ name: 'A' }],
      turns: [{ request: 'q', steps: [{ kind: 'lines', lines: [{ tool: 'A', output: 'x' }] }], answer: 'y' }],
    });
    const file = tmp.file(
      'hostile.jsonl',
      jsonl([trace('r1', HOSTILE), trace(`id${CLEAR}`, 'ok')]) + `{"v":1,"id":"bad\u0000\u0000${OSC_TITLE}",\u0000\u0000 not json\n`,
    );
    const r = await runCli(['import', file, '--project', `${tmp.dir}/p`]);
    expect(r.code).toBe(1); // one line rejected
    expect(r.out).toContain('tasks found');
    expectInert(r.out);
    expectInert(r.err);
    expect(r.out).toContain('fx\\u001b]0;pwned\\u0007\\u001b[2J');
    // A conflicting id is printed too: import it again with other content.
    const again = tmp.file('hostile2.jsonl', jsonl([{ ...trace(`id${CLEAR}`, 'ok'), system: 'other' }]));
    const r2 = await runCli(['import', again, '--project', `${tmp.dir}/p`]);
    expect(r2.err).toContain('already in the project');
    expectInert(r2.err);
  });

  it('lots fit: tool names and task labels are escaped in the table; --json stays valid', async () => {
    const rows = [
      { trace: 'r1', task: HOSTILE, exposed: [`A${OSC_TITLE}`, 'B'], scores: { [`A${OSC_TITLE}`]: 0.5, B: 0.1 } },
      { trace: 'r2', task: HOSTILE, exposed: [`A${OSC_TITLE}`, `C\n\u001b[2J`], scores: { [`A${OSC_TITLE}`]: 0.3, [`C\n\u001b[2J`]: 0.2 } },
    ];
    const file = tmp.file('scores.jsonl', jsonl(rows));
    const table = await runCli(['fit', '--scores', file, '--resamples', '0']);
    expect(table.code).toBe(0);
    expectInert(table.out);
    expect(table.out).toContain('A\\u001b]0;pwned\\u0007');
    // A newline inside a tool name does not start a fake line of output.
    expect(table.out).toContain('C\\n\\u001b[2J');
    const json = await runCli(['fit', '--scores', file, '--resamples', '0', '--json']);
    expectInert(json.out);
    const parsed = JSON.parse(json.out) as { tasks: Record<string, { space: string[] }> };
    expect(Object.keys(parsed.tasks)).toEqual([HOSTILE]);
    expect(parsed.tasks[HOSTILE]!.space).toContain(`A${OSC_TITLE}`);
  });
});
