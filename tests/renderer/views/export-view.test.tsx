import '../page'; // first: the DOM the view is drawn in (tests/renderer/page.ts says why not @vitest-environment)
// The Export view against the real engine service: a task with no approved space is refused with the
// engine's reason and nothing to copy or download (issue 40 item 5); the new formats are offered,
// mcp-claude asks for the MCP server's name and the engine writes it into the names; "export every
// approved space" is one action that skips the tasks with none (issue 44 item 7). (The formats' contents
// in full are tested over the real service in tests/cli/space.test.ts and tests/engine/usecases/identity.test.ts.)
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { approveProposal, financeProject, renderStudio, TASK, TOOLS } from '../studio';

afterEach(cleanup);

describe('Export view', () => {
  it('refuses a task with no approved space: the reason, a way to approve, nothing to copy or download', async () => {
    await renderStudio({ view: 'export', task: TASK });
    const refusal = await screen.findByTestId('export-refused');
    expect(refusal.textContent).toContain(`task "${TASK}" has no approved space, so there is nothing to export (an empty allow-list would block every tool)`);
    expect(within(refusal).getByRole('button', { name: 'Review & approve…' })).toBeTruthy();
    expect(screen.getByTestId<HTMLButtonElement>('save-export').disabled).toBe(true);
    expect(screen.getByTestId<HTMLButtonElement>('copy-export').disabled).toBe(true);
    expect(screen.getByTestId('export-text').textContent).toBe('');
    // A refusal is shown in place, not as an error notice.
    expect(screen.queryByRole('alert', { name: /Cannot export/ })).toBeNull();
  });

  it('offers the three-state formats, writes the MCP server name into the mcp-claude names, and exports every approved space in one action', async () => {
    const { dir } = financeProject({ otherTask: 'other' });
    const v0 = await approveProposal(dir);
    await renderStudio({ view: 'export', task: TASK }, { dir });
    for (const name of [/OpenAI Responses tools/, /Anthropic tools/, /OpenAI Chat tools/, /Claude Agent SDK/])
      expect(screen.getByRole('radio', { name })).toBeTruthy();

    fireEvent.click(screen.getByRole('radio', { name: /Claude Agent SDK/ }));
    fireEvent.change(await screen.findByTestId('mcp-server'), { target: { value: 'finance' } });
    await waitFor(() => expect(screen.getByTestId('export-text').textContent).toContain(`mcp__finance__${TOOLS[0]}`));
    // Every tool of the approved version (pinned and deferred) under the server's name, none unprefixed.
    const text = screen.getByTestId('export-text').textContent;
    for (const tool of [...v0.tools, ...v0.deferred]) expect(text).toContain(`"mcp__finance__${tool}"`);
    expect(text).not.toContain(`"${TOOLS[0]}"`);

    // The browser's download (renderer/api/files.ts) needs object URLs, which happy-dom may lack.
    if (typeof URL.createObjectURL !== 'function') Object.assign(URL, { createObjectURL: () => 'blob:x', revokeObjectURL: () => undefined });
    fireEvent.click(screen.getByTestId('export-all'));
    // Without the server name the engine would refuse fx_settle's mcp-claude names: one exported means it had it.
    expect(await screen.findByText('1 approved space exported')).toBeTruthy();
    expect(screen.getByText('skipped (no approved space): other')).toBeTruthy();
  });

  it('is one Tab stop: the checked format is focusable, the arrows, Home and End move the choice and the focus (issue 40 item 13)', async () => {
    const { dir } = financeProject();
    await approveProposal(dir);
    const { api } = await renderStudio({ view: 'export', task: TASK }, { dir });
    const radios = screen.getAllByRole('radio');
    const stops = () => radios.filter((r) => r.tabIndex === 0);
    expect(stops()).toHaveLength(1);
    const first = stops()[0]!;
    expect(first.getAttribute('aria-checked')).toBe('true');
    first.focus();
    fireEvent.keyDown(first, { key: 'ArrowDown' });
    const second = radios[radios.indexOf(first) + 1]!;
    await waitFor(() => expect(second.getAttribute('aria-checked')).toBe('true'));
    expect(document.activeElement).toBe(second);
    expect(stops()).toEqual([second]);
    fireEvent.keyDown(second, { key: 'End' });
    await waitFor(() => expect(radios[radios.length - 1]!.getAttribute('aria-checked')).toBe('true'));
    fireEvent.keyDown(radios[radios.length - 1]!, { key: 'ArrowRight' });
    await waitFor(() => expect(radios[0]!.getAttribute('aria-checked')).toBe('true'));
    expect(document.activeElement).toBe(radios[0]);
    // The text shown is the engine's export in the format chosen last.
    const format = radios[0]!.getAttribute('data-format') as Parameters<typeof api.renderExport>[0]['format'];
    const { text } = await api.renderExport({ task: TASK, format });
    await waitFor(() => expect(screen.getByTestId('export-text').textContent).toBe(text));
  });
});
