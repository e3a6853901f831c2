import '../page'; // first: the DOM the view is drawn in (tests/renderer/page.ts says why not @vitest-environment)
// Issue 38 item 6, the Trace view: a 2.2 MB observation (a base64 image from an image-generation tool) is
// not put into the page whole — the image shows as an image, a long text collapses behind "show all" —
// and a turn whose recorded answer is empty says it can never be scored instead of "Not scored yet".
// The trace is imported into a real project and read back through the real service.
import { cleanup, fireEvent, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import type { Trace } from '../../../shared/trace/schema';
import { financeProject, renderStudio, TASK } from '../studio';

afterEach(cleanup);

// A real PNG header, then 2.2 MB of base64 (the size of the image result).
const PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg';
const big = PNG + 'A'.repeat(2_200_000);
const log = Array.from({ length: 400 }, (_, i) => `line ${i}: ${'x'.repeat(40)}`).join('\n');

const trace = {
  v: 1,
  id: 'img-1',
  task: TASK,
  tools: [{ name: 'generate_image' }, { name: 'read_log' }],
  turns: [
    {
      request: 'draw a cat, then read the log',
      steps: [
        { kind: 'call', calls: [{ id: 'c1', name: 'generate_image', arguments: {} }] },
        { kind: 'observation', callId: 'c1', name: 'generate_image', content: JSON.stringify({ image: big, format: 'png' }), pairing: 'id' },
        { kind: 'call', calls: [{ id: 'c2', name: 'read_log', arguments: {} }] },
        { kind: 'observation', callId: 'c2', name: 'read_log', content: log, pairing: 'id' },
        { kind: 'message', role: 'assistant', content: 'Working on it.' },
        { kind: 'message', role: 'user', content: 'and?' },
      ],
      answer: '',
    },
  ],
} as Trace;

describe('Trace view observations', () => {
  it('shows an image result as an image, collapses long outputs, and says an empty answer can never be scored', async () => {
    const { dir, project } = financeProject();
    project.addTraces([trace], 'images.jsonl');
    await renderStudio({ view: 'trace', task: TASK, trace: 'img-1' }, { dir });
    const img = await screen.findByTestId('observation-image');
    expect(img.getAttribute('src')!.startsWith('data:image/png;base64,iVBORw0KGgo')).toBe(true);
    expect(document.body.textContent.length).toBeLessThan(100_000);
    const toggles = screen.getAllByTestId('observation-toggle');
    expect(toggles).toHaveLength(1);
    expect(toggles[0]!.textContent).toMatch(/show all \(\d{2},\d{3} characters\)/);
    expect(document.body.textContent).not.toContain('line 399');
    fireEvent.click(toggles[0]!);
    expect(document.body.textContent).toContain('line 399');
    expect(screen.getByTestId('turn-never-scoreable').textContent).toMatch(/can never be scored/i);
    expect(document.body.textContent).not.toContain('Not scored yet');
  });
});
