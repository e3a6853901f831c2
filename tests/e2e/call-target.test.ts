// A BFCL record whose turns end in calls (paper B.2), imported and scored in the Studio with the
// generated reference model: the scoring job says how many turns were scored as calls and which turn
// could not be scored and why; the Trace view shows the final call as the frozen answer with its
// scored tokens, and the turn with an empty final message as not scored.
import { expect, it } from 'vitest';
import type { JobInfo } from '../../shared/api/types';
import { describeRequiring } from '../describe-requiring';
import { fixturePath } from '../shared/importers/helpers';
import { openStudioPage, useStudioPage } from './studio';

const TRACE = 'multi_turn_long_context_7';

describeRequiring('chromium', 'call-valued final turns in the Studio', () => {
  let job: JobInfo | undefined;
  const s = useStudioPage('call-target', {
    page: false,
    ready: async ({ work, studio }) => {
      await studio.service.createProject({ dir: `${work}/bfcl`, name: 'bfcl' });
      await studio.service.importTraces({ paths: [fixturePath('bfcl/result/demo-model-FC/multi_turn/BFCL_v4_multi_turn_long_context_result.json')] });
      const model = await studio.service.prepareReferenceModel();
      const started = await studio.service.startScoring({ model: model.path });
      for (;;) {
        job = (await studio.service.listJobs()).find((j) => j.id === started.id);
        if (job?.status === 'done') break;
        if (!job || ['failed', 'cancelled', 'interrupted'].includes(job.status))
          throw new Error(`scoring: ${job?.status ?? 'gone'} ${job?.error?.message ?? ''}`);
        await new Promise((r) => setTimeout(r, 200));
      }
    },
  });

  it('the scoring job counts the call-valued turns (turn 2 ends in an empty step after its call: the call is its target)', () => {
    expect(job!.message).toContain('3 turns ending in a call scored as the serialized call');
    expect(job!.message).not.toContain('not scored');
  });

  it('the Trace view shows the final call as the frozen answer, also where an empty step closes the turn', async () => {
    const ui = await openStudioPage(s.browser, `${s.studio.host.openUrl}#/trace?task=GorillaFileSystem&trace=${TRACE}`);
    const page = ui.page;
    await page.waitForSelector('[data-testid="frozen-answer"]');
    await page.selectOption('.trace-side select', '1');
    await ui.settle();
    const answer = (await page.textContent('[data-testid="frozen-answer"]'))!;
    expect(answer).toContain('Frozen answer: a call');
    expect(answer).toContain('mv');
    expect(answer).toContain('wc');
    // The scored tokens are the serialized calls (the reference model renders the plain transcript).
    expect(await page.locator('[data-testid="frozen-answer"] .tok.scored').count()).toBeGreaterThan(10);
    await page.locator('[data-testid="frozen-answer"]').scrollIntoViewIfNeeded();
    await ui.shot('call-target');
    // Turn 2 ends in an empty closing step after a call: the call is its frozen answer (paper B.2), not the empty step.
    await page.selectOption('.trace-side select', '2');
    await ui.settle();
    const last = (await page.textContent('[data-testid="frozen-answer"]'))!;
    expect(last).toContain('Frozen answer: a call');
    expect(last).toContain('pwd');
    expect(await page.locator('[data-testid="turn-unscored"]').count()).toBe(0);
    await page.locator('[data-testid="frozen-answer"]').scrollIntoViewIfNeeded();
    await ui.shot('call-target-empty-closing-step');
    expect(ui.errors).toEqual([]);
    await ui.close();
  });
});
