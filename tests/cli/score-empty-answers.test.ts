// `lots score` on a project whose traces were answered but end every turn with an empty message (issue 38,
// item 3: BFCL results used to import like that): it must not advise `lots serve`, which cannot help.
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ProjectStore } from '../../electron/engine/store';
import type { Trace } from '../../shared/trace/schema';
import { evidenceCopyModel } from '../engine/fixtures';
import { runCli, tempDir } from './io';

const tmp = tempDir();
afterAll(() => tmp.cleanup());

function emptyEnded(id: string): Trace {
  return {
    v: 1,
    id,
    task: 'files',
    tools: [{ name: 'ls' }],
    turns: [
      {
        request: 'list the files',
        steps: [
          { kind: 'message', role: 'assistant', content: 'Let me look.' },
          { kind: 'message', role: 'user', content: 'go on' },
        ],
        answer: '',
      },
    ],
  };
}

describe('lots score with nothing scoreable', () => {
  it('says the traces can never be scored, and does not send the user to lots serve', async () => {
    const project = join(tmp.dir, 'p');
    ProjectStore.create(project).addTraces([emptyEnded('a'), emptyEnded('b')], 'x');
    const r = await runCli(['score', '--project', project, '--model', evidenceCopyModel(), '--gpu', 'cpu', '--intervention', 'line']);
    expect(r.out + r.err).toContain('2 traces end every turn with an empty message and can never be scored');
    expect(r.out + r.err).not.toContain('lots serve');
    expect(r.out + r.err).not.toContain('serve them first');
  });
});
