// Issue 38, item 6 in Chromium: traces whose records carry `metadata.task`, imported without a task
// field, are named as unlabelled with the field offered; Route gives them tasks, which the task table
// then lists. Then a task field typed before the next import labels its traces from the records.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { describeRequiring } from '../describe-requiring';
import { ProjectStore } from '../../electron/engine/store';
import { useStudioPage } from './studio';

function records(prefix: string): string {
  const topics: Record<string, string[]> = {
    billing: ['refund my last invoice please', 'why was my invoice charged twice', 'send the invoice for march again'],
    weather: ['will it rain in lisbon tomorrow', 'weather forecast for porto this weekend', 'is it going to rain in madrid today'],
  };
  const lines: string[] = [];
  for (const [task, requests] of Object.entries(topics))
    requests.forEach((request, i) =>
      lines.push(
        JSON.stringify({
          messages: [
            { role: 'user', content: `${prefix} ${request}` },
            { role: 'assistant', content: null, tool_calls: [{ id: `c${i}`, type: 'function', function: { name: `${task}_lookup`, arguments: '{}' } }] },
            { role: 'tool', tool_call_id: `c${i}`, content: `${task} result ${i}` },
            { role: 'assistant', content: `done ${i}` },
          ],
          metadata: { task },
        }),
      ),
    );
  return lines.join('\n') + '\n';
}

describeRequiring('chromium', 'import: task field and Route in the Studio', () => {
  const s = useStudioPage('import-tasks', {
    before: (work) => ProjectStore.create(join(work, 'p')),
    ready: async ({ work, studio }) => {
      await studio.service.openProject({ dir: join(work, 'p') });
    },
  });

  it('offers the field the records carry, routes the unlabelled traces, and reads the field on the next import', async () => {
    const { page, ui, work } = s;
    await page.waitForSelector('text=No traces yet');
    const first = join(work, 'runs.jsonl');
    writeFileSync(first, records('please:'));
    await page.setInputFiles('[data-testid="trace-file-input"]', first);
    const panel = page.locator('[data-testid="import-unlabelled"]');
    await panel.waitFor();
    expect(await panel.textContent()).toContain('6 traces arrived without a task');
    expect(await panel.locator('code').textContent()).toBe('metadata.task');
    await ui.settle();
    await ui.shot('import-unlabelled');

    await page.click('[data-testid="route-unlabelled"]');
    const result = page.locator('[data-testid="route-result"]');
    await result.waitFor();
    expect(await result.textContent()).toMatch(/^Routed 6 traces into \d+ tasks: cluster-01 \(\d+\)/);
    await page.locator('[data-testid="task-table"] >> text=cluster-01').waitFor();
    await ui.settle();
    await ui.shot('import-routed');

    await page.fill('[data-testid="import-task-field"]', 'metadata.task');
    const second = join(work, 'more-runs.jsonl');
    writeFileSync(second, records('now:'));
    await page.setInputFiles('[data-testid="trace-file-input"]', second);
    await page.locator('[data-testid="import-report"] >> text=more-runs.jsonl').waitFor();
    expect(await page.locator('[data-testid="import-unlabelled"]').count()).toBe(0);
    await page.locator('[data-testid="task-table"] >> text=billing').waitFor();
    await page.locator('[data-testid="task-table"] >> text=weather').waitFor();
    await ui.settle();
    await ui.shot('import-task-field');
    expect(ui.errors).toEqual([]);
  }, 120_000);
});
